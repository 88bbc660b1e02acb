/**
 * The demo model: a scripted model that needs no API key. Every user turn
 * writes a note with `write_file`, then answers in several streamed chunks.
 * The script is a function of what the model sees, so any number of turns
 * works.
 */
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { ScriptedChatModel, type ScriptContext, type ScriptedTurn } from "./scripted.ts";

/** Wait between streamed chunks, so the page visibly streams. */
export const DEMO_CHUNK_DELAY_MS = 25;

/** The note written on the n-th user turn (1-based). */
export function demoNotePath(turn: number): string {
  return turn <= 1 ? "/hello.md" : `/hello-${turn}.md`;
}

/** The demo's final answer for the n-th user turn. */
export function demoAnswer(turn: number): string {
  return (
    `I saved your message to ${demoNotePath(turn)}. ` +
    "This answer was streamed token by token from a scripted model running in a Web Worker."
  );
}

function userTurns(messages: readonly BaseMessage[]): number {
  return messages.filter((m) => HumanMessage.isInstance(m)).length;
}

const lastHumanText = (messages: readonly BaseMessage[]) => [...messages].reverse().find((m) => HumanMessage.isInstance(m))?.text ?? "";

/**
 * The scripted turn for a model call: write the note first, then answer.
 * A message mentioning "delete" makes it delete the first note (an approval
 * in demo mode); "research" delegates to the general-purpose subagent, which
 * writes /research.md and reports back; "$ <command>" runs the command with
 * `execute` and reads the file it redirected to (`> /path`), if any.
 */
function demoTurn(ctx: ScriptContext): ScriptedTurn {
  const shell = shellTurn(ctx);
  if (shell) return shell;
  const turn = userTurns(ctx.messages);
  const last = ctx.messages[ctx.messages.length - 1];
  const asked = lastHumanText(ctx.messages).toLowerCase();
  const isChild = !ctx.tools.includes("task");
  if (isChild) {
    if (last && HumanMessage.isInstance(last))
      return { toolCalls: [{ name: "write_file", args: { file_path: "/research.md", content: `# Research\n\n${last.text}\n` } }] };
    return { text: "Research saved to /research.md.", chunkDelayMs: DEMO_CHUNK_DELAY_MS };
  }
  if (last && HumanMessage.isInstance(last) && asked.includes("research")) {
    return { toolCalls: [{ name: "task", args: { description: `Research: ${last.text}`, subagent_type: "general-purpose" } }] };
  }
  if (last && HumanMessage.isInstance(last) && asked.includes("delete")) {
    return { toolCalls: [{ name: "delete", args: { file_path: demoNotePath(1) } }] };
  }
  if (last && !HumanMessage.isInstance(last) && (asked.includes("delete") || asked.includes("research"))) {
    return { text: `Done: ${last.text}`, chunkDelayMs: DEMO_CHUNK_DELAY_MS };
  }
  if (last && HumanMessage.isInstance(last) && ctx.tools.includes("write_file")) {
    const content = `# Hello\n\nYou said: ${last.text}\n`;
    return { toolCalls: [{ name: "write_file", args: { file_path: demoNotePath(turn), content } }] };
  }
  return { text: demoAnswer(turn), chunkDelayMs: DEMO_CHUNK_DELAY_MS };
}

/** The "$ <command>" turns: execute, then read_file of the redirect target, then a short answer. */
function shellTurn(ctx: ScriptContext): ScriptedTurn | undefined {
  const asked = lastHumanText(ctx.messages).trim();
  if (!asked.startsWith("$ ") || ctx.tools.includes("task") === false) return undefined;
  const command = asked.slice(2);
  const last = ctx.messages[ctx.messages.length - 1];
  if (last && HumanMessage.isInstance(last)) {
    if (!ctx.tools.includes("execute")) return { text: "There is no sandbox to run commands in (choose one in Settings)." };
    return { toolCalls: [{ name: "execute", args: { command } }] };
  }
  const target = />\s*(\/[^\s;&|]+)/.exec(command)?.[1];
  if (last?.getType() === "tool" && (last as { name?: string }).name === "execute" && target) {
    return { toolCalls: [{ name: "read_file", args: { file_path: target } }] };
  }
  if (last?.getType() === "tool" && (last as { name?: string }).name === "read_file" && target) {
    // read_file numbers its lines ("     1\tfoo"): show the file as it is.
    const body = last.text
      .split("\n")
      .map((line) => line.replace(/^\s*\d+\t/, ""))
      .join("\n");
    return { text: `Here is \`${target}\`:\n\n\`\`\`\n${body}\n\`\`\``, chunkDelayMs: DEMO_CHUNK_DELAY_MS };
  }
  if (last?.getType() === "tool" && (last as { name?: string }).name === "execute") {
    return { text: `Ran \`${command}\`:\n\n\`\`\`\n${last.text.trim()}\n\`\`\``, chunkDelayMs: DEMO_CHUNK_DELAY_MS };
  }
  return { text: `Done. ${last?.text.split("\n").find((l) => l.trim()) ?? ""}`.trim(), chunkDelayMs: DEMO_CHUNK_DELAY_MS };
}

/** A fresh demo model (each has its own message-id prefix). */
export function createDemoModel(): ScriptedChatModel {
  return new ScriptedChatModel({ script: demoTurn });
}
