/**
 * The floor's worker (floor.ts): a bare @langchain/langgraph/web loop and the
 * scripted model playing the demo's first turn (a `write_file` call, then
 * text). Each streamed text chunk is posted to the page.
 */
import { HumanMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { z } from "zod";
import { ScriptedChatModel } from "../../../../src/models/scripted.ts";
import { buildBareLoop } from "../bare-loop.ts";

const writeFile = tool(async ({ file_path }: { file_path: string; content: string }) => `Updated file ${file_path}`, {
  name: "write_file",
  description: "Writes a file.",
  schema: z.object({ file_path: z.string(), content: z.string() }),
});
const model = new ScriptedChatModel({
  script: ({ call }) =>
    call === 0
      ? { toolCalls: [{ name: "write_file", args: { file_path: "/notes.md", content: "# Notes\n" } }] }
      : { text: "Hello from the floor." },
});
const graph = buildBareLoop(model, [writeFile]);
performance.mark("deeptab:worker-ready");

onmessage = async (e: MessageEvent<string>) => {
  const stream = await graph.stream({ messages: [new HumanMessage(e.data)] }, { streamMode: "messages" });
  for await (const [chunk] of stream) {
    if (chunk.getType() === "ai" && typeof chunk.content === "string" && chunk.content) postMessage(chunk.content);
  }
};
