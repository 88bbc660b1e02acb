/**
 * The page's sandbox host in Chromium, over a fake WebContainer (a real one
 * needs StackBlitz): no boot unless the user chose WebContainer, a boot that
 * attaches a working port, a boot that never finishes reported as
 * unavailable with why, and the worker running a turn's command through the
 * page's container.
 */
import { describe, expect, it, vi } from "vitest";
import { fakeWebContainer } from "../../testing/fake-webcontainer.ts";
import { WAIT } from "../../testing/wait.ts";
import { workerPool } from "../../testing/worker-pool.ts";
import type { AgentClient } from "../../page/client.ts";
import type { AgentEvent } from "../../protocol/events.ts";
import type { ContainerPort } from "../../protocol/worker-api.ts";
import type { SandboxChoice, SandboxStatus } from "../../protocol/settings.ts";
import type { ServerInfo } from "../../page/webcontainer-host.ts";
import { startSandboxHost } from "./sandbox-host.ts";

type Attached = [ContainerPort | null, SandboxStatus["webcontainer"], string];

/** A client that records what the host attaches. */
function recorder() {
  const calls: Attached[] = [];
  const client: Pick<AgentClient, "attachContainer"> = {
    attachContainer: async (port, state, reason) => {
      calls.push([port, state, reason]);
      return { choice: "webcontainer", active: port ? "webcontainer" : "shell", reason, webcontainer: state };
    },
  };
  return { client, calls };
}

const { spawn } = workerPool(`test-sandbox-${crypto.randomUUID()}`);

describe("sandbox host", () => {
  it("runs on a cross-origin isolated page (what WebContainer needs)", () => {
    expect(globalThis.crossOriginIsolated).toBe(true);
  });

  it("never boots for the offline shell or no sandbox", async () => {
    for (const choice of ["shell", "none"] as const) {
      const { client, calls } = recorder();
      const boot = vi.fn(fakeWebContainer);
      const host = startSandboxHost(
        client,
        () => choice,
        () => undefined,
        { boot },
      );
      await host.boot();
      await host.boot();
      expect(boot).not.toHaveBeenCalled();
      expect(calls).toEqual([]);
      host.dispose();
    }
  });

  it("boots once for WebContainer: booting, then ready with a port that runs commands and reports servers", async () => {
    const { client, calls } = recorder();
    const container = await fakeWebContainer();
    const boot = vi.fn(async () => container);
    const servers: ServerInfo[] = [];
    const statuses: SandboxStatus[] = [];
    const host = startSandboxHost(
      client,
      () => "webcontainer",
      (s) => servers.push(s),
      { boot, onStatus: (s) => statuses.push(s) },
    );
    await Promise.all([host.boot(), host.boot()]);
    await host.boot();
    expect(boot).toHaveBeenCalledOnce();
    expect(calls.map(([port, state]) => [port === null, state])).toEqual([
      [true, "booting"],
      [false, "ready"],
    ]);
    expect(statuses.map((s) => s.webcontainer)).toEqual(["booting", "ready"]);

    const port = calls[1]![0]!;
    await port.mount("t1", [{ path: "/a.txt", content: new TextEncoder().encode("alpha\n") }]);
    expect(await port.workspace()).toBe("t1");
    const chunks: string[] = [];
    const run = await port.run("cat a.txt; echo two", 5_000, 1_000, (c) => chunks.push(c));
    expect(run).toEqual({ output: "alpha\ntwo\n", exitCode: 0, truncated: false });
    expect(chunks.join("")).toBe("alpha\ntwo\n");
    expect(container.spawned.at(-1)).toEqual({ command: "jsh", args: ["-c", "cat a.txt; echo two"] });
    expect((await port.files([])).map((f) => f.path)).toEqual(["/a.txt"]);

    container.startServer(3000, "https://preview.example/");
    expect(servers).toEqual([{ port: 3000, url: "https://preview.example/" }]);

    host.dispose();
    await vi.waitFor(() => expect(calls.at(-1)?.[1]).toBe("unavailable"), WAIT);
    expect(calls.at(-1)?.[0]).toBeNull();
  });

  it("reports a boot that never finishes as unavailable, with the timeout as the reason", async () => {
    const { client, calls } = recorder();
    const host = startSandboxHost(
      client,
      () => "auto",
      () => undefined,
      { boot: () => new Promise(() => undefined), timeoutMs: 50 },
    );
    await host.boot();
    expect(calls.map(([port, state]) => [port, state])).toEqual([
      [null, "booting"],
      [null, "unavailable"],
    ]);
    expect(calls[1]![2]).toBe("boot did not finish within 0 s (StackBlitz may be unreachable: offline or blocked)");
    // Once per page: a later boot does not try again.
    await host.boot();
    expect(calls).toHaveLength(2);
  });

  it("boots only once the choice asks for it", async () => {
    const { client, calls } = recorder();
    let choice: SandboxChoice = "shell";
    const boot = vi.fn(fakeWebContainer);
    const host = startSandboxHost(
      client,
      () => choice,
      () => undefined,
      { boot },
    );
    await host.boot();
    expect(boot).not.toHaveBeenCalled();
    choice = "webcontainer";
    await host.boot();
    expect(boot).toHaveBeenCalledOnce();
    expect(calls.map((c) => c[1])).toEqual(["booting", "ready"]);
    host.dispose();
  });

  it("gives the real worker a container its turns run commands in", async () => {
    const client = spawn();
    await client.updateSettings({ sandbox: "webcontainer" });
    expect((await client.sandboxStatus()).active).toBe("shell");
    const container = await fakeWebContainer();
    const statuses: SandboxStatus[] = [];
    const host = startSandboxHost(
      client,
      () => "webcontainer",
      () => undefined,
      { boot: async () => container, onStatus: (s) => statuses.push(s) },
    );
    await host.boot();
    expect(statuses.at(-1)).toMatchObject({ active: "webcontainer", webcontainer: "ready" });
    await client.updateSettings({ approveExecute: false });

    const events: AgentEvent[] = [];
    const start = await client.run("wc-1", { text: "$ echo streamed-line; echo from-the-page > out.txt" }, (e) => events.push(e));
    if (!start.ok) throw new Error(start.error.message);
    expect(await start.value.done).toMatchObject({ type: "done", status: "complete" });
    expect(container.spawned.some((s) => s.args[1]?.includes("echo from-the-page"))).toBe(true);
    // The command's output streamed back from the page's container to the worker and on to the page.
    const streamed = events.flatMap((e) => (e.type === "tool_output" ? [e.chunk] : [])).join("");
    expect(streamed).toContain("streamed-line");
    const file = await client.readFile("wc-1", "/out.txt", 0, 10);
    expect(file.ok && file.value.lines[0]).toBe("from-the-page");
    host.dispose();
  });
});
