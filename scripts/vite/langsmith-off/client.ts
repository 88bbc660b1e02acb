/**
 * LangSmith's clients, as the app's bundles get them (scripts/vite/langsmith-off/plugin.ts puts this file in place of
 * `langsmith/lib/client.mjs`, the tracing `Client`, and `langsmith/client.mjs`, the API client `Langsmith`).
 * @langchain/core imports LangSmith for tracing, which the tab never does: no environment turns it on in a browser,
 * and its endpoint is a third party the person did not choose. The real clients are ~270 KiB of the agent worker's
 * startup JS (47 KiB gzip); these send nothing. @langchain/core still builds a `RunTree` (with `tracingEnabled:
 * false`) around every runnable, which creates a client and may ask it to post or patch runs: every method is an
 * async no-op.
 */
export class Client {
  constructor() {
    // Any method LangSmith's RunTree or tracers might call resolves to nothing: no request ever leaves from here.
    return new Proxy(this, {
      get: (target, prop, receiver) => (prop in target ? Reflect.get(target, prop, receiver) : () => Promise.resolve(undefined)),
    });
  }
}

/** The package's API client (its root re-exports it as the default): nothing in the tab calls it. */
export class Langsmith extends Client {}
