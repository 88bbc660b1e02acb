/**
 * How deeptab constructs wllama: the wasm is self-hosted (Vite emits
 * `wllama.wasm` from node_modules as an asset; in dev it is served from
 * /node_modules), never the jsDelivr default, and the "compat" build (which
 * wllama would otherwise fetch from jsDelivr on browsers without JSPI or
 * wasm Memory64, e.g. Safari) is switched off, so nothing is ever fetched
 * from a third party. Works on a page and in a module Web Worker.
 */
import {
  type AssetsPathConfig,
  type LoadModelParams,
  type Model,
  Wllama,
  type WllamaConfig,
  WllamaError,
  type WllamaLogger,
} from "@wllama/wllama";
import wasmUrl from "@wllama/wllama/esm/wasm/wllama.wasm?url";
import { wllamaSupport } from "./support.ts";

/** The self-hosted wasm (one build since wllama 3.1: single/multi-thread and WebGPU are runtime switches). */
export const WLLAMA_ASSETS: AssetsPathConfig = { default: wasmUrl };

/** A logger that drops llama.cpp's (very chatty) debug/info lines but keeps warnings and errors. */
const quietWllamaLogger: WllamaLogger = {
  debug: () => {},
  log: () => {},
  warn: (...args: unknown[]) => console.warn(...args),
  error: (...args: unknown[]) => console.error(...args),
};

/** True where the main (non-compat) wasm can run: JSPI and wasm Memory64 (Chromium 137+); see support.ts. */
export function wllamaSupported(): boolean {
  return wllamaSupport().ok;
}

/** A Wllama on the self-hosted wasm with the CDN compat fallback disabled. */
export function createWllama(config: WllamaConfig = {}): Wllama {
  const wllama = new Wllama(WLLAMA_ASSETS, { logger: quietWllamaLogger, ...config });
  wllama.setCompat(null);
  return wllama;
}

/**
 * `wllama.loadModel`, but it throws when llama.cpp rejected the file: wllama
 * 3.13 resolves `loadModel` even then (bad magic, wrong shard order, …) and
 * `isModelLoaded()` says true, while the load result has `success: false`
 * and `n_vocab: 0`; the next request dies with a RuntimeError. The instance
 * is unloaded (`exit()`) before the error is thrown, so it can load again.
 */
export async function loadModelChecked(wllama: Wllama, model: Blob[] | Model, params: LoadModelParams = {}): Promise<void> {
  await wllama.loadModel(model, params);
  const info = wllama.getLoadedContextInfo();
  if (Reflect.get(info, "success") === false || info.n_vocab === 0) {
    await wllama.exit();
    throw new WllamaError("llama.cpp could not load the model (its log says why)", "load_error");
  }
}
