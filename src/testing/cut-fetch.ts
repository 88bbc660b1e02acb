/**
 * A fetch that can be cut off as a reload cuts off a worker: after `cut()`,
 * no pending or later request settles and no response body yields another
 * byte, so the run that used it stops where it was, without any of the
 * clean-up a Stop or an error would do. Open a second worker API on the
 * same database afterwards: that is the reloaded page. Node tests.
 */
export interface CutFetch {
  fetch: typeof fetch;
  /** Freezes every request of this fetch, now and later. */
  cut(): void;
}

const never = <T>() => new Promise<T>(() => undefined);

export function cuttableFetch(base: typeof fetch = fetch): CutFetch {
  let cut = false;
  const frozen = (body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> => {
    const reader = body.getReader();
    return new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (cut) return never();
        const { done, value } = await reader.read();
        if (cut) return never();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      cancel: (reason) => reader.cancel(reason),
    });
  };
  const wrapped: typeof fetch = async (input, init) => {
    if (cut) return never();
    const response = await base(input, init);
    if (cut) return never();
    if (!response.body) return response;
    return new Response(frozen(response.body), { status: response.status, statusText: response.statusText, headers: response.headers });
  };
  return {
    fetch: wrapped,
    cut: () => {
      cut = true;
    },
  };
}
