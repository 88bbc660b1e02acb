/** The demo agent (deeptab's app without a key). */
import { MemorySaver, type BaseCheckpointSaver } from "@langchain/langgraph/web";
import { createDeepAgent, type CreateDeepAgentOptions, type DeepAgent } from "../agent/create-deep-agent.ts";
import { createDemoModel } from "../models/demo.ts";

export { demoAnswer, demoNotePath, DEMO_CHUNK_DELAY_MS } from "../models/demo.ts";

/** The demo agent: scripted model; deleting a file needs approval. Files in graph state unless a backend is given. */
export function createDemoAgent(
  checkpointer: BaseCheckpointSaver = new MemorySaver(),
  storage: Pick<CreateDeepAgentOptions, "backend" | "store"> = {},
): DeepAgent {
  const model = createDemoModel();
  return createDeepAgent({
    model,
    checkpointer,
    ...storage,
    systemPrompt: "You are deeptab's demo agent.",
    interruptOn: { delete: true },
    memory: ["/memories/AGENTS.md"],
  });
}
