/**
 * Models that run in the tab (llama.cpp via wllama): the OPFS model store,
 * downloads the page can follow and cancel, `.gguf` files the user dropped
 * (read in place for this session, never copied or uploaded), and the one
 * loaded engine (loading another model frees the previous one).
 */
import { err, fail, ok, type Result } from "../../core/result.ts";
import type { LoadedModel } from "../../models/wllama/engine.ts";
import { MAX_FILE_BYTES } from "../../models/wllama/model-ids.ts";
import type { CachedModel, DownloadError, DownloadProgress, ModelSource, ModelStore } from "../../models/wllama/model-store.ts";
import type { WllamaEngine } from "../../models/wllama/chat-wllama.ts";
import { wllamaSupport } from "../../models/wllama/support.ts";
import type { LocalFileError } from "../../protocol/errors.ts";

import { DEFAULT_LOCAL_CONTEXT } from "./local-context.ts";

export { DEFAULT_LOCAL_CONTEXT };

/** Ids of dropped files start with this (cached models never do: their ids are directory names). */
const LOCAL_FILE_PREFIX = "file:";

export interface LocalModels {
  list(): Promise<CachedModel[]>;
  download(source: ModelSource, onProgress: (p: DownloadProgress) => void): Promise<Result<CachedModel, DownloadError>>;
  cancel(id: string): void;
  delete(id: string): Promise<void>;
  /** Uses .gguf files from the user's disk for this session: the model id, or a coded reason. */
  useFiles(files: File[]): Result<string, LocalFileError>;
  /**
   * The engine for a model id, loading it (and freeing the previous one) when
   * needed; `onProgress` hears the share of the model's file read (0–1) when
   * it loads (nothing when it is loaded already).
   */
  engine(id: string, contextTokens?: number, onProgress?: (fraction: number) => void): Promise<Result<WllamaEngine, string>>;
}

export function createLocalModels(fetchImpl?: typeof fetch): LocalModels {
  // The store's code loads with the first listing, download or model load (not with the worker).
  let opened: Promise<ModelStore> | undefined;
  const store = () =>
    (opened ??= import("../../models/wllama/model-store.ts").then((m) => new m.ModelStore(fetchImpl ? { fetch: fetchImpl } : {})));
  const downloads = new Map<string, AbortController>();
  const dropped = new Map<string, { name: string; files: File[] }>();
  let loaded: { key: string; model: LoadedModel } | undefined;
  let loading: Promise<Result<WllamaEngine, string>> | undefined;

  async function load(id: string, contextTokens: number, onProgress?: (fraction: number) => void): Promise<Result<WllamaEngine, string>> {
    const key = `${id}@${contextTokens}`;
    if (loaded?.key === key) return ok(loaded.model.engine);
    const local = dropped.get(id);
    const files = local?.files ?? (await (await store()).files(id));
    if (!files?.length)
      return err(`The model ${id} is not downloaded (or its file was dropped in an earlier session). Choose it again in Settings.`);
    if (loaded) {
      await loaded.model.unload().catch(() => undefined);
      loaded = undefined;
    }
    try {
      // llama.cpp (and its 10 MB wasm) loads only when a model in the tab is used.
      const { loadWllamaModel } = await import("../../models/wllama/engine.ts");
      onProgress?.(0);
      const model = await loadWllamaModel(files, local?.name ?? id, { contextTokens, ...(onProgress ? { onProgress } : {}) });
      loaded = { key, model };
      return ok(model.engine);
    } catch (cause) {
      return err(`llama.cpp could not load the model: ${cause instanceof Error ? cause.message : String(cause)}`);
    }
  }

  return {
    list: async () => [
      ...[...dropped.entries()].map(([id, d]) => ({
        id,
        name: d.name,
        urls: [],
        bytes: d.files.reduce((n, f) => n + f.size, 0),
        totalBytes: d.files.reduce((n, f) => n + f.size, 0),
        complete: true,
      })),
      ...(await (await store()).list()),
    ],
    async download(source, onProgress) {
      downloads.get(source.id)?.abort();
      const controller = new AbortController();
      downloads.set(source.id, controller);
      try {
        return await (await store()).download(source, { onProgress, signal: controller.signal });
      } finally {
        if (downloads.get(source.id) === controller) downloads.delete(source.id);
      }
    },
    cancel(id) {
      downloads.get(id)?.abort();
    },
    async delete(id) {
      if (loaded?.key.startsWith(`${id}@`)) {
        await loaded.model.unload().catch(() => undefined);
        loaded = undefined;
      }
      if (dropped.delete(id)) return;
      await (await store()).delete(id);
    },
    useFiles(files) {
      const gguf = [...files].filter((f) => f.name.toLowerCase().endsWith(".gguf")).sort((a, b) => a.name.localeCompare(b.name));
      if (!gguf.length) return fail("not_gguf", "Drop a .gguf file (or every shard of a split model).", "LocalFileError");
      const big = gguf.find((f) => f.size > MAX_FILE_BYTES);
      if (big)
        return fail(
          "too_large",
          `${big.name} is over 2 GB, the largest file llama.cpp in the browser can read. ` +
            "Use a split model (…-00001-of-0000N.gguf) and drop every shard.",
          "LocalFileError",
        );
      const id = `${LOCAL_FILE_PREFIX}${gguf[0]!.name}`;
      dropped.set(id, { name: gguf[0]!.name, files: gguf });
      return ok(id);
    },
    engine(id, contextTokens = DEFAULT_LOCAL_CONTEXT, onProgress) {
      const support = wllamaSupport();
      if (!support.ok) return Promise.resolve(err(support.reason));
      const next = (loading ?? Promise.resolve()).then(() => load(id, contextTokens, onProgress));
      loading = next;
      return next;
    },
  };
}
