/**
 * Thread exports edited the way someone crafting a hostile file would: the
 * history's JSON changed so its messages break LangChain's and the
 * views' assumptions (tool calls that are not a list, a null call, an id
 * that is a number, arguments that are text, a tool result without its
 * call's id, content that is a number or holds null). Each names the problem
 * the import must report. Shared by the Node and Chromium import tests.
 */
import { base64ToBytes, bytesToBase64 } from "../backends/file-ops.ts";
import type { ThreadExport, ThreadExportV1 } from "../protocol/threads.ts";

export interface CraftedExport {
  name: string;
  /** Rewrites one checkpoint's JSON text. */
  craft(json: string): string;
  /** What the refusal must say. */
  problem: RegExp;
}

export const CRAFTED_EXPORTS: readonly CraftedExport[] = [
  {
    name: "tool calls that are not a list",
    craft: (s) => s.replace(/"tool_calls":\[[^\]]*\]/g, '"tool_calls":"x"'),
    problem: /message \d+ \(ai\): its tool calls are not a list/,
  },
  {
    name: "a null tool call",
    craft: (s) => s.replace(/"tool_calls":\[[^\]]*\]/g, '"tool_calls":[null]'),
    problem: /message \d+ \(ai\): tool call 1 is not an object/,
  },
  {
    name: "a tool call whose id is a number",
    craft: (s) => s.replace(/"id":"(call_[^"]*)","type":"tool_call"/g, '"id":5,"type":"tool_call"'),
    problem: /tool call 1 has no string id/,
  },
  {
    name: "tool call arguments that are text",
    craft: (s) => s.replace(/"args":\{[^}]*\}/g, '"args":"nope"'),
    problem: /tool call 1's arguments are not an object/,
  },
  {
    name: "a tool result without its call's id",
    craft: (s) => s.replace(/"tool_call_id":"[^"]*",/g, ""),
    problem: /\(tool\): it has no string tool_call_id/,
  },
  {
    name: "content that is a number",
    craft: (s) => s.replace(/"content":"hello"/g, '"content":5'),
    // LangChain does not revive such a message at all in the input checkpoint's write.
    problem: /\(human\): its content is neither text nor a list of blocks|message 1: it is not a message/,
  },
  {
    name: "content holding null",
    craft: (s) => s.replace(/"content":"hello"/g, '"content":[null]'),
    problem: /\(human\): content block 1 is not a block with a type/,
  },
];

/**
 * `exported` with its history's JSON (messages, values and checkpoints) passed through `craft` (the thread was made
 * with the demo's "hello").
 */
export function craftExport(exported: ThreadExport, craft: (json: string) => string): ThreadExport {
  const history = JSON.stringify({ messages: exported.messages, values: exported.values, checkpoints: exported.checkpoints });
  const crafted = craft(history);
  if (crafted === history) throw new Error("the craft changed nothing");
  return { ...exported, ...(JSON.parse(crafted) as Pick<ThreadExport, "messages" | "values" | "checkpoints">) };
}

/** A version 1 export (whole checkpoints in base64) with every checkpoint's JSON passed through `craft`. */
export function craftExportV1(exported: ThreadExportV1, craft: (json: string) => string): ThreadExportV1 {
  const checkpoints = exported.checkpoints.map((c) => {
    const json = new TextDecoder().decode(base64ToBytes(c.data));
    return { ...c, data: bytesToBase64(new TextEncoder().encode(craft(json))) };
  });
  if (checkpoints.every((c, i) => c.data === exported.checkpoints[i]!.data)) throw new Error("the craft changed nothing");
  return { ...exported, checkpoints };
}
