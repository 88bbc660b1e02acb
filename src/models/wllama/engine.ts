/**
 * A loaded wllama model as a {@link WllamaEngine}: load a GGUF (one Blob, or
 * the shards of a split model in order) with the self-hosted wasm, then hand
 * the engine to ChatWllama.
 */
import type { LoadModelParams, Wllama } from "@wllama/wllama";
import type { ServerExtras, WllamaEngine } from "./chat-wllama.ts";
import type { ChatCompletionChunk, ChatCompletionParams } from "@wllama/wllama";

/** Context tokens a model is loaded with when the caller does not say (llama.cpp's n_ctx). */
export const DEFAULT_CONTEXT = 8_192;

export function wllamaEngine(wllama: Wllama, modelName: string): WllamaEngine {
  return {
    modelName,
    contextSize: () => wllama.getLoadedContextInfo().n_ctx,
    streamChat: (params: ChatCompletionParams & ServerExtras): Promise<AsyncIterable<ChatCompletionChunk>> =>
      wllama.createChatCompletion({ ...params, stream: true }),
  };
}

/**
 * A Blob that reports how many of its bytes were read. wllama reads the
 * model file in this context (slices in async-read mode, one stream in mmap
 * mode), so the bytes read are the load's progress: llama.cpp itself says
 * nothing while it loads.
 */
class ReadProgressBlob extends Blob {
  /** A File's name, which wllama orders the shards of a split model by. */
  readonly name: string | undefined;
  readonly #file: Blob;
  readonly #onRead: (bytes: number) => void;

  constructor(file: Blob, onRead: (bytes: number) => void) {
    super([file]);
    this.name = file instanceof File ? file.name : undefined;
    this.#file = file;
    this.#onRead = onRead;
  }

  override slice(start?: number, end?: number, contentType?: string): Blob {
    const part = this.#file.slice(start, end, contentType);
    this.#onRead(part.size);
    return part;
  }

  override stream(): ReadableStream<Uint8Array<ArrayBuffer>> {
    const onRead = this.#onRead;
    return this.#file.stream().pipeThrough(
      new TransformStream<Uint8Array<ArrayBuffer>, Uint8Array<ArrayBuffer>>({
        transform(chunk, controller) {
          onRead(chunk.byteLength);
          controller.enqueue(chunk);
        },
      }),
    );
  }
}

/** The files as Blobs that report the share of all their bytes read (0–1, rising, at most once per percent). */
function reporting(files: Blob[], onProgress: (fraction: number) => void): Blob[] {
  const total = files.reduce((n, f) => n + f.size, 0);
  let read = 0;
  let shown = -1;
  const onRead = (bytes: number) => {
    read += bytes;
    const percent = Math.min(100, Math.floor((read / Math.max(1, total)) * 100));
    if (percent > shown) {
      shown = percent;
      onProgress(percent / 100);
    }
  };
  return files.map((f) => new ReadProgressBlob(f, onRead));
}

export interface LoadedModel {
  engine: WllamaEngine;
  /** Frees the model and wllama's worker. */
  unload(): Promise<void>;
}

/**
 * Loads a model from its file(s). `contextTokens` is the window it gets
 * (bounded by what the model was trained for). CPU only in this build's
 * defaults (`n_gpu_layers: 0`) unless the caller asks for more.
 * `onProgress` hears the share of the file(s) read (0–1) as llama.cpp loads.
 */
export async function loadWllamaModel(
  files: Blob[],
  name: string,
  params: LoadModelParams & { contextTokens?: number; onProgress?: (fraction: number) => void } = {},
): Promise<LoadedModel> {
  const { contextTokens, onProgress, ...rest } = params;
  // Loaded on first use: assets.ts imports the wasm with Vite's `?url`, which only a bundler resolves, so the
  // library imports in Node (where no model loads) and a bundle without llama.cpp carries none of it.
  const { createWllama, loadModelChecked } = await import("./assets.ts");
  const wllama = createWllama();
  const read = onProgress ? reporting(files, onProgress) : files;
  await loadModelChecked(wllama, read, { n_ctx: contextTokens ?? DEFAULT_CONTEXT, n_gpu_layers: 0, ...rest });
  const trained = wllama.getLoadedContextInfo().n_ctx_train;
  if (trained && wllama.getLoadedContextInfo().n_ctx > trained) {
    await wllama.exit();
    return loadWllamaModel(files, name, { ...rest, contextTokens: trained, ...(onProgress ? { onProgress } : {}) });
  }
  return { engine: wllamaEngine(wllama, name), unload: () => wllama.exit() };
}
