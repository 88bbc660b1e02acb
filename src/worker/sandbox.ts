/**
 * Which sandbox `execute` runs in, per the user's choice and what the page
 * could boot:
 *
 * | choice         | active sandbox                                          |
 * |----------------|---------------------------------------------------------|
 * | `shell`        | the offline shell (just-bash over the workspace)        |
 * | `webcontainer` | WebContainer when the page booted it, else offline shell|
 * | `auto`         | the same as `webcontainer`                              |
 * | `none`         | none: `execute` is not offered to the model             |
 *
 * The default is `shell`: WebContainer loads its runtime from StackBlitz,
 * a third party, so the page boots it only when the user picks it.
 * IndexedDB stays the source of truth either way (see WebContainerBackend).
 */
import { proxy } from "comlink";
import { indexedDBBackend, threadScope, type IndexedDBBackendFactory } from "../backends/indexeddb.ts";
import type { BackendFactory } from "../backends/runtime.ts";
import type { ContainerHost, WebContainerBackend } from "../backends/sandbox/container.ts";
import { newShellSession, type ShellSession } from "../backends/sandbox/shell-session.ts";
import type { PythonPackages } from "../backends/sandbox/python-packages.ts";
import { ShellBackend } from "../backends/sandbox/shell.ts";
import type { ContainerPort } from "../protocol/worker-api.ts";
import type { SandboxChoice, SandboxKind, SandboxStatus } from "../protocol/settings.ts";

export interface SandboxService {
  /** What commands run in for `choice`, said for people; `from` is the host python3's packages come from (none: no packages). */
  status(choice: SandboxChoice, from?: string): SandboxStatus;
  /** Takes the page's container (or its absence); resolves once commands can run in it (its backend's code loaded). */
  attach(port: ContainerPort | null, state: SandboxStatus["webcontainer"], reason: string): Promise<void>;
  /** The sandbox commands run in for a choice now. */
  active(choice: SandboxChoice): SandboxKind;
  /** The workspace backend (the default route) for a sandbox kind. */
  workspaceFor(kind: SandboxKind): BackendFactory;
}

/** The page's container port as the ContainerHost the backend expects (callbacks cross Comlink as top-level arguments only). */
function containerHostFromPort(port: ContainerPort): ContainerHost {
  return {
    workspace: () => port.workspace(),
    mount: (workspace, files) => port.mount(workspace, files),
    writeFile: (path, content) => port.writeFile(path, content),
    remove: (path) => port.remove(path),
    // The callback crosses Comlink to the page: it must be proxied (a bare function cannot be cloned).
    run: (command, options) => port.run(command, options.timeoutMs, options.maxOutputBytes, options.onOutput && proxy(options.onOutput)),
    files: (skip) => port.files([...skip]),
  };
}

/**
 * @param workspace the workspace's backend (the app's IndexedDB)
 * @param pythonPackages the package source python3 may use now (the person's setting), or undefined for none
 */
export function createSandboxService(
  workspace: IndexedDBBackendFactory = indexedDBBackend(),
  pythonPackages?: () => Promise<PythonPackages | undefined>,
): SandboxService {
  let host: ContainerHost | undefined;
  /** The WebContainer backend's class, loaded when a container is first attached (most tabs never have one). */
  let Container: typeof WebContainerBackend | undefined;
  let wcState: SandboxStatus["webcontainer"] = "unavailable";
  let wcReason = "not started (choose WebContainer in Settings to boot it; it loads from StackBlitz)";
  const sessions = new Map<string, ShellSession>();
  const sessionFor = (scope: string) => {
    let session = sessions.get(scope);
    if (!session) sessions.set(scope, (session = newShellSession()));
    return session;
  };

  const active = (choice: SandboxChoice): SandboxKind => {
    if (choice === "none") return "none";
    if (choice === "shell") return "shell";
    return host && wcState === "ready" ? "webcontainer" : "shell";
  };

  const shell: BackendFactory = (rt) =>
    new ShellBackend({
      files: workspace(rt),
      now: rt.now,
      session: sessionFor(threadScope(rt)),
      ...(rt.config.signal ? { signal: rt.config.signal } : {}),
      ...(pythonPackages && { pythonPackages }),
    });
  const container: BackendFactory = (rt) =>
    host && Container ? new Container({ host, workspace: threadScope(rt), files: workspace(rt), now: rt.now }) : shell(rt);

  return {
    active,
    status(choice, from) {
      const kind = active(choice);
      const reason =
        kind === "none"
          ? "no sandbox chosen: the agent cannot run commands " +
            `(its python tool runs Python over the files, ${from ? `with packages from ${from}` : "standard library only"})`
          : kind === "webcontainer"
            ? "WebContainer is running (Node.js and npm in the tab)"
            : choice === "shell"
              ? from
                ? `the offline shell (bash in the tab, with python3's standard library and packages from ${from}: no node, npm or pip)`
                : "the offline shell (bash in the tab, with python3's standard library: no node, npm, pip or network)"
              : wcState === "booting"
                ? "WebContainer is booting; the offline shell runs commands until it is ready"
                : `no WebContainer: ${wcReason}; commands run in the offline shell`;
      return { choice, active: kind, reason, webcontainer: wcState };
    },
    async attach(port, state, reason) {
      if (port) Container ??= (await import("../backends/sandbox/container.ts")).WebContainerBackend;
      host = port ? containerHostFromPort(port) : undefined;
      wcState = port ? state : state === "booting" ? "booting" : "unavailable";
      wcReason = reason || wcReason;
    },
    workspaceFor(kind) {
      if (kind === "shell") return shell;
      if (kind === "webcontainer") return container;
      return workspace;
    },
  };
}
