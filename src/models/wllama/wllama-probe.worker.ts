/**
 * Test support for wllama.browser.test.ts: runs wllama inside a module Web
 * Worker built by Vite (as the agent harness will), so the nested worker that
 * wllama spawns, the self-hosted wasm URL and cross-origin isolation are
 * exercised from a WorkerGlobalScope rather than from the page.
 */
import { createWllama, loadModelChecked, WLLAMA_ASSETS } from "./assets.ts";

export interface ProbeRequest {
  gguf: ArrayBuffer;
  grammar: string;
  nThreads?: number;
}

export type ProbeResponse =
  | {
      ok: true;
      inWorker: boolean;
      crossOriginIsolated: boolean;
      wasmUrl: string;
      multithread: boolean;
      text: string;
      completionTokens: number;
    }
  | { ok: false; error: string };

const quiet = { debug: () => {}, log: () => {}, warn: () => {}, error: console.error };

self.onmessage = async (event: MessageEvent<ProbeRequest>) => {
  const { gguf, grammar, nThreads } = event.data;
  const wllama = createWllama({ logger: quiet });
  let response: ProbeResponse;
  try {
    await loadModelChecked(wllama, [new Blob([gguf])], { n_ctx: 512, ...(nThreads ? { n_threads: nThreads } : {}) });
    const result = await wllama.createCompletion({ prompt: "x", max_tokens: 16, grammar, seed: 7 });
    response = {
      ok: true,
      inWorker: typeof WorkerGlobalScope !== "undefined" && self instanceof WorkerGlobalScope,
      crossOriginIsolated: self.crossOriginIsolated,
      wasmUrl: WLLAMA_ASSETS.default,
      multithread: wllama.isMultithread(),
      text: result.choices[0]?.text ?? "",
      completionTokens: result.usage.completion_tokens,
    };
  } catch (e) {
    response = { ok: false, error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
  } finally {
    await wllama.exit();
  }
  self.postMessage(response);
};
