/**
 * A wait that a run's signal ends early (rejecting with the signal's reason). The listener goes when the wait ends,
 * so a long stream of waits does not pile listeners on one signal. Scripted and replayed models pace their streams
 * with it.
 */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason ?? new Error("Aborted"));
    if (!(ms > 0) || !Number.isFinite(ms)) return resolve();
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason ?? new Error("Aborted"));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
