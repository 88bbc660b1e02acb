import { HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { InMemoryStore } from "@langchain/langgraph/web";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDeepAgent } from "../../agent/create-deep-agent.ts";
import { ScriptedChatModel } from "../../models/scripted.ts";
import { backendConformance } from "../../testing/backend-conformance.ts";
import { nodeShellThreads } from "../../testing/node-shell-threads.ts";
import { shellCloseBehaviours, shellParityBehaviours } from "../../testing/shell-parity.ts";
import { FIXED_NOW } from "../../testing/runtime.ts";
import { CompositeBackend } from "../composite.ts";
import { MemoryFileStore } from "../memory-store.ts";
import { isBackendError, type Outcome } from "../protocol.ts";
import { StoreBackend } from "../store.ts";
import { MAX_FILE_WRITE_BYTES } from "../file-ops.ts";
import { DEFAULT_MAX_SCRATCH_BYTES } from "./scratch-store.ts";
import { newShellSession } from "./shell-session.ts";
import { DEFAULT_MAX_EXECUTE_TIMEOUT, ShellBackend } from "./shell.ts";

function ok<T>(value: Outcome<T>): T {
  if (isBackendError(value)) throw new Error(value.message);
  return value;
}

backendConformance("ShellBackend (in-memory files)", () => new ShellBackend({ now: () => FIXED_NOW }));
shellParityBehaviours("in-memory files, inline", () => new ShellBackend({ now: () => FIXED_NOW, threads: "inline" }));
describe("ShellBackend close (deepagentsjs sandboxes' close/isRunning)", () => {
  shellCloseBehaviours("in-memory files, inline", () => new ShellBackend({ now: () => FIXED_NOW, threads: "inline" }));
});

describe("ShellBackend: commands over the backend's own files", () => {
  it("runs pipes, redirects, && and ||, globs, here-docs and variables", async () => {
    const sh = new ShellBackend();
    ok(await sh.write("/data/a.txt", "banana\napple\ncherry\napple\n"));
    ok(await sh.write("/data/b.txt", "kiwi\n"));
    const run = async (cmd: string) => (await sh.execute(cmd)).output;
    expect(await run("cat /data/a.txt | sort | uniq -c | sort -rn | head -1")).toMatch(/^\s*2 apple\n$/);
    expect(await run("echo one > /out.txt && echo two >> /out.txt; cat /out.txt")).toBe("one\ntwo\n");
    expect(await run("false || echo recovered && echo chained")).toBe("recovered\nchained\n");
    expect(await run("echo /data/*.txt")).toBe("/data/a.txt /data/b.txt\n");
    expect(await run("NAME=deeptab; cat <<EOF\nhello $NAME\nEOF")).toBe("hello deeptab\n");
    expect(await run("echo $(( 6 * 7 )) $(echo nested)")).toBe("42 nested\n");
    expect(await run("grep -c apple /data/a.txt; sed -n 2p /data/a.txt; awk 'NR==3' /data/a.txt")).toBe("2\napple\ncherry\n");
    expect(await run(`echo '{"a":[1,2,3]}' | jq '.a | length'`)).toBe("3\n");
    expect(await run("find /data -name '*.txt' | sort | xargs wc -l | tail -1")).toMatch(/5 total/);
    expect(await run("echo to-stderr >&2; echo to-stdout")).toBe("to-stdout\nto-stderr\n");
  });

  it("files a command writes are files for the tools, and the other way round", async () => {
    const sh = new ShellBackend();
    ok(await sh.write("/notes.md", "written by the tool\n"));
    expect((await sh.execute("cat /notes.md")).output).toBe("written by the tool\n");
    await sh.execute(
      "mkdir -p /src/lib && printf 'x = 1\\n' > /src/lib/x.py && cp /notes.md /src/copy.md && mv /src/copy.md /src/moved.md",
    );
    expect(ok(await sh.read("/src/lib/x.py")).lines).toEqual(["x = 1"]);
    expect(ok(await sh.glob("**/*.md")).map((f) => f.path)).toEqual(["/notes.md", "/src/moved.md"]);
    expect(ok(await sh.grep("tool")).map((m) => m.path)).toEqual(["/notes.md", "/src/moved.md"]);
    await sh.execute("rm /notes.md && rm -r /src/lib");
    expect(ok(await sh.ls("/")).map((f) => f.path)).toEqual(["/src"]);
    expect((await sh.execute("ls /src")).output).toBe("moved.md\n");
  });

  it("keeps binary bytes, and /tmp, /dev/null and empty directories out of the store", async () => {
    const store = new MemoryFileStore();
    const sh = new ShellBackend({ files: store });
    const bytes = new Uint8Array([0, 255, 10, 128]);
    ok(await sh.uploadFiles!([{ path: "/bin.dat", content: bytes }]));
    await sh.execute("cat /bin.dat > /copy.dat; echo scratch > /tmp/t; echo gone > /dev/null; mkdir /empty");
    const [copy] = await sh.downloadFiles!(["/copy.dat"]);
    expect(Array.from(copy!.content!)).toEqual([0, 255, 10, 128]);
    expect((await sh.execute("cat /tmp/t; ls -d /empty")).output).toBe("scratch\n/empty\n");
    expect([...(await store.snapshot()).entries()].map(([p]) => p).sort()).toEqual(["/bin.dat", "/copy.dat"]);
  });

  it("reports failures as the command's: exit codes, a write below a file, missing sandboxes", async () => {
    const sh = new ShellBackend();
    ok(await sh.write("/f", "a file"));
    expect(await sh.execute("exit 3")).toEqual({ output: "", exitCode: 3, truncated: false });
    const below = await sh.execute("echo x > /f/child");
    expect(below.exitCode).not.toBe(0);
    expect(below.output).toMatch(/not a directory/);
    for (const [cmd, where] of [
      ["node -v", /WebContainer/],
      ["npm install", /WebContainer/],
      ["python3 -c 1", /no sandbox in this browser tab/],
      ["git status", /no sandbox in this browser tab/],
      ["curl https://example.com", /no network access/],
    ] as const) {
      const res = await sh.execute(cmd);
      expect(res.exitCode, cmd).toBe(127);
      expect(res.output, cmd).toMatch(where);
    }
  });

  it("stops a command at its timeout and says so in deepagents' words (on the caller's thread)", async () => {
    const sh = new ShellBackend({ threads: "inline" });
    const started = performance.now();
    const res = await sh.execute("while true; do :; done", 1);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(res.exitCode).toBeNull();
    expect(res.output).toMatch(/^Error: Command timed out after 1 seconds \(custom timeout\)\. The command may be stuck/);
    // A larger timeout than the maximum is cut to it, and the answer says the cap.
    const capped = new ShellBackend({ maxTimeout: 1, threads: "inline" });
    expect((await capped.execute("while true; do :; done", 500)).output).toMatch(/after 1 seconds .* at most 1 seconds/s);
  });

  it("reports sleep past the timeout as a timeout, not as exit 124 (on the caller's thread)", async () => {
    const res = await new ShellBackend({ threads: "inline" }).execute("echo started; sleep 5", 1);
    expect(res.exitCode).toBeNull();
    expect(res.output).toMatch(/^Error: Command timed out after 1 seconds/);
  });

  it("caps the output it returns and says it was truncated", async () => {
    const sh = new ShellBackend({ maxOutputBytes: 1_000 });
    const res = await sh.execute("seq 1 5000");
    expect(res.truncated).toBe(true);
    expect(new TextEncoder().encode(res.output).length).toBeLessThanOrEqual(1_000);
    expect(res.output.startsWith("1\n2\n3\n")).toBe(true);
  });
});

/** Threads for a describe block, started before its tests (a Node thread loads the interpreter through tsx in seconds). */
function warmThreads() {
  const threads = nodeShellThreads();
  beforeAll(async () => {
    await new ShellBackend({ threads }).execute("true");
  }, 60_000);
  afterAll(() => threads.close());
  return threads;
}

describe("ShellBackend on its own thread (worker_threads, the browser's thread code)", () => {
  const threads = warmThreads();
  const shell = (options: ConstructorParameters<typeof ShellBackend>[0] = {}) => new ShellBackend({ threads, ...options });
  /** Resolves after `ms` of this thread's timers: late when this thread is blocked. */
  const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it("kills a CPU-bound command at its timeout, keeps this thread free meanwhile, and runs the next command", async () => {
    const sh = shell();
    const started = performance.now();
    const running = sh.execute("while true; do :; done", 2);
    // This thread's timers keep firing while the loop runs (on the caller's thread they would wait for the deadline).
    const before = performance.now();
    await tick(100);
    expect(performance.now() - before).toBeLessThan(1_000);
    const res = await running;
    expect(performance.now() - started).toBeLessThan(8_000);
    expect(res).toMatchObject({ exitCode: null, truncated: false });
    expect(res.output).toMatch(/^Error: Command timed out after 2 seconds \(custom timeout\)/);
    expect(await sh.execute("echo after")).toEqual({ output: "after\n", exitCode: 0, truncated: false });
  }, 30_000);

  it("Stop (the run's signal) ends a CPU-bound command within a bound", async () => {
    const stop = new AbortController();
    const sh = shell({ signal: stop.signal });
    const running = sh.execute("while true; do :; done", 60);
    const outcome = running.then(
      () => "finished",
      (err: unknown) => (err instanceof Error ? err.name : String(err)),
    );
    await tick(300);
    const stopped = performance.now();
    stop.abort();
    expect(await outcome).toBe("AbortError");
    expect(performance.now() - stopped).toBeLessThan(1_000);
    expect((await shell().execute("echo next")).output).toBe("next\n");
  }, 30_000);

  it("timeout 0 means the sandbox's maximum (300 s), and the answer says the cap", async () => {
    expect(DEFAULT_MAX_EXECUTE_TIMEOUT).toBe(300);
    const res = await shell({ maxTimeout: 1 }).execute("while true; do :; done", 0);
    expect(res.exitCode).toBeNull();
    expect(res.output).toMatch(/^Error: Command timed out after 1 seconds .* at most 1 seconds/s);
  }, 30_000);

  it("reports sleep past the timeout as a timeout", async () => {
    const res = await shell().execute("echo started; sleep 5", 1);
    expect(res.exitCode).toBeNull();
    expect(res.output).toMatch(/^Error: Command timed out after 1 seconds/);
  }, 30_000);

  it("a killed command leaves the writes it finished, each whole, and nothing lands after execute returns", async () => {
    const store = new MemoryFileStore();
    const sh = shell({ files: store });
    const res = await sh.execute("echo one > /first.txt; i=0; while true; do echo line-$i >> /count.txt; i=$((i+1)); done", 1);
    expect(res.exitCode).toBeNull();
    expect(ok(await sh.read("/first.txt")).lines).toEqual(["one"]);
    const lines = ok(await sh.read("/count.txt", 0, 1_000_000)).lines;
    expect(lines.length).toBeGreaterThan(0);
    expect(lines).toEqual(lines.map((_, i) => `line-${i}`));
    const after = (await store.get("/count.txt"))!.data.content;
    await tick(300);
    expect((await store.get("/count.txt"))!.data.content).toBe(after);
  }, 30_000);

  it("runs pipes, redirects and file commands over the caller's files", async () => {
    const sh = shell();
    ok(await sh.write("/data/a.txt", "banana\napple\ncherry\napple\n"));
    expect((await sh.execute("sort /data/a.txt | uniq -c | sort -rn | head -1")).output).toMatch(/^\s*2 apple\n$/);
    expect((await sh.execute("mkdir -p /out && cp /data/a.txt /out/b.txt && wc -l < /out/b.txt")).output).toBe("4\n");
    expect(ok(await sh.read("/out/b.txt")).lines).toHaveLength(4);
    expect((await sh.execute("cat /nope")).exitCode).toBe(1);
  });
});

describe("ShellBackend limits: file size and /tmp", () => {
  const threads = warmThreads();

  it("stops a file doubling itself in /tmp at the file cap with a clear error, and the shell goes on", async () => {
    // The command (40 doublings ran the worker out of memory) against a 256 KiB cap: just-bash needs
    // tens of seconds to push 10 MB through `cat`, so the default cap (10 MiB) is checked as a number.
    expect(MAX_FILE_WRITE_BYTES).toBe(10 * 1024 * 1024);
    const sh = new ShellBackend({ threads, maxFileBytes: 256 * 1024 });
    const res = await sh.execute("echo x > /tmp/a; for i in $(seq 40); do cat /tmp/a /tmp/a > /tmp/b && mv /tmp/b /tmp/a; done");
    expect(res.exitCode).not.toBe(0);
    expect(res.output).toMatch(/EFBIG: file too large: 512 KB, a file may hold at most 256 KB, write '\/tmp\/b'/);
    expect((await sh.execute("wc -c < /tmp/a")).output.trim()).toBe(String(2 ** 18));
    expect((await sh.execute("echo alive")).output).toBe("alive\n");
  }, 30_000);

  it("caps /tmp as a whole (ENOSPC, nothing of the refused write kept) and files the shell writes in the workspace", async () => {
    expect(DEFAULT_MAX_SCRATCH_BYTES).toBe(64 * 1024 * 1024);
    const session = newShellSession({ maxScratchBytes: 80_000 });
    const sh = new ShellBackend({ threads, session, maxFileBytes: 60_000 });
    expect((await sh.execute("seq 1 9000 > /tmp/a && wc -c < /tmp/a")).output).toBe("43893\n");
    const full = await sh.execute("cp /tmp/a /tmp/b");
    expect(full.exitCode).not.toBe(0);
    expect(full.output).toMatch(/ENOSPC: no space left on device: \/tmp holds at most/);
    expect((await sh.execute("ls /tmp")).output).toBe("a\n");
    const big = await sh.execute("seq 1 20000 > /big.txt");
    expect(big.output).toMatch(/EFBIG/);
    // The redirect's open made the file (as bash's does); none of the refused write is in it.
    expect(ok(await sh.read("/big.txt")).totalLines).toBe(0);
    expect((await sh.execute("rm /tmp/a && cp /tmp/nothing /tmp/b; seq 1 9000 > /tmp/b && echo fits")).output).toMatch(/fits\n/);
  }, 30_000);
});

describe("ShellBackend's filesystem, as a shell user sees it", () => {
  it("mv and cp onto an existing workspace file replace it", async () => {
    const sh = new ShellBackend({ threads: "inline" });
    ok(await sh.write("/a.txt", "A\n"));
    ok(await sh.write("/b.txt", "B\n"));
    ok(await sh.write("/c.txt", "C\n"));
    expect(await sh.execute("mv /a.txt /b.txt && cp /b.txt /c.txt && cat /b.txt /c.txt")).toEqual({
      output: "A\nA\n",
      exitCode: 0,
      truncated: false,
    });
    expect(ok(await sh.ls("/")).map((f) => f.path)).toEqual(["/b.txt", "/c.txt"]);
    expect((await sh.execute("echo t > /tmp/t && mv /tmp/t /c.txt && cat /c.txt && ls /tmp")).output).toBe("t\n");
  });

  it("a redirect that fails mid-script keeps the output before and after it, and fails as in bash ($? 1, && not run)", async () => {
    const sh = new ShellBackend({ threads: "inline", maxFileBytes: 60_000 });
    ok(await sh.write("/f", "a file"));
    expect(await sh.execute("echo before; echo x > /f/child; echo after $?")).toEqual({
      output: "before\nafter 1\nbash: /f/child: ENOTDIR: not a directory, open '/f/child'\n",
      exitCode: 0,
      truncated: false,
    });
    const capped = await sh.execute("echo start; seq 1 20000 > /big.txt && echo not-run; echo end");
    expect(capped.output).toMatch(/^start\nend\nbash: \/big\.txt: EFBIG: file too large: 107 KB, a file may hold at most 59 KB/);
    expect((await sh.execute("echo x > '/a\\b' || echo refused")).output).toMatch(/^refused\nbash: \/a\\b: EINVAL: Invalid path/);
  });

  it("grep -r prints /README.md for the root and src/a.md for src/, as GNU grep does", async () => {
    const sh = new ShellBackend({ threads: "inline" });
    ok(await sh.write("/README.md", "TODO: root\n"));
    ok(await sh.write("/src/a.md", "TODO: a\n"));
    expect((await sh.execute("grep -r TODO /")).output).toBe("/README.md:TODO: root\n/src/a.md:TODO: a\n");
    expect((await sh.execute("grep -rn TODO /src/")).output).toBe("/src/a.md:1:TODO: a\n");
    expect((await sh.execute("cd / && grep -rl TODO src/")).output).toBe("src/a.md\n");
    expect((await sh.execute("grep -r -e TODO -- /")).output).toBe("/README.md:TODO: root\n/src/a.md:TODO: a\n");
    // A pattern ending in "/" is left alone; only operands are paths.
    ok(await sh.write("/p.txt", "a/\nab\n"));
    expect((await sh.execute("grep -r a/ /p.txt")).output).toBe("/p.txt:a/\n");
  });

  it("dates a folder by its newest file (or when mkdir made it), never 1970", async () => {
    const sh = new ShellBackend({ threads: "inline", now: () => "2026-03-04T05:06:07.000Z" });
    ok(await sh.write("/docs/a.md", "a"));
    await sh.execute("mkdir /empty");
    const listing = (await sh.execute("ls -l /")).output;
    expect(listing).not.toMatch(/1970/);
    expect(listing).toMatch(/Mar {1,2}4 .*docs/);
    expect(listing).toMatch(/Mar {1,2}4 .*empty/);
    expect((await sh.execute("ls -ld /tmp")).output).not.toMatch(/1970/);
  });
});

describe("ShellBackend in an agent", () => {
  it("gives the agent execute, and execute and read_file see the same file", async () => {
    const model = new ScriptedChatModel({
      script: [
        { toolCalls: [{ name: "execute", args: { command: "seq 3 | sed 's/^/line /' > /made.txt && wc -l < /made.txt" } }] },
        { toolCalls: [{ name: "read_file", args: { file_path: "/made.txt" } }] },
        { toolCalls: [{ name: "write_file", args: { file_path: "/tool.txt", content: "from the tool" } }] },
        { toolCalls: [{ name: "execute", args: { command: "cat /tool.txt; exit 2" } }] },
        { text: "done" },
      ],
    });
    const out = await createDeepAgent({ model, backend: new ShellBackend() }).invoke({ messages: [new HumanMessage("go")] });
    expect(model.calls[0]!.tools).toContain("execute");
    const results = (out.messages as BaseMessage[]).filter((m): m is ToolMessage => ToolMessage.isInstance(m)).map((m) => m.content);
    expect(results).toEqual([
      "3\n\n[Command succeeded with exit code 0]",
      "     1\tline 1\n     2\tline 2\n     3\tline 3",
      "Updated file /tool.txt",
      "from the tool\n[Command failed with exit code 2]",
    ]);
  });

  it("is refused under permission rules its shell could bypass, and allowed when they lie on an isolated route", () => {
    const model = new ScriptedChatModel({ script: [] });
    const rules = [{ operations: ["write" as const], paths: ["/memories/**"], mode: "deny" as const }];
    expect(() => createDeepAgent({ model, backend: new ShellBackend(), permissions: rules })).toThrow(/command execution/);
    const composite = new CompositeBackend(new ShellBackend(), { "/memories/": new StoreBackend(new InMemoryStore(), ["m"]) });
    expect(() => createDeepAgent({ model, backend: composite, permissions: rules })).not.toThrow();
  });
});
