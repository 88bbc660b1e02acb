/**
 * Tells a connection that dropped after the provider answered from one that
 * never got an answer. Both reach a client as a bare network error
 * (Chromium: "TypeError: network error"), but only the second can mean the
 * endpoint refuses browsers (CORS) or is not there: a server that sent
 * `200 OK` and half an answer is reachable. The fetch this wraps turns a
 * response body that fails mid-way into a {@link ConnectionDroppedError},
 * which the provider clients pass on as they got it (and provider-retry
 * classifies as `dropped`). An abort stays an abort.
 */

/** A response body that failed after the server had answered (its HTTP status is kept). */
class ConnectionDroppedError extends Error {
  override readonly name = "ConnectionDroppedError";
  readonly httpStatus: number;
  constructor(host: string, httpStatus: number, cause: unknown) {
    super(`The connection to ${host} dropped after it had answered (HTTP ${httpStatus}).`, { cause });
    this.httpStatus = httpStatus;
  }
}

function hostOf(input: RequestInfo | URL): string {
  try {
    return new URL(input instanceof Request ? input.url : String(input), globalThis.location?.href).host;
  } catch {
    return "the server";
  }
}

const isAbort = (err: unknown) => err instanceof Error && (err.name === "AbortError" || err.name === "TimeoutError");

/** `base` with response bodies whose failure mid-way is a ConnectionDroppedError. */
export function watchDrops(base: typeof fetch): typeof fetch {
  return async (input, init) => {
    const response = await base(input, init);
    if (!response.body) return response;
    const reader = response.body.getReader();
    const host = hostOf(input);
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        let next: ReadableStreamReadResult<Uint8Array>;
        try {
          next = await reader.read();
        } catch (err) {
          if (isAbort(err) || init?.signal?.aborted) throw err;
          throw new ConnectionDroppedError(host, response.status, err);
        }
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
      cancel: (reason) => reader.cancel(reason),
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}
