import type { BaseMessage } from "@langchain/core/messages";

/** The text of a message's content: the string itself, or its text blocks joined (other blocks dropped). */
export function messageText(content: BaseMessage["content"]): string {
  if (typeof content === "string") return content;
  let text = "";
  for (const block of content as ReadonlyArray<unknown>) {
    if (typeof block === "string") text += block;
    else if (typeof (block as { text?: unknown }).text === "string") text += (block as { text: string }).text;
  }
  return text;
}
