/**
 * A loaded wllama model as a {@link WllamaEngine}: load a GGUF (one Blob, or
 * the shards of a split model in order) with the self-hosted wasm, then hand
 * the engine to ChatWllama.
 */
import type { LoadModelParams, Wllama } from "@wllama/wllama";
import { createWllama, loadModelChecked } from "./assets.ts";
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

export interface LoadedModel {
  engine: WllamaEngine;
  /** Frees the model and wllama's worker. */
  unload(): Promise<void>;
}

/**
 * Loads a model from its file(s). `contextTokens` is the window it gets
 * (bounded by what the model was trained for). CPU only in this build's
 * defaults (`n_gpu_layers: 0`) unless the caller asks for more.
 */
export async function loadWllamaModel(
  files: Blob[],
  name: string,
  params: LoadModelParams & { contextTokens?: number } = {},
): Promise<LoadedModel> {
  const { contextTokens, ...rest } = params;
  const wllama = createWllama();
  await loadModelChecked(wllama, files, { n_ctx: contextTokens ?? DEFAULT_CONTEXT, n_gpu_layers: 0, ...rest });
  const trained = wllama.getLoadedContextInfo().n_ctx_train;
  if (trained && wllama.getLoadedContextInfo().n_ctx > trained) {
    await wllama.exit();
    return loadWllamaModel(files, name, { ...rest, contextTokens: trained });
  }
  return { engine: wllamaEngine(wllama, name), unload: () => wllama.exit() };
}
