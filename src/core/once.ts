/**
 * A load done once and shared by every caller: the first call starts it, later calls get the same promise. A failed
 * load (a chunk that did not arrive) is not remembered: the next call tries again.
 */
export function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch((cause: unknown) => {
      loading = undefined;
      throw cause;
    });
    return loading;
  };
}
