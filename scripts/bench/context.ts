/**
 * Context engineering: tokens sent to the model over a scripted 150-step
 * session whose tool outputs are large (30,000 chars each), deeptab vs a bare
 * loop with no offloading or summarization, same model script and tool.
 *
 * Each result (about 8,000 tokens) is below deepagents' 20,000-token eviction
 * limit, so it reaches the model whole. Requests grow by one result a step
 * until half the window, where the results the model has already seen are
 * cleared (saved to /large_tool_results/ and shown as a note naming the
 * file: context/clear-results.ts); the newest, unseen result is never
 * cleared nor folded into a summary. Without clearing, requests grew to the
 * summarization trigger (85%) and the ratio was 21.5x; the 25.2x once
 * measured came from folding the unseen newest result away.
 */
import { HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { z } from "zod";
import { SUMMARY_PROMPT } from "../../src/context/summarize.ts";
import { CHARS_PER_TOKEN, estimateMessagesTokens } from "../../src/context/tokens.ts";
import { createDeepAgent } from "../../src/agent/create-deep-agent.ts";
import { ScriptedChatModel, type Script } from "../../src/models/scripted.ts";
import { buildBareLoop } from "./pages/bare-loop.ts";

const STEPS = 150;
const WINDOW = 64_000;

const runTests = tool(
  async ({ run }: { run: number }) =>
    Array.from({ length: 400 }, (_, i) => `run ${run} case ${i}: ${i % 37 === 0 ? "FAILED" : "ok"} ${"·".repeat(60)}`).join("\n"),
  { name: "run_tests", description: "Runs the test suite.", schema: z.object({ run: z.number() }) },
);

function script(): Script {
  let step = 0;
  return (ctx) => {
    const first = ctx.messages[0];
    if (first && SystemMessage.isInstance(first) && first.content === SUMMARY_PROMPT)
      return { text: "Summary: tests were run repeatedly; a few cases fail." };
    return step < STEPS ? { toolCalls: [{ name: "run_tests", args: { run: step++ } }] } : { text: "done" };
  };
}

const isSummaryCall = (c: ScriptedChatModel["calls"][number]) =>
  !!c.messages[0] && SystemMessage.isInstance(c.messages[0]) && c.messages[0].content === SUMMARY_PROMPT;

/**
 * Tool results of the session that never reached the model in one of its
 * own requests (a summarization may fold in only what the model has seen;
 * folding in the newest, unseen result is what once made this bench read
 * 25.2x instead of 21.5x).
 */
function unseenResults(model: ScriptedChatModel, history: readonly BaseMessage[]): number {
  const seen = new Set<string>();
  for (const c of model.calls) {
    if (isSummaryCall(c)) continue;
    for (const m of c.messages) if (ToolMessage.isInstance(m)) seen.add(m.tool_call_id);
  }
  return history.filter((m) => ToolMessage.isInstance(m) && !seen.has(m.tool_call_id)).length;
}

/**
 * Tokens of the tool schemas bound to each request (its definitions as JSON, 4 characters a token): sent with every
 * request, but outside its messages, so the ratio leaves them out.
 */
function schemaTokens(model: ScriptedChatModel): number {
  return model.calls
    .filter((c) => !isSummaryCall(c))
    .reduce((n, c) => n + Math.ceil(JSON.stringify(c.toolDefinitions).length / CHARS_PER_TOKEN), 0);
}

/** Tokens of each request the agent made (`summaries`: of each summarization call instead). */
function requestSizes(model: ScriptedChatModel, summaries = false): number[] {
  return model.calls.filter((c) => isSummaryCall(c) === summaries).map((c) => estimateMessagesTokens(c.messages));
}

export async function benchContext(): Promise<string[]> {
  const bareModel = new ScriptedChatModel({ script: script() });
  await buildBareLoop(bareModel, [runTests]).invoke({ messages: [new HumanMessage("fix the tests")] });
  const bare = requestSizes(bareModel);

  const model = new ScriptedChatModel({ script: script() });
  const agent = createDeepAgent({ model, tools: [runTests], summarization: { maxInputTokens: WINDOW } });
  const out = await agent.invoke({ messages: [new HumanMessage("fix the tests")] }, { configurable: { thread_id: "bench" } });
  const ours = requestSizes(model);
  const trigger = Math.floor(WINDOW * 0.85);

  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const summaryCalls = requestSizes(model, true);
  const summaries = summaryCalls.length;
  return [
    `context: ${STEPS}-step session, 30,000-char tool outputs, window ${WINDOW} tokens (trigger ${trigger})`,
    `  no offloading/summarization   ${sum(bare).toLocaleString("en-US").padStart(12)} tokens sent, ` +
      `peak request ${Math.max(...bare).toLocaleString("en-US")}`,
    `  deeptab                       ${sum(ours).toLocaleString("en-US").padStart(12)} tokens sent, ` +
      `peak request ${Math.max(...ours).toLocaleString("en-US")} (${summaries} summarizations)`,
    `  reduction                     ${(sum(bare) / sum(ours)).toFixed(1)}x fewer tokens (target >= 25x); ` +
      `peak under trigger: ${Math.max(...ours) < trigger ? "yes" : "NO"}; ` +
      `results the model never saw: ${unseenResults(model, out.messages)}`,
    `  summarization calls           ${sum(summaryCalls).toLocaleString("en-US").padStart(12)} tokens sent besides ` +
      `(${(sum(bare) / (sum(ours) + sum(summaryCalls))).toFixed(1)}x fewer counting them)`,
    `  tool schemas                  ${schemaTokens(model).toLocaleString("en-US").padStart(12)} tokens sent besides ` +
      `(bare loop: ${schemaTokens(bareModel).toLocaleString("en-US")}; ` +
      `${((sum(bare) + schemaTokens(bareModel)) / (sum(ours) + schemaTokens(model))).toFixed(1)}x fewer counting them)`,
  ];
}
