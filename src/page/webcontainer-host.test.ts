/**
 * The WebContainer sandbox without StackBlitz: the page-side host and the
 * worker-side backend over a fake container (src/testing/fake-webcontainer.ts)
 * that runs commands with just-bash and sends output as a terminal does.
 * What this cannot verify (a real boot, Node.js and npm inside it, the real
 * pty) is left to e2e/webcontainer.spec.ts, which runs only when
 * StackBlitz is reachable.
 */
import { describe, expect, it } from "vitest";
import { MemoryFileStore } from "../backends/memory-store.ts";
import { isBackendError, type Outcome } from "../backends/protocol.ts";
import { REBUILDABLE_DIRS, WebContainerBackend, type ContainerHost } from "../backends/sandbox/container.ts";
import { fakeWebContainer } from "../testing/fake-webcontainer.ts";
import { bootWebContainer, createContainerHost, plainTerminalText, terminalLines } from "./webcontainer-host.ts";

function ok<T>(value: Outcome<T>): T {
  if (isBackendError(value)) throw new Error(value.message);
  return value;
}

const text = (s: string) => new TextEncoder().encode(s);

/**
 * 180,000 lines through the offline shell (just-bash) take ≈ 10 s on an idle 2-core machine and 40 s beside another
 * CPU-heavy job: the command's own timeout and the test's bound leave room for that, so only a real hang fails.
 */
const SLOW_SHELL_MS = 180_000;

describe("terminal output", () => {
  it("drops escape codes, turns CRLF into LF and keeps the last state of a redrawn line", () => {
    expect(plainTerminalText("\u001b[32mgreen\u001b[0m\r\nnext\r\n")).toBe("green\nnext\n");
    expect(plainTerminalText("progress 10%\rprogress 99%\rdone\r\n")).toBe("done\n");
    expect(plainTerminalText("\u001b]0;title\u0007text")).toBe("text");
  });

  it("holds a line split across chunks (an escape code, a CRLF pair) until it is complete", () => {
    const lines = terminalLines();
    const out = ["red\u001b", "[31m!\u001b[0", "m\r", "\nnext", " line"].map((c) => lines.push(c));
    expect(out).toEqual(["", "", "", "red!\n", ""]);
    expect(lines.end()).toBe("next line");
  });
});

describe("the container host (page side)", () => {
  it("mounts files, runs jsh -c with streamed output, mirrors writes and lists files back, skipping rebuildable folders", async () => {
    const container = await fakeWebContainer();
    const host = createContainerHost(container);
    expect(await host.workspace()).toBeUndefined();
    await host.mount("t1", [
      { path: "/src/a.txt", content: text("alpha\n") },
      { path: "/bin.dat", content: new Uint8Array([0, 255]) },
    ]);
    expect(await host.workspace()).toBe("t1");
    expect(await container.snapshot()).toMatchObject({ "src/a.txt": "alpha\n" });
    const chunks: string[] = [];
    const run = await host.run("cat src/a.txt; echo oops >&2; exit 3", {
      timeoutMs: 5_000,
      maxOutputBytes: 1_000,
      onOutput: (c) => chunks.push(c),
    });
    expect(container.spawned.at(-1)).toEqual({ command: "jsh", args: ["-c", "cat src/a.txt; echo oops >&2; exit 3"] });
    expect(run).toEqual({ output: "alpha\noops\n", exitCode: 3, truncated: false });
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.join("")).toBe("alpha\noops\n");
    await host.writeFile("/deep/dir/new.md", text("mirrored"));
    await host.run("mkdir -p node_modules/x && echo dep > node_modules/x/i.js && echo made > out.txt", {
      timeoutMs: 5_000,
      maxOutputBytes: 1_000,
    });
    const listed = await host.files(REBUILDABLE_DIRS);
    expect(listed.map((f) => f.path).sort()).toEqual(["/bin.dat", "/deep/dir/new.md", "/out.txt", "/src/a.txt"]);
    await host.remove("/deep");
    expect(Object.keys(await container.snapshot())).not.toContain("deep/dir/new.md");
  });

  it("kills a command at its timeout and caps its output", async () => {
    const host = createContainerHost(await fakeWebContainer());
    await host.mount("t", []);
    const slow = await host.run("sleep 5; echo late", { timeoutMs: 100, maxOutputBytes: 1_000 });
    expect(slow.exitCode).toBeNull();
    const big = await host.run("seq 1 2000", { timeoutMs: 5_000, maxOutputBytes: 100 });
    expect(big.truncated).toBe(true);
    expect(big.output.length).toBeLessThanOrEqual(100);
  });

  it(
    "streams to the page no more than the output cap (1 MB of output at a 10 KB cap), cut on a character",
    async () => {
      const host = createContainerHost(await fakeWebContainer());
      await host.mount("t", []);
      const utf8 = (text: string) => new TextEncoder().encode(text).length;
      const chunks: string[] = [];
      const run = await host.run("seq 1 90000; seq 1 90000", {
        timeoutMs: SLOW_SHELL_MS,
        maxOutputBytes: 10_000,
        onOutput: (c) => chunks.push(c),
      });
      expect(run.truncated).toBe(true);
      expect(utf8(chunks.join(""))).toBeLessThanOrEqual(10_000);
      expect(chunks.join("")).toBe(run.output);
      expect(run.output.startsWith("1\n2\n3\n")).toBe(true);
      // Two-byte characters at an odd cap: the cut falls between characters, in the result and in what streamed.
      const wide: string[] = [];
      const accented = await host.run("printf 'é%.0s' $(seq 1 6000)", {
        timeoutMs: SLOW_SHELL_MS,
        maxOutputBytes: 10_001,
        onOutput: (c) => wide.push(c),
      });
      expect(accented).toMatchObject({ truncated: true, output: "é".repeat(5_000) });
      expect(wide.join("")).toBe(accented.output);
    },
    SLOW_SHELL_MS + 10_000,
  );

  it("reports servers the agent starts", async () => {
    const container = await fakeWebContainer();
    const servers: Array<{ port: number; url: string }> = [];
    createContainerHost(container, (s) => servers.push(s));
    container.startServer(5173, "https://abc.local-credentialless.webcontainer.io");
    expect(servers).toEqual([{ port: 5173, url: "https://abc.local-credentialless.webcontainer.io" }]);
  });
});

describe("WebContainerBackend (worker side)", () => {
  async function setup(initial: Record<string, string> = {}) {
    const at = "2026-01-01T00:00:00.000Z";
    const store = new MemoryFileStore(
      Object.fromEntries(
        Object.entries(initial).map(([p, c]) => [p, { content: c, encoding: "utf-8" as const, createdAt: at, modifiedAt: at }]),
      ),
    );
    const container = await fakeWebContainer();
    const host = createContainerHost(container);
    const backend = (workspace = "thread-1", h: ContainerHost = host) => new WebContainerBackend({ host: h, workspace, files: store });
    return { store, container, host, backend };
  }

  it("mounts the workspace before the first command and writes back what commands change (IndexedDB stays the truth)", async () => {
    const { store, container, backend } = await setup({ "/a.md": "one\n", "/old.txt": "bye" });
    const wc = backend();
    const res = await wc.execute(
      "cat a.md && echo made > made.txt && rm old.txt && mkdir -p node_modules/p && echo x > node_modules/p/i.js",
    );
    expect(res).toEqual({ output: "one\n", exitCode: 0, truncated: false });
    expect(ok(await wc.read("/made.txt")).lines).toEqual(["made"]);
    expect(await store.get("/old.txt")).toBeUndefined();
    expect(await store.get("/node_modules/p/i.js")).toBeUndefined();
    expect(Object.keys(await container.snapshot()).sort()).toEqual(["a.md", "made.txt", "node_modules/p/i.js"]);
  });

  it("mirrors file-tool changes into the container, and remounts for another workspace", async () => {
    const { container, backend } = await setup({ "/a.md": "one\n" });
    const wc = backend("thread-1");
    await wc.execute("true");
    ok(await wc.write("/b.md", "written by write_file"));
    ok(await wc.edit("/a.md", "one", "uno"));
    expect(await container.snapshot()).toMatchObject({ "a.md": "uno\n", "b.md": "written by write_file" });
    ok(await wc.delete!("/b.md"));
    expect(await container.snapshot()).not.toHaveProperty("b.md");
    // Another thread's backend over another store: the container is emptied and remounted.
    const other = await setup({ "/other.md": "x" });
    const elsewhere = new WebContainerBackend({ host: createContainerHost(container), workspace: "thread-2", files: other.store });
    await elsewhere.execute("true");
    expect(Object.keys(await container.snapshot())).toEqual(["other.md"]);
  });

  it("streams output to onOutput, reports a timeout, and turns a lost container into a result the model can act on", async () => {
    const { backend, host } = await setup();
    const wc = backend();
    const chunks: string[] = [];
    await wc.execute("echo streamed", undefined, { onOutput: (c) => chunks.push(c) });
    expect(chunks.join("")).toBe("streamed\n");
    const slow = await new WebContainerBackend({ host, workspace: "thread-1", files: new MemoryFileStore(), maxTimeout: 0.1 }).execute(
      "sleep 5",
    );
    expect(slow.exitCode).toBeNull();
    expect(slow.output).toMatch(/timed out after 0.1 seconds/);
    const gone: ContainerHost = { ...host, run: () => Promise.reject(new Error("the page was reloaded")) };
    const lost = await backend("thread-1", gone).execute("true");
    expect(lost.exitCode).toBe(1);
    expect(lost.output).toMatch(/^The WebContainer sandbox is not available \(the page was reloaded\)/);
  });
});

describe("booting", () => {
  it("says why not instead of hanging: no window here, a boot that never settles, a boot that fails", async () => {
    expect(await bootWebContainer(50, () => new Promise(() => undefined))).toEqual({
      ok: false,
      error: { reason: "WebContainer boots only on a page's main thread" },
    });
  });
});
