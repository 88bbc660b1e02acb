/**
 * The `python` tool (issue 18: Python "as a tool where the shell is off"): the code reaches CPython exactly as written,
 * over the same files as the file tools, with execute's result format, timeout and errors. Real Pyodide on the
 * offline shell's own thread (worker_threads running the browser's thread code).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBackendRuntime } from "../backends/runtime.ts";
import { isBackendError, type Outcome } from "../backends/protocol.ts";
import { ShellBackend } from "../backends/sandbox/shell.ts";
import { newShellSession } from "../backends/sandbox/shell-session.ts";
import { MemoryFileStore } from "../backends/memory-store.ts";
import type { ToolOutput, ToolRuntime } from "../harness/types.ts";
import { nodeShellThreads } from "../testing/node-shell-threads.ts";
import { createPythonTool, shellWord } from "./python.ts";

function ok<T>(value: Outcome<T>): T {
  if (isBackendError(value)) throw new Error(value.message);
  return value;
}

const text = (out: ToolOutput) => (typeof out === "string" ? out : out.content);

describe("shellWord", () => {
  it("quotes any text as one single-quoted shell word", () => {
    expect(shellWord("print('hi')")).toBe(`'print('\\''hi'\\'')'`);
    expect(shellWord("")).toBe("''");
  });
});

describe("the python tool", () => {
  const threads = nodeShellThreads();
  const files = new MemoryFileStore();
  const session = newShellSession();
  const shell = () => new ShellBackend({ threads, files, session });
  const tool = createPythonTool({ shell });
  const chunks: unknown[] = [];
  const run = async (args: Record<string, unknown>) => {
    const config = { writer: (chunk: unknown) => chunks.push(chunk) };
    const runtime = {
      toolCall: { id: "py1", name: "python", args, type: "tool_call" },
      state: { messages: [] },
      config,
      backend: shell(),
      backendRuntime: createBackendRuntime({}, config),
    } as unknown as ToolRuntime;
    return tool.run(args, runtime);
  };
  beforeAll(async () => {
    // Pyodide's cold start, once for the file.
    await shell().execute("python3 -c pass", 120);
  }, 180_000);
  afterAll(() => threads.close());

  it("runs the code exactly as written: quotes, $, backquotes, backslashes and newlines reach Python untouched", async () => {
    const code = ["s = 'it\\'s' + \"\\\"quoted\\\"\" + ' $HOME `date` \\\\n'", "print(s)", "print(len(s))"].join("\n");
    const out = text(await run({ code }));
    expect(out).toBe(
      `it's"quoted" $HOME \`date\` \\n\n${`it's"quoted" $HOME \`date\` \\n`.length}\n\n[Command succeeded with exit code 0]`,
    );
    // Its output streamed to the page as execute's does, under this call's id.
    expect(chunks).toContainEqual(expect.objectContaining({ toolCallId: "py1" }));
  }, 60_000);

  it("reads and writes the workspace files at their paths, bytes included (a PNG made with the standard library)", async () => {
    ok(await shell().write("/data.csv", "n\n2\n3\n"));
    const code = [
      "import csv, struct, zlib",
      "total = sum(int(r['n']) for r in csv.DictReader(open('/data.csv')))",
      "open('/total.txt', 'w').write(str(total))",
      "def chunk(kind, data):",
      "    body = kind + data",
      "    return struct.pack('>I', len(data)) + body + struct.pack('>I', zlib.crc32(body))",
      "raw = b''.join(b'\\x00' + b'\\xff\\x00\\x00' * 4 for _ in range(4))",
      "png = b'\\x89PNG\\r\\n\\x1a\\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', 4, 4, 8, 2, 0, 0, 0))",
      "png += chunk(b'IDAT', zlib.compress(raw)) + chunk(b'IEND', b'')",
      "open('/plot.png', 'wb').write(png)",
      "print(total)",
    ].join("\n");
    expect(text(await run({ code }))).toBe("5\n\n[Command succeeded with exit code 0]");
    expect(ok(await shell().read("/total.txt")).lines).toEqual(["5"]);
    const [png] = await shell().downloadFiles(["/plot.png"]);
    expect(Array.from(png!.content!.slice(0, 8))).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  }, 60_000);

  it("a failing program is its traceback and exit code; a runaway loop stops at the timeout; a bad timeout is refused", async () => {
    const failed = text(await run({ code: "1/0" }));
    expect(failed).toMatch(/ZeroDivisionError: division by zero\n+\[Command failed with exit code 1\]$/);
    const started = Date.now();
    expect(text(await run({ code: "while True:\n    pass", timeout: 2 }))).toMatch(/Command timed out/);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(await run({ code: "print(1)", timeout: -1 })).toEqual({
      content: "Error: timeout must be between 0 and 3600 seconds, got -1.",
      status: "error",
    });
    // The thread the timeout killed is replaced: the next call runs.
    expect(text(await run({ code: "print('again')" }))).toBe("again\n\n[Command succeeded with exit code 0]");
  }, 180_000);
});
