/**
 * ShellBackend in Chromium over the real IndexedDB workspace, built the way
 * the worker builds it (createLayout + createSandboxService, sandbox "shell"):
 * the backend conformance suite against the bare shell route and against the
 * app's whole filesystem (shell at `/`, /memories/ and /skills/ in the
 * IndexedDB store); `execute` cases (exit codes, stderr, pipes, a timeout,
 * the output cap, offload of a large result by an agent run); and a file
 * a command wrote surviving a "reload": a fresh layout on the same databases
 * (new connections, empty caches) reads it back, through the tools and the shell.
 */
import { HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { beforeAll, describe, expect, it } from "vitest";
import { createDeepAgent } from "../../agent/create-deep-agent.ts";
import { ScriptedChatModel } from "../../models/scripted.ts";
import { backendConformance } from "../../testing/backend-conformance.ts";
import { shellCloseBehaviours, shellParityBehaviours } from "../../testing/shell-parity.ts";
import { FIXED_NOW } from "../../testing/runtime.ts";
import { createLayout, type Layout } from "../../worker/layout.ts";
import { createSandboxService } from "../../worker/sandbox.ts";
import { canExecute, isBackendError, type Outcome, type SandboxBackendProtocol } from "../protocol.ts";
import { createBackendRuntime, resolveBackend } from "../runtime.ts";
import { newShellSession } from "./shell-session.ts";
import { DEFAULT_MAX_OUTPUT_BYTES, ShellBackend } from "./shell.ts";

function ok<T>(value: Outcome<T>): T {
  if (isBackendError(value)) throw new Error(`${value.error}: ${value.message}`);
  return value;
}

const runtime = (thread: string) => createBackendRuntime({}, { configurable: { thread_id: thread } }, () => FIXED_NOW);

/** The app's filesystem for one thread with the offline shell as the workspace route, on databases named by `prefix`. */
function appFilesystem(prefix: string, thread = "thread-1"): { layout: Layout; fs: SandboxBackendProtocol; shell: ShellBackend } {
  const layout = createLayout(prefix);
  const shellRoute = createSandboxService(layout.workspace).workspaceFor("shell");
  const fs = resolveBackend(layout.backend(shellRoute), runtime(thread));
  const shell = shellRoute(runtime(thread));
  if (!canExecute(fs) || !(shell instanceof ShellBackend)) throw new Error("the shell sandbox did not give a ShellBackend");
  return { layout, fs, shell };
}

/** Closes a layout's connections, as a page going away does. */
async function close(layout: Layout): Promise<void> {
  await layout.workspace.close();
  await layout.store.stop();
}

const fresh = () => `shell-${crypto.randomUUID()}`;

// The shell's Web Worker loads the interpreter on first use (the dev server transforms it the first time: seconds).
beforeAll(async () => {
  await new ShellBackend().execute("true");
}, 120_000);

backendConformance("ShellBackend (the app's shell route over the IndexedDB workspace, Chromium)", () => appFilesystem(fresh()).shell);
backendConformance(
  "ShellBackend in the app's layout (IndexedDB workspace, /memories/ and /skills/ in the store, Chromium)",
  () => appFilesystem(fresh()).fs,
  {
    rootExtras: ["/memories", "/skills"],
  },
);

shellParityBehaviours("the app's filesystem, Chromium", () => appFilesystem(fresh()).fs);
describe("ShellBackend close in Chromium (deepagentsjs sandboxes' close/isRunning)", () => {
  shellCloseBehaviours("its own Web Worker thread", () => new ShellBackend({ now: () => FIXED_NOW }));
});

describe("ShellBackend execute in Chromium (IndexedDB workspace)", () => {
  it("reports exit codes and stderr, and runs pipes over files the tools wrote", async () => {
    const { fs, layout } = appFilesystem(fresh());
    ok(await fs.write("/data/fruit.txt", "banana\napple\ncherry\napple\n"));
    expect(await fs.execute("exit 3")).toEqual({ output: "", exitCode: 3, truncated: false });
    expect(await fs.execute("echo to-stderr >&2; echo to-stdout; exit 5")).toEqual({
      output: "to-stdout\nto-stderr\n",
      exitCode: 5,
      truncated: false,
    });
    const missing = await fs.execute("cat /nope.txt");
    expect(missing.exitCode).toBe(1);
    expect(missing.output).toMatch(/nope\.txt: No such file or directory/);
    expect(await fs.execute("cat /data/fruit.txt | sort | uniq -c | sort -rn | head -1")).toMatchObject({
      output: expect.stringMatching(/^\s*2 apple\n$/),
      exitCode: 0,
    });
    expect((await fs.execute("node -v")).exitCode).toBe(127);
    await close(layout);
  });

  it("stops a command at its timeout and says so", async () => {
    const { fs, layout } = appFilesystem(fresh());
    const started = performance.now();
    const res = await fs.execute("while true; do :; done", 1);
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(res.exitCode).toBeNull();
    expect(res.output).toMatch(/^Error: Command timed out after 1 seconds \(custom timeout\)/);
    // The shell is usable again (on a fresh worker).
    expect(await fs.execute("echo after")).toMatchObject({ output: "after\n", exitCode: 0 });
    await close(layout);
  }, 60_000);

  it("runs a CPU-bound command on the shell's worker: this page stays live, and Stop ends it within a bound", async () => {
    const { layout } = appFilesystem(fresh());
    const stop = new AbortController();
    const shell = new ShellBackend({ files: layout.workspace(runtime("thread-1")), signal: stop.signal });
    const running = shell.execute("while true; do :; done", 120);
    const outcome = running.then(
      () => "finished",
      (err: unknown) => (err instanceof Error ? err.name : String(err)),
    );
    // The page's timers fire while the loop runs (on this thread, they would wait for the 120 s deadline).
    for (let i = 0; i < 5; i++) {
      const before = performance.now();
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(performance.now() - before).toBeLessThan(1_000);
    }
    const stopped = performance.now();
    stop.abort();
    expect(await outcome).toBe("AbortError");
    expect(performance.now() - stopped).toBeLessThan(1_000);
    await close(layout);
  }, 60_000);

  it("a killed command leaves its finished writes in IndexedDB, each whole, and nothing lands after it returns", async () => {
    const prefix = fresh();
    const { fs, layout } = appFilesystem(prefix);
    const res = await fs.execute("echo one > /first.txt; i=0; while true; do echo line-$i >> /count.txt; i=$((i+1)); done", 1);
    expect(res.exitCode).toBeNull();
    const lines = ok(await fs.read("/count.txt", 0, 1_000_000)).lines;
    expect(lines.length).toBeGreaterThan(0);
    expect(lines).toEqual(lines.map((_, i) => `line-${i}`));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(ok(await fs.read("/count.txt", 0, 1_000_000)).lines).toHaveLength(lines.length);
    await close(layout);
    // A reload reads the same files from IndexedDB.
    const after = appFilesystem(prefix);
    expect(ok(await after.fs.read("/first.txt")).lines).toEqual(["one"]);
    expect(ok(await after.fs.read("/count.txt", 0, 1_000_000)).lines).toHaveLength(lines.length);
    await close(after.layout);
  }, 60_000);

  it("reports sleep past the timeout as a timeout", async () => {
    const { fs, layout } = appFilesystem(fresh());
    const res = await fs.execute("echo started; sleep 5", 1);
    expect(res.exitCode).toBeNull();
    expect(res.output).toMatch(/^Error: Command timed out after 1 seconds/);
    await close(layout);
  }, 60_000);

  it("caps a file the shell writes and /tmp with clear errors, and the shell goes on", async () => {
    const { layout } = appFilesystem(fresh());
    const session = newShellSession({ maxScratchBytes: 80_000 });
    const sh = new ShellBackend({ files: layout.workspace(runtime("thread-1")), session, maxFileBytes: 60_000 });
    const doubled = await sh.execute("echo x > /tmp/a; for i in $(seq 40); do cat /tmp/a /tmp/a > /tmp/b && mv /tmp/b /tmp/a; done");
    expect(doubled.output).toMatch(/EFBIG: file too large: 64 KB, a file may hold at most 59 KB, write '\/tmp\/b'/);
    expect((await sh.execute("wc -c < /tmp/a")).output.trim()).toBe(String(2 ** 15));
    expect((await sh.execute("cp /tmp/a /tmp/c; seq 1 9000 > /tmp/d")).output).toMatch(/ENOSPC: no space left on device/);
    expect((await sh.execute("seq 1 20000 > /big.txt")).output).toMatch(/EFBIG/);
    expect(ok(await sh.read("/big.txt")).totalLines).toBe(0);
    expect((await sh.execute("echo alive")).output).toBe("alive\n");
    await close(layout);
  }, 60_000);

  it("a redirect that fails mid-script keeps the output before and after it, and fails as in bash", async () => {
    const { fs, layout } = appFilesystem(fresh());
    ok(await fs.write("/f", "a file"));
    expect(await fs.execute("echo before; echo x > /f/child && echo not-run; echo after $?")).toEqual({
      output: "before\nafter 1\nbash: /f/child: ENOTDIR: not a directory, open '/f/child'\n",
      exitCode: 0,
      truncated: false,
    });
    await close(layout);
  }, 60_000);

  it("mv and cp onto existing files, grep -r paths from /, folder dates: as a shell user expects", async () => {
    const { fs, layout } = appFilesystem(fresh());
    ok(await fs.write("/a.txt", "A\n"));
    ok(await fs.write("/b.txt", "TODO b\n"));
    ok(await fs.write("/src/c.txt", "TODO c\n"));
    expect((await fs.execute("cp /a.txt /src/c.txt && mv /a.txt /b.txt && cat /b.txt /src/c.txt")).output).toBe("A\nA\n");
    ok(await fs.write("/README.md", "TODO: root\n"));
    expect((await fs.execute("grep -r TODO /")).output).toBe("/README.md:TODO: root\n");
    const listing = (await fs.execute("ls -l /")).output;
    expect(listing).toMatch(/src/);
    expect(listing).not.toMatch(/1970/);
    await close(layout);
  }, 60_000);

  it("caps the output it returns at the app's limit and says it was truncated", async () => {
    const { fs, layout } = appFilesystem(fresh());
    const res = await fs.execute("seq 1 200000");
    expect(res.truncated).toBe(true);
    const bytes = new TextEncoder().encode(res.output).length;
    expect(bytes).toBeLessThanOrEqual(DEFAULT_MAX_OUTPUT_BYTES);
    expect(bytes).toBeGreaterThan(DEFAULT_MAX_OUTPUT_BYTES - 10);
    expect(res.output.startsWith("1\n2\n3\n")).toBe(true);
    await close(layout);
  });

  it("in an agent run, a capped result is offloaded to /large_tool_results/ in the IndexedDB workspace", async () => {
    const prefix = fresh();
    const { layout } = appFilesystem(prefix, "t-offload");
    const shellRoute = createSandboxService(layout.workspace).workspaceFor("shell");
    const model = new ScriptedChatModel({
      script: [{ toolCalls: [{ name: "execute", args: { command: "seq 1 200000" }, id: "big" }] }, { text: "done" }],
    });
    const agent = createDeepAgent({ model, backend: layout.backend(shellRoute) });
    const out = await agent.invoke({ messages: [new HumanMessage("go")] }, { configurable: { thread_id: "t-offload" } });
    const result = (out.messages as BaseMessage[]).find((m): m is ToolMessage => ToolMessage.isInstance(m));
    expect(String(result?.content)).toMatch(
      /^Tool result too large, the result of this tool call big was saved in the filesystem at this path: \/large_tool_results\/big\n/,
    );
    await close(layout);
    // A reload: the offloaded output is in IndexedDB, ending with the exit code and the truncation note.
    const after = appFilesystem(prefix, "t-offload");
    const saved = ok(await after.fs.read("/large_tool_results/big", 0, 3));
    expect(saved.lines).toEqual(["1", "2", "3"]);
    const tail = ok(await after.fs.read("/large_tool_results/big", saved.totalLines - 2, 2)).lines;
    expect(tail).toEqual(["[Command succeeded with exit code 0]", "[Output was truncated due to size limits]"]);
    await close(after.layout);
  });

  it("a file a command writes is visible to read_file at once and survives a reload", async () => {
    const prefix = fresh();
    const first = appFilesystem(prefix);
    expect(await first.fs.execute("seq 3 | sort -r > /x.txt && mkdir -p /out && echo made > /out/made.txt")).toMatchObject({
      exitCode: 0,
    });
    expect(ok(await first.fs.read("/x.txt")).lines).toEqual(["3", "2", "1"]);
    expect(ok(await first.fs.glob("**/*.txt")).map((f) => f.path)).toEqual(["/out/made.txt", "/x.txt"]);
    await close(first.layout);

    // A reload: new connections and empty caches on the same databases.
    const second = appFilesystem(prefix);
    expect(ok(await second.fs.read("/x.txt")).lines).toEqual(["3", "2", "1"]);
    expect(ok(await second.fs.read("/out/made.txt")).lines).toEqual(["made"]);
    expect((await second.fs.execute("cat /x.txt /out/made.txt")).output).toBe("3\n2\n1\nmade\n");
    // Another thread's workspace does not see it.
    const other = appFilesystem(prefix, "thread-2");
    expect(ok(await other.fs.ls("/")).map((f) => f.path)).toEqual(["/memories", "/skills"]);
    await close(second.layout);
    await close(other.layout);
  });
});
