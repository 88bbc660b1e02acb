/** The check of core/tool-images.ts: which images are kept, shown and sent. Pure. */
import { MAX_TOOL_IMAGE_BYTES, MAX_TOOL_IMAGES, TOOL_IMAGES_KEY, type ToolImage } from "./tool-images.ts";

/** The image types kept, shown and sent, with the bytes each starts with (`null`: any byte). */
const SIGNATURES: Readonly<Record<string, ReadonlyArray<ReadonlyArray<number | null>>>> = {
  "image/png": [[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
  "image/jpeg": [[0xff, 0xd8, 0xff]],
  "image/gif": [
    [0x47, 0x49, 0x46, 0x38, 0x37, 0x61],
    [0x47, 0x49, 0x46, 0x38, 0x39, 0x61],
  ],
  "image/webp": [[0x52, 0x49, 0x46, 0x46, null, null, null, null, 0x57, 0x45, 0x42, 0x50]],
};

/** The MIME types an image of a tool result may have: PNG, JPEG, GIF, WebP (what vision models take; no SVG). */
export const TOOL_IMAGE_TYPES: readonly string[] = Object.keys(SIGNATURES);

/** Whether `bytes` start with one of `signatures` (`null`: any byte). */
function startsAs(signatures: ReadonlyArray<ReadonlyArray<number | null>>, bytes: ArrayLike<number>): boolean {
  return signatures.some((sig) => sig.length <= bytes.length && sig.every((b, i) => b === null || b === bytes[i]));
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The first bytes of base64 `data` (at most 12), or undefined when it is not base64. */
function head(data: string): number[] | undefined {
  if (!BASE64.test(data) || data.length % 4 === 1) return undefined;
  try {
    const bin = atob(data.slice(0, 16).replace(/=+$/, ""));
    return Array.from(bin, (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
}

/** The decoded size of base64 `data`. */
export function base64Bytes(data: string): number {
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return Math.floor((data.length * 3) / 4) - padding;
}

/**
 * Why `image` cannot be kept, shown or sent as an image (a sentence), or undefined when it can: its type is one of
 * {@link TOOL_IMAGE_TYPES}, its data is base64 of at most {@link MAX_TOOL_IMAGE_BYTES} bytes starting as that type
 * starts. Takes any value (the page checks what the worker sent).
 */
export function toolImageProblem(image: unknown): string | undefined {
  if (typeof image !== "object" || image === null) return "not an image";
  const { mimeType, data } = image as Partial<Record<keyof ToolImage, unknown>>;
  if (typeof mimeType !== "string" || typeof data !== "string") return "not an image";
  const signatures = SIGNATURES[mimeType.toLowerCase()];
  if (!signatures) return `${mimeType.slice(0, 80)} is not one of ${TOOL_IMAGE_TYPES.join(", ")}`;
  if (base64Bytes(data) > MAX_TOOL_IMAGE_BYTES) return `larger than ${MAX_TOOL_IMAGE_BYTES / 1024} KB`;
  const bytes = head(data);
  if (!bytes) return "its data is not base64";
  return startsAs(signatures, bytes) ? undefined : `its bytes are not ${mimeType}`;
}

/** The `data:` URL of an image that passes {@link toolImageProblem}; undefined for any other value. */
export function toolImageUrl(image: unknown): string | undefined {
  if (toolImageProblem(image) !== undefined) return undefined;
  const { mimeType, data } = image as ToolImage;
  return `data:${mimeType.toLowerCase()};base64,${data}`;
}

/** The images of a tool message's `response_metadata` that pass the check, as plain copies (at most {@link MAX_TOOL_IMAGES}). */
export function toolImagesOf(metadata: Record<string, unknown> | undefined): ToolImage[] {
  const raw = metadata?.[TOOL_IMAGES_KEY];
  if (!Array.isArray(raw)) return [];
  return raw
    .filter((image) => toolImageProblem(image) === undefined)
    .slice(0, MAX_TOOL_IMAGES)
    .map((image: ToolImage) => ({ mimeType: image.mimeType.toLowerCase(), data: image.data }));
}

/**
 * The image type bytes start as (PNG, JPEG, GIF or WebP, by their first bytes, whatever a file's name says), or
 * undefined: what the file viewer shows as an image. SVG is never one (a document that can carry script).
 */
export function imageTypeOf(bytes: Uint8Array): string | undefined {
  return Object.entries(SIGNATURES).find(([, signatures]) => startsAs(signatures, bytes))?.[0];
}
