/**
 * Images in tool results (an MCP tool's screenshot, for example): what the harness keeps beside a tool message's text
 * (in its `response_metadata`, never in the text the model reads as text), what the page may show, and what a model
 * that takes images gets. Pure, and the one check every layer uses: an image is kept, sent or shown only when its
 * MIME type is one of {@link TOOL_IMAGE_TYPES}, its data is base64 of at most {@link MAX_TOOL_IMAGE_BYTES} bytes, and
 * those bytes start the way that format starts (a PNG's signature, a JPEG's SOI marker…). SVG is never an image here:
 * it is a document that can carry script and links. The check is in tool-image-check.ts, loaded where an image
 * appears (the worker starts without it).
 */

/** One image of a tool result: its MIME type and its bytes as base64. */
export interface ToolImage {
  mimeType: string;
  /** Base64 (standard alphabet, padded or not, no `data:` prefix). */
  data: string;
}

/** `response_metadata` key of a tool message: its images ({@link ToolImage}[], each passing `toolImageProblem` of tool-image-check.ts). */
export const TOOL_IMAGES_KEY = "deeptab_images";

/** The largest image kept beside a result (decoded bytes); a larger one is only saved as a file. */
export const MAX_TOOL_IMAGE_BYTES = 1024 * 1024;

/** At most this many images are kept beside one result; the rest are only saved as files. */
export const MAX_TOOL_IMAGES = 8;
