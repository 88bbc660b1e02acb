/** Tool messages with images as the text + image blocks a model that takes images gets (see tool-images.ts). */
import { ToolMessage, type BaseMessage, type MessageContent } from "@langchain/core/messages";
import { copyToolMessage } from "../core/messages.ts";
import { toolImagesOf } from "../core/tool-image-check.ts";

/** `message` as the model gets it: a tool message with images as text + image blocks; any other as it is. */
export function withToolImages(message: BaseMessage): BaseMessage {
  if (!ToolMessage.isInstance(message)) return message;
  const images = toolImagesOf(message.response_metadata);
  if (!images.length) return message;
  const text = typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
  const content = [...text, ...images.map((image) => ({ type: "image", mimeType: image.mimeType, data: image.data }))];
  return copyToolMessage(message, { content: content as MessageContent, status: message.status ?? "success" });
}
