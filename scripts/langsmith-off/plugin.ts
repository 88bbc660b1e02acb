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
/** Its tracing client (`lib/client.mjs`) and the API client under it (`client.mjs`, re-exported by the package root). */
const CLIENT = /[\\/]node_modules[\\/]langsmith[\\/](lib[\\/])?client\.mjs$/;

export function langsmithOff(): Plugin {
  return {
    name: "deeptab:langsmith-off",
    apply: "build",
    enforce: "pre",
    async resolveId(source, importer, options) {
      if (!importer || !IN_LANGSMITH.test(importer) || !source.endsWith("client.mjs")) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return resolved && CLIENT.test(resolved.id) ? STUB : null;
    },
  };
}
