/**
 * Playwright global setup: starts the scripted OpenAI and Anthropic servers
 * (src/testing/provider-servers.ts) on the fixed loopback ports of
 * e2e/servers.ts, in the runner process, for the whole run. Specs reach them
 * over HTTP (e2e/control.ts); e2e/global-teardown.ts closes them.
 */
import type { FullConfig } from "@playwright/test";
import { startScriptedServer, type Dialect, type ScriptedServer } from "../src/testing/provider-servers.ts";
import { PROVIDER_PORTS } from "./servers.ts";

const HANDLE = Symbol.for("deeptab.e2e.providerServers");
type WithServers = typeof globalThis & { [HANDLE]?: ScriptedServer[] };

/** Starts both servers; fails the run with a hint when a port is taken. */
export default async function globalSetup(_config: FullConfig): Promise<void> {
  const started: ScriptedServer[] = [];
  for (const dialect of ["openai", "anthropic"] as const satisfies readonly Dialect[]) {
    const port = PROVIDER_PORTS[dialect];
    try {
      started.push(await startScriptedServer(dialect, [], { port }));
    } catch (cause) {
      await Promise.all(started.map((s) => s.close()));
      const inUse = (cause as { code?: unknown } | null)?.code === "EADDRINUSE";
      throw new Error(
        inUse
          ? `The e2e ${dialect} provider server cannot listen on 127.0.0.1:${port}: ` +
              "the port is in use (an earlier run, or scripts/provider-servers.ts?). " +
              `Free it, or set DEEPTAB_E2E_${dialect.toUpperCase()}_PORT.`
          : `The e2e ${dialect} provider server did not start: ${String(cause)}`,
        { cause },
      );
    }
  }
  (globalThis as WithServers)[HANDLE] = started;
}

/** Closes the servers globalSetup started (none if it did not run in this process). */
export async function stopProviderServers(): Promise<void> {
  const g = globalThis as WithServers;
  const servers = g[HANDLE] ?? [];
  delete g[HANDLE];
  await Promise.all(servers.map((s) => s.close()));
}
