/**
 * The loopback provider servers of a Node test file (provider-servers.ts):
 * `serveScripted()` registers the afterEach that closes every server its
 * `serve` started during the test, so no file keeps its own list.
 */
import { afterEach } from "vitest";
import { startScriptedServer, type ScriptedServer } from "./provider-servers.ts";

/** Call at the top of a test file (or describe); `serve` takes startScriptedServer's arguments. */
export function serveScripted(): (...args: Parameters<typeof startScriptedServer>) => Promise<ScriptedServer> {
  let servers: ScriptedServer[] = [];
  afterEach(async () => {
    const open = servers;
    servers = [];
    await Promise.all(open.map((s) => s.close()));
  });
  return async (...args) => {
    const server = await startScriptedServer(...args);
    servers.push(server);
    return server;
  };
}
