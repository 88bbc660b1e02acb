/**
 * A Vite plugin (build only) that gives the app's bundles, the agent worker's included, LangSmith's client as a
 * no-op (./client.ts says why): any import of `langsmith/lib/client.mjs` or `langsmith/client.mjs` from inside the `langsmith` package
 * resolves to it. Everything else of LangSmith (RunTree, its constants) is the real package. Node code (tests,
 * scripts, the server path) keeps the real client.
 */
import { fileURLToPath } from "node:url";
import type { Plugin } from "vite";

const STUB = fileURLToPath(new URL("./client.ts", import.meta.url));
const IN_LANGSMITH = /[\\/]node_modules[\\/]langsmith[\\/]/;
/**
 * Its tracing client (`lib/client.mjs`; `dist/client.js` in LangSmith 0.9) and the API client (`client.mjs` or
 * `client.js`, re-exported by the package root).
 */
const CLIENT = /[\\/]node_modules[\\/]langsmith[\\/]((lib|dist)[\\/])?client\.m?js$/;

export function langsmithOff(): Plugin {
  return {
    name: "deeptab:langsmith-off",
    apply: "build",
    enforce: "pre",
    async resolveId(source, importer, options) {
      if (!importer || !IN_LANGSMITH.test(importer) || !/client\.m?js$/.test(source)) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return resolved && CLIENT.test(resolved.id) ? STUB : null;
    },
  };
}
