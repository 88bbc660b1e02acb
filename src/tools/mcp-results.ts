/**
 * An MCP tool's result as a tool result the harness gives the model: text as text; images, audio and binary
 * resources saved as files of the run (beside offloaded results, in {@link LARGE_RESULTS_DIR}) and named in the text
 * with their type and size, so nothing is lost and the model can refer to them; images of a checked type
 * (core/tool-images.ts: PNG, JPEG, GIF, WebP whose bytes say so, up to 1 MB) also kept beside the text as the
 * result's `images`, which a model that takes images gets and the tool card shows; resource links as Markdown links;
 * embedded text resources as text; `structuredContent` alone as JSON; `isError` as an error result. Long text is
 * offloaded by the eviction middleware, as any tool's; text over the shell's output cap (1,000,000 bytes) is offloaded
 * whole here when it fits a file (10 MiB), and otherwise cut to the cap with deepagents' truncation note, so neither
 * the message nor the checkpoint ever holds a 30 MiB text.
 */
import type { CallToolResult } from "@modelcontextprotocol/client";
import { MAX_FILE_WRITE_BYTES, sizeText as fileSizeText, utf8Length } from "../backends/file-ops.ts";
import { capBytes, DEFAULT_MAX_OUTPUT_BYTES, TRUNCATED_NOTE } from "../backends/output-cap.ts";
import { isBackendError, type BackendProtocol } from "../backends/protocol.ts";
import { jsonText } from "../core/json-text.ts";
import { MAX_TOOL_IMAGES, type ToolImage } from "../core/tool-images.ts";
import type { ToolOutput } from "../harness/types.ts";
import {
  CHARS_PER_TOKEN,
  LARGE_RESULTS_DIR,
  largeResultPath,
  sanitizeToolCallId,
  saveWithStub,
  TOOL_RESULT_TOKEN_LIMIT,
} from "../middleware/eviction.ts";

const EXTENSIONS: Record<string, string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/gif": "gif",
  "image/webp": "webp",
  "image/svg+xml": "svg",
  "audio/wav": "wav",
  "audio/mpeg": "mp3",
  "application/pdf": "pdf",
};

function decodeBase64(data: string): Uint8Array | undefined {
  try {
    const bin = atob(data);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return bytes;
  } catch {
    return undefined;
  }
}

function sizeText(bytes: number): string {
  return bytes < 1024 ? `${bytes} bytes` : `${(bytes / 1024).toFixed(1)} KB`;
}

/** Saves one binary part through the backend; the line that stands for it in the text. */
async function saveBinary(
  kind: string,
  mimeType: string,
  data: string,
  path: string,
  backend: BackendProtocol | undefined,
): Promise<string> {
  const bytes = decodeBase64(data);
  if (!bytes) return `[${kind} ${mimeType}: not valid base64, dropped]`;
  const what = `[${kind} ${mimeType}, ${sizeText(bytes.length)}`;
  if (!backend?.uploadFiles) return `${what}, not saved: this agent's files cannot hold binary data]`;
  try {
    const [outcome] = await backend.uploadFiles([{ path, content: bytes }]);
    if (outcome && !outcome.error) return `${what}, saved at ${path}]`;
    return `${what}, not saved: ${outcome?.error ?? "no answer"}]`;
  } catch (error) {
    return `${what}, not saved: ${error instanceof Error ? error.message : String(error)}]`;
  }
}

function linkText(name: string, uri: string, mimeType: string | undefined): string {
  const label = name.replace(/[[\]]/g, "");
  return `[${label}](<${uri.replace(/[<>\s]/g, encodeURIComponent)}>)${mimeType ? ` (${mimeType})` : ""}`;
}

/**
 * The tool result for `result`, saving binary parts through `backend` under names made of `toolCallId`. Never
 * throws: a part it cannot read is named as such.
 */
export async function mcpResultOutput(
  result: CallToolResult,
  toolCallId: string,
  backend: BackendProtocol | undefined,
): Promise<ToolOutput> {
  const parts: string[] = [];
  const images: ToolImage[] = [];
  let n = 0;
  const fileFor = (mimeType: string): string =>
    `${LARGE_RESULTS_DIR}/${sanitizeToolCallId(toolCallId)}-${++n}.${EXTENSIONS[mimeType] ?? "bin"}`;
  for (const block of result.content ?? []) {
    switch (block.type) {
      case "text":
        parts.push(block.text);
        break;
      case "image":
        // The check loads only once a result has an image.
        if (images.length < MAX_TOOL_IMAGES && (await import("../core/tool-image-check.ts")).toolImageProblem(block) === undefined)
          images.push({ mimeType: block.mimeType, data: block.data });
        parts.push(await saveBinary(block.type, block.mimeType, block.data, fileFor(block.mimeType), backend));
        break;
      case "audio":
        parts.push(await saveBinary(block.type, block.mimeType, block.data, fileFor(block.mimeType), backend));
        break;
      case "resource_link":
        parts.push(linkText(block.title ?? block.name, block.uri, block.mimeType));
        break;
      case "resource": {
        const { resource } = block;
        if ("text" in resource && typeof resource.text === "string")
          parts.push(`${linkText(resource.uri, resource.uri, resource.mimeType)}\n${resource.text}`);
        else if ("blob" in resource && typeof resource.blob === "string") {
          const mime = resource.mimeType ?? "application/octet-stream";
          parts.push(
            `${linkText(resource.uri, resource.uri, mime)} ${await saveBinary("resource", mime, resource.blob, fileFor(mime), backend)}`,
          );
        }
        break;
      }
      default:
        parts.push(`[content of type ${jsonText((block as { type?: unknown }).type)} left out]`);
    }
  }
  if (parts.length === 0 && result.structuredContent !== undefined) parts.push(jsonText(result.structuredContent));
  const text = await capped(parts.join("\n\n") || "(the tool returned no content)", toolCallId, backend);
  const kept = images.length ? { images } : {};
  return result.isError ? { content: `Error: ${text}`, status: "error", ...kept } : { content: text, ...kept };
}

/**
 * Text over the output cap: saved whole at the call's large-result path (the stub names it, as eviction's does)
 * when it fits a file, otherwise cut to the cap, saying so and why. Text within the cap is returned as it is.
 */
async function capped(text: string, toolCallId: string, backend: BackendProtocol | undefined): Promise<string> {
  const cut = capBytes(text, DEFAULT_MAX_OUTPUT_BYTES);
  if (!cut.truncated) return text;
  const bytes = utf8Length(text);
  let why = "this agent has no files to save it in";
  if (bytes > MAX_FILE_WRITE_BYTES) why = `it is over the ${fileSizeText(MAX_FILE_WRITE_BYTES)} a file may hold`;
  else if (backend) {
    const path = largeResultPath(toolCallId);
    try {
      const stub = await saveWithStub(backend, toolCallId, path, text, TOOL_RESULT_TOKEN_LIMIT * CHARS_PER_TOKEN);
      if (!isBackendError(stub)) return stub;
      why = stub.message;
    } catch (error) {
      why = error instanceof Error ? error.message : String(error);
    }
  }
  return (
    `${cut.text}\n${TRUNCATED_NOTE}: the tool returned ${fileSizeText(bytes)}; only the first ` +
    `${DEFAULT_MAX_OUTPUT_BYTES.toLocaleString("en")} bytes are kept, and the whole text was not saved (${why}).`
  );
}
