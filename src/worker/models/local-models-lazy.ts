/**
 * The in-tab models' service as the worker starts with it: every call waits for the service's code (local-models.ts
 * and wllama's support check), which loads with the first listing, download or model load, not with the worker (a
 * first turn with any other provider never needs it).
 */
import type { LocalModels } from "./local-models.ts";

/** {@link LocalModels} with every call answered asynchronously (the service may not be loaded yet). */
export type LazyLocalModels = {
  [K in keyof LocalModels]: (...args: Parameters<LocalModels[K]>) => Promise<Awaited<ReturnType<LocalModels[K]>>>;
};

/** The service `make` gives, made on the first call; with no `make`, deeptab's own over `fetchImpl`. */
export function lazyLocalModels(fetchImpl?: typeof fetch, make?: () => LocalModels): LazyLocalModels {
  let made: Promise<LocalModels> | undefined;
  const real = () => (made ??= make ? Promise.resolve(make()) : import("./local-models.ts").then((m) => m.createLocalModels(fetchImpl)));
  return {
    list: async () => (await real()).list(),
    download: async (source, onProgress) => (await real()).download(source, onProgress),
    cancel: async (id) => (await real()).cancel(id),
    delete: async (id) => (await real()).delete(id),
    useFiles: async (files) => (await real()).useFiles(files),
    engine: async (id, contextTokens, onProgress) => (await real()).engine(id, contextTokens, onProgress),
  };
}
