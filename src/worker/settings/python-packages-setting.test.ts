/**
 * The app's "Python packages" setting: off by default (Pyodide's CDN is a third party), a package source's URL when
 * on; the model is told where packages come from (system prompt, and the python tool's description), through the real
 * worker API over fake-indexeddb and a scripted OpenAI-compatible server on loopback. Installing from a source is
 * tested where Python runs (python.test.ts in Node, python.browser.test.ts in Chromium).
 */
import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import { PYODIDE_CDN } from "../../backends/sandbox/python-packages.ts";
import { serveScripted } from "../../testing/scripted-servers.ts";
import { collectRun, openWorkerApi } from "../../testing/worker-api.ts";
import { pythonDescription, PYTHON_DESCRIPTION } from "../../tools/python.ts";
import { PYTHON_PACKAGES_CDN } from "../../protocol/settings.ts";
import type { AgentWorkerApi } from "../../protocol/worker-api.ts";
import { DEFAULT_SETTINGS, sanitizeSettings } from "./settings.ts";

const serve = serveScripted();

type Chat = { messages: Array<{ role: string; content: unknown }>; tools?: Array<{ function: { name: string; description: string } }> };

async function lastChat(api: AgentWorkerApi, thread: string, requests: () => Array<{ path: string; body: unknown }>) {
  const run = await collectRun((cb) => api.startRun(thread, { text: "hi" }, cb));
  expect(await run.done).toMatchObject({ type: "done", status: "complete" });
  const body = requests()
    .filter((r) => r.path.endsWith("/chat/completions"))
    .at(-1)!.body as Chat;
  const system = body.messages.find((m) => m.role === "system")!.content;
  return { system: String(system), python: body.tools?.find((t) => t.function.name === "python")?.function.description };
}

describe("the Python packages setting", () => {
  it("is off by default, keeps an http(s) URL of a source and drops anything else", () => {
    expect(DEFAULT_SETTINGS.pythonPackages).toBe("");
    expect(PYTHON_PACKAGES_CDN).toBe(PYODIDE_CDN);
    expect(sanitizeSettings({ pythonPackages: PYODIDE_CDN }).pythonPackages).toBe(PYODIDE_CDN);
    expect(sanitizeSettings({ pythonPackages: "http://127.0.0.1:8000/pyodide/" }).pythonPackages).toBe("http://127.0.0.1:8000/pyodide/");
    for (const bad of ["javascript:alert(1)", "file:///etc/", "not a url", 42, `https://x.example/${"a".repeat(600)}`]) {
      expect(sanitizeSettings({ pythonPackages: bad }).pythonPackages, String(bad)).toBe("");
    }
    expect(sanitizeSettings({ pythonPackages: "ftp://x/" }, { ...DEFAULT_SETTINGS, pythonPackages: PYODIDE_CDN }).pythonPackages).toBe(
      PYODIDE_CDN,
    );
  });

  it("tells the model Python's packages come from the source once it is on, and the standard library only before", async () => {
    const server = await serve("openai");
    const { api } = openWorkerApi();
    const choice = { provider: "openai-compatible" as const, baseUrl: server.baseUrl(), model: "m", contextWindow: 128_000 };
    await api.setThreadModel("a", choice);
    expect((await lastChat(api, "a", () => server.requests)).system).toContain("python3 (standard library only)");
    expect((await api.sandboxStatus()).reason).toContain("with python3's standard library: no node, npm, pip or network");

    await api.updateSettings({ pythonPackages: PYODIDE_CDN });
    // Settings' sandbox line says where packages come from.
    expect((await api.sandboxStatus()).reason).toContain("python3's standard library and packages from cdn.jsdelivr.net");
    await api.setThreadModel("b", choice);
    expect((await lastChat(api, "b", () => server.requests)).system).toContain(
      "python3 (standard library, and packages such as numpy, pandas and matplotlib, installed from cdn.jsdelivr.net when imported)",
    );

    // No sandbox: the python tool's own description says it too.
    await api.updateSettings({ sandbox: "none" });
    await api.setThreadModel("c", choice);
    const none = await lastChat(api, "c", () => server.requests);
    expect((await api.sandboxStatus()).reason).toContain("its python tool runs Python over the files, with packages from cdn.jsdelivr.net");
    expect(none.python).toBe(pythonDescription("cdn.jsdelivr.net"));
    expect(none.python).toContain("installed from cdn.jsdelivr.net on import; no network");
    expect(none.system).toContain("the `python` tool runs Python 3 (standard library, and packages such as numpy");
    expect(PYTHON_DESCRIPTION).toContain("standard library only: no pip packages, no network");
  });
});
