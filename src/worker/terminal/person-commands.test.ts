/**
 * The person's commands on the WebContainer path, without booting one (StackBlitz is unreachable where deeptab is
 * tested): the thread's sandbox is the WebContainer backend (backends/sandbox/container.ts) over a container host
 * written here, which streams a command's output in chunks and holds `node` until it is killed at its timeout.
 * The offline-shell path runs in the real worker (person-commands.browser.test.ts).
 */
import { describe, expect, it } from "vitest";
import { threadScope } from "../../backends/indexeddb.ts";
import { MemoryFileStore } from "../../backends/memory-store.ts";
import { WebContainerBackend, type ContainerHost, type ContainerRun } from "../../backends/sandbox/container.ts";
import type { SandboxKind } from "../../protocol/settings.ts";
import { createBackendRuntime, resolveBackend, type BackendFactory } from "../../backends/runtime.ts";
import { canExecute } from "../../backends/protocol.ts";
import { createPersonCommands } from "./person-commands.ts";

/** A container whose `npm -v` prints in two chunks and whose `node server.js` runs until its timeout. */
function containerHost(): ContainerHost & { ran: string[] } {
  let mounted: string | undefined;
  const ran: string[] = [];
  return {
    ran,
    workspace: async () => mounted,
    mount: async (workspace) => void (mounted = workspace),
    writeFile: async () => undefined,
    remove: async () => undefined,
    files: async () => [],
    run(command, options): Promise<ContainerRun> {
      ran.push(command);
      if (command === "npm -v") {
        options.onOutput?.("10.");
        options.onOutput?.("8.2\n");
        return Promise.resolve({ output: "10.8.2\n", exitCode: 0, truncated: false });
      }
      return new Promise((resolve) => setTimeout(() => resolve({ output: "", exitCode: null, truncated: false }), options.timeoutMs));
    },
  };
}

function setup(kind: SandboxKind = "webcontainer") {
  const host = containerHost();
  const store = new MemoryFileStore();
  const commands = createPersonCommands({
    backend: () => (rt) => new WebContainerBackend({ host, workspace: threadScope(rt), files: store, maxTimeout: 2 }),
    runningHere: () => false,
    sandbox: { active: () => kind },
    settings: { get: async () => ({ sandbox: "auto", approveExecute: false }) },
    threads: { agentOf: async () => undefined },
    agents: async () => ({ folderOf: async () => ({ ok: false }) }),
  });
  return { host, commands };
}

describe("the person's commands in the WebContainer", () => {
  it("stream the container's output chunk by chunk and report where they ran", async () => {
    const { host, commands } = setup();
    const chunks: string[] = [];
    const result = await commands.runCommand("t1", "npm -v", (c) => chunks.push(c));
    expect(chunks).toEqual(["10.", "8.2\n"]);
    expect(result).toMatchObject({ ok: true, value: { output: "10.8.2\n", exitCode: 0, sandbox: "webcontainer", cancelled: false } });
    expect(host.ran).toContain("npm -v");
  });

  it("give the prompt back on Ctrl+C (the process stops at its timeout)", async () => {
    const { host, commands } = setup();
    const running = commands.runCommand("t1", "node server.js", () => undefined);
    await expect.poll(() => host.ran).toContain("node server.js");
    const stopAt = performance.now();
    expect(await commands.cancelCommand("t1")).toBe(true);
    expect(await running).toMatchObject({ ok: true, value: { cancelled: true, exitCode: null } });
    // Well before the container's 2 s timeout.
    expect(performance.now() - stopAt).toBeLessThan(1_000);
    expect(await commands.cancelCommand("t1")).toBe(false);
  });

  it("ask first where an agent folder's interrupt_on stops execute", async () => {
    const host = containerHost();
    const commands = createPersonCommands({
      backend: () => (rt) => new WebContainerBackend({ host, workspace: threadScope(rt), files: new MemoryFileStore() }),
      runningHere: () => false,
      sandbox: { active: () => "webcontainer" },
      settings: { get: async () => ({ sandbox: "auto", approveExecute: false }) },
      threads: { agentOf: async () => "an-agent" },
      agents: async () => ({
        folderOf: async () => ({ ok: true, agent: { manifest: { interruptOn: { execute: true }, permissions: [] } } as never }),
      }),
    });
    expect(await commands.runCommand("t1", "npm -v", () => undefined)).toMatchObject({
      ok: false,
      error: { code: "needs_approval", rule: expect.stringMatching(/interrupt_on/) },
    });
    expect(host.ran).toEqual([]);
  });

  it("get the timeout the agent's execute gets in that sandbox (its default, when no timeout is given)", async () => {
    const timeouts: number[] = [];
    const host: ContainerHost = {
      ...containerHost(),
      run: async (_command, options) => (timeouts.push(options.timeoutMs), { output: "", exitCode: 0, truncated: false }),
    };
    const store = new MemoryFileStore();
    // The thread's sandbox route, as the agent's tools get it: here a sandbox whose default is 7 s.
    const backend = () => (rt: Parameters<BackendFactory>[0]) =>
      new WebContainerBackend({ host, workspace: threadScope(rt), files: store, defaultTimeout: 7 });
    const commands = createPersonCommands({
      backend,
      runningHere: () => false,
      sandbox: { active: () => "webcontainer" },
      settings: { get: async () => ({ sandbox: "auto", approveExecute: false }) },
      threads: { agentOf: async () => undefined },
      agents: async () => ({ folderOf: async () => ({ ok: false }) }),
    });
    const agentSide = resolveBackend(backend(), createBackendRuntime({}, { configurable: { thread_id: "t1" } }));
    if (!canExecute(agentSide)) throw new Error("the sandbox cannot execute");
    await agentSide.execute("ls"); // the agent's execute without a timeout
    expect(await commands.runCommand("t1", "ls", () => undefined)).toMatchObject({ ok: true });
    expect(timeouts).toEqual([7_000, 7_000]);
  });
});
