/**
 * The page side of the WebContainer sandbox: when the user chose it
 * ("webcontainer" or "auto"), boots one WebContainer for the page and hands
 * the worker a port over it; otherwise never boots (WebContainer loads its
 * runtime from StackBlitz, a third party, so only on the user's choice).
 *
 * The worker hears "booting" first, then "ready" with the port, or
 * "unavailable" with why (a boot that does not finish in 20 s, a page that
 * is not cross-origin isolated, a failed boot). Commands run in the offline
 * shell until then, and after a failure.
 */
import type { AgentClient } from "../../page/client.ts";
import type { ContainerPort } from "../../protocol/worker-api.ts";
import type { SandboxChoice, SandboxStatus } from "../../protocol/settings.ts";
import {
  BOOT_TIMEOUT_MS,
  bootWebContainer,
  createContainerHost,
  type ServerInfo,
  type WebContainerLike,
} from "../../page/webcontainer-host.ts";

export interface SandboxHost {
  /** Boots WebContainer when the current choice wants it (once per page; later calls wait for the same boot). */
  boot(): Promise<void>;
  /** Detaches the container from the worker and tears it down. */
  dispose(): void;
}

export interface SandboxHostOptions {
  /** How long a boot may take (default 20 s). */
  timeoutMs?: number;
  /** Boots the container (default: WebContainer.boot; tests pass a fake). */
  boot?: () => Promise<WebContainerLike>;
  /** Each status the worker answers (booting, ready, unavailable), e.g. for the settings to show. */
  onStatus?: (status: SandboxStatus) => void;
}

/** The worker's port (positional arguments, the callback at top level for Comlink) over the page's container host. */
function portOf(container: WebContainerLike, onServer: (server: ServerInfo) => void): ContainerPort {
  const host = createContainerHost(container, onServer);
  return {
    workspace: () => host.workspace(),
    mount: (workspace, files) => host.mount(workspace, files),
    writeFile: (path, content) => host.writeFile(path, content),
    remove: (path) => host.remove(path),
    run: (command, timeoutMs, maxOutputBytes, onOutput) =>
      host.run(command, { timeoutMs, maxOutputBytes, ...(onOutput ? { onOutput } : {}) }),
    files: (skip) => host.files(skip),
  };
}

const wants = (choice: SandboxChoice) => choice === "webcontainer" || choice === "auto";

export function startSandboxHost(
  client: Pick<AgentClient, "attachContainer">,
  settings: () => SandboxChoice,
  onServer: (server: ServerInfo) => void,
  options: SandboxHostOptions = {},
): SandboxHost {
  let booting: Promise<void> | undefined;
  let container: WebContainerLike | undefined;
  let disposed = false;

  async function tell(port: ContainerPort | null, state: SandboxStatus["webcontainer"], reason: string): Promise<void> {
    if (disposed) return;
    try {
      const status = await client.attachContainer(port, state, reason);
      options.onStatus?.(status);
    } catch {
      // The worker is gone (it failed or the page closes): nothing to tell.
    }
  }

  async function run(): Promise<void> {
    await tell(null, "booting", "WebContainer is booting (loading from StackBlitz)");
    // An undefined `boot` takes bootWebContainer's default (WebContainer.boot).
    const booted = await bootWebContainer(options.timeoutMs ?? BOOT_TIMEOUT_MS, options.boot);
    if (disposed) {
      if (booted.ok) teardown(booted.value);
      return;
    }
    if (!booted.ok) {
      await tell(null, "unavailable", booted.error.reason);
      return;
    }
    container = booted.value;
    await tell(portOf(booted.value, onServer), "ready", "WebContainer is running");
  }

  return {
    boot() {
      if (disposed || !wants(settings())) return booting ?? Promise.resolve();
      booting ??= run();
      return booting;
    },
    dispose() {
      if (disposed) return;
      if (container) void tell(null, "unavailable", "the page closed its WebContainer");
      disposed = true;
      if (container) teardown(container);
      container = undefined;
    },
  };
}

/** WebContainer's own teardown, when the container has one (a fake may not). */
function teardown(container: WebContainerLike): void {
  const own = (container as { teardown?: () => void }).teardown;
  if (typeof own === "function") {
    try {
      own.call(container);
    } catch {
      // Already torn down.
    }
  }
}
