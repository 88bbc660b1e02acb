/**
 * Demo mode: a scripted model that needs no API key. Every user turn writes a
 * note with `write_file`, then answers in several streamed chunks. The script
 * is a function of what the model sees, so any number of turns works.
 */
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph/web";
import { createDeepAgent, type DeepAgent } from "../harness/create-deep-agent.ts";
import { ScriptedChatModel, type ScriptContext, type ScriptedTurn } from "../testing/scripted-model.ts";
import { textOf } from "./events.ts";

/** Wait between streamed chunks, so the page visibly streams. */
export const DEMO_CHUNK_DELAY_MS = 25;

/** The note written on the n-th user turn (1-based). */
export function demoNotePath(turn: number): string {
  return turn <= 1 ? "/hello.md" : `/hello-${turn}.md`;
}

/** The demo's final answer for the n-th user turn. */
export function demoAnswer(turn: number): string {
  return `I saved your message to ${demoNotePath(turn)}. This answer was streamed token by token from a scripted model running in a Web Worker.`;
}

function userTurns(messages: readonly BaseMessage[]): number {
  return messages.filter((m) => HumanMessage.isInstance(m)).length;
}

/** The scripted turn for a model call: write the note first, then answer. */
export function demoTurn(ctx: ScriptContext): ScriptedTurn {
  const turn = userTurns(ctx.messages);
  const last = ctx.messages[ctx.messages.length - 1];
  if (last && HumanMessage.isInstance(last) && ctx.tools.includes("write_file")) {
    const content = `# Hello\n\nYou said: ${textOf(last.content)}\n`;
    return { toolCalls: [{ name: "write_file", args: { file_path: demoNotePath(turn), content } }] };
  }
  return { text: demoAnswer(turn), chunkDelayMs: DEMO_CHUNK_DELAY_MS };
}

/** The demo agent: scripted model, in-memory checkpointer (IndexedDB comes later). */
export function createDemoAgent(): DeepAgent {
  const model = new ScriptedChatModel({ script: demoTurn });
  return createDeepAgent({ model, checkpointer: new MemorySaver(), systemPrompt: "You are deeptab's demo agent." });
}
