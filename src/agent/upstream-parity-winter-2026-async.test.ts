/** Python deepagents 0.7.x async subagent parity in Node, against a loopback Agent Protocol server (the shared table). */
import { afterAll, beforeAll } from "vitest";
import { startAgentProtocolServer, type AgentProtocolServer } from "../testing/agent-protocol-server.ts";
import { describeAsyncSubagentParity } from "../testing/async-subagent-parity.ts";

let server: AgentProtocolServer;
beforeAll(async () => {
  server = await startAgentProtocolServer();
});
afterAll(async () => {
  await server?.close();
});

describeAsyncSubagentParity(() => server.url);
