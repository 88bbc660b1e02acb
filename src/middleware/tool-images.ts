/**
 * Images of tool results for models that take them: a tool message whose `response_metadata` holds images
 * (core/tool-images.ts; an MCP tool's screenshot, say) reaches the model as its text followed by one standard image
 * block per image (`{ type: "image", mimeType, data }`, which `@langchain/anthropic` sends as a `tool_result`'s
 * `image` blocks). Stored messages keep their text content: only the request is reshaped, so a model that does not
 * take images (this middleware is left out for it) reads the text, which says where each image was saved.
 * The reshaping is in tool-image-blocks.ts, loaded on the first request that has an image.
 */
import { ToolMessage } from "@langchain/core/messages";
import { TOOL_IMAGES_KEY } from "../core/tool-images.ts";
import type { AgentMiddleware } from "../harness/types.ts";
import { isAnthropicModel } from "./prompt-caching.ts";

export const TOOL_IMAGES = "ToolImagesMiddleware";

/** Sends tool results' images to the model with their text (add it only for models that take images in tool results). */
export function toolImagesMiddleware(): AgentMiddleware {
  return {
    name: TOOL_IMAGES,
    async wrapModelCall(request, next) {
      if (!request.messages.some((m) => ToolMessage.isInstance(m) && Array.isArray(m.response_metadata?.[TOOL_IMAGES_KEY])))
        return next(request);
      // The reshaping (and the image check) loads only once a result has images.
      const { withToolImages } = await import("./tool-image-blocks.ts");
      return next({ ...request, messages: request.messages.map(withToolImages) });
    },
  };
}

/** Whether `model` takes images in tool results by default (Anthropic's do; OpenAI's chat completions take text only). */
export const takesToolImages = isAnthropicModel;
