import { describe, expect, it } from "vitest";
import { PART_LABELS, partOf, summarizeCache } from "./offline-cache.ts";

describe("the offline caches' parts", () => {
  it("names the big downloads by what they are and the rest as other features' code", () => {
    expect(partOf("assets/wllama-CO25czjY.wasm")).toBe("llama");
    expect(partOf("assets/chat-wllama-BgNTToFx.js")).toBe("llama");
    expect(partOf("assets/pyodide/pyodide.asm.wasm")).toBe("python");
    expect(partOf("assets/pyodide/python_stdlib.zip")).toBe("python");
    expect(partOf("assets/emscripten-module-uFzwHH0Y.wasm")).toBe("quickjs");
    expect(partOf("assets/ffi-Dkn3eMhl.js")).toBe("quickjs");
    // The js_eval tool's own wiring loads with the agent's tools, not with the sandbox.
    expect(partOf("assets/js-eval-vEKdIvbl.js")).toBe("code");
    expect(partOf("assets/shell.worker-CWdLdWtx.js")).toBe("shell-interpreter");
    expect(partOf("agents/coding.json")).toBe("agents");
    expect(partOf("assets/xterm-view-BqTgSbGJ.js")).toBe("code");
    expect(partOf("assets/pyodide-helper-x.js")).toBe("code");
  });

  it("sums each part, the app first and then the largest parts first; nothing kept, nothing listed", () => {
    const shell = [
      { path: "index.html", bytes: 4_000 },
      { path: "assets/index-a.js", bytes: 400_000 },
    ];
    const parts = [
      { path: "assets/xterm-view-b.js", bytes: 360_000 },
      { path: "assets/pyodide/pyodide.asm.wasm", bytes: 9_600_000 },
      { path: "assets/pyodide/python_stdlib.zip", bytes: 2_500_000 },
      { path: "assets/fetch-url-c.js", bytes: 20_000 },
    ];
    expect(summarizeCache(shell, parts)).toEqual([
      { part: "shell", label: PART_LABELS.shell, files: 2, bytes: 404_000 },
      { part: "python", label: PART_LABELS.python, files: 2, bytes: 12_100_000 },
      { part: "code", label: PART_LABELS.code, files: 2, bytes: 380_000 },
    ]);
    expect(summarizeCache([], [])).toEqual([]);
  });
});
