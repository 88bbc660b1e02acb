/**
 * The agent worker's entry: builds the demo agent and exposes the host over
 * Comlink. The page reaches it only through protocol.ts (see client.ts).
 */
import { expose } from "comlink";
import { createDemoAgent } from "./demo.ts";
import { createAgentHost } from "./host.ts";

expose(createAgentHost({ agent: createDemoAgent(), model: "scripted", demo: true }));
