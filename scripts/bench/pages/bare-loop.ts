/**
 * A bare @langchain/langgraph/web agent loop (model node, tools node, nothing
 * else): the baseline the harness is measured against, in Node
 * (scripts/bench/loop.ts, scripts/bench/context.ts) and in a browser worker
 * (scripts/bench/pages/floor/). Browser-safe.
 */
import type { AIMessage, ToolMessage } from "@langchain/core/messages";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { END, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph/web";
import type { ScriptedChatModel } from "../../../src/models/scripted.ts";

export function buildBareLoop(model: ScriptedChatModel, tools: StructuredToolInterface[]) {
  const bound = model.bindTools(tools);
  const byName = new Map(tools.map((t) => [t.name, t]));
  return new StateGraph(MessagesAnnotation)
    .addNode("model", async (state, config) => ({ messages: [await bound.invoke(state.messages, config)] }))
    .addNode("tools", async (state, config) => {
      const last = state.messages.at(-1) as AIMessage;
      const results = await Promise.all(
        (last.tool_calls ?? []).map(
          (call) => byName.get(call.name)!.invoke({ ...call, type: "tool_call" }, config) as Promise<ToolMessage>,
        ),
      );
      return { messages: results };
    })
    .addEdge(START, "model")
    .addConditionalEdges("model", (state) => ((state.messages.at(-1) as AIMessage).tool_calls?.length ? "tools" : END), ["tools", END])
    .addEdge("tools", "model")
    .compile()
    .withConfig({ recursionLimit: 10_000 });
}
