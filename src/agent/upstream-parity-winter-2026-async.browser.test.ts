/** Python deepagents 0.7.x async subagent parity in Chromium: the Node table, against the loopback Agent Protocol server. */
import { inject } from "vitest";
import { describeAsyncSubagentParity } from "../testing/async-subagent-parity.ts";

describeAsyncSubagentParity(() => inject("agentProtocolServer"));
