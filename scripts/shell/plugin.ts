/**
 * The Vite plugin for static hosting (build only; `vite dev` and vitest never
 * see it): writes the Content-Security-Policy and referrer `<meta>` tags into
 * index.html, adds the external register-sw.js script (no inline script),
 * and after the build writes dist/sw.js with the list of every file in dist/
 * (index.html, JS, CSS, wasm, …; no source maps) and the build hash.
 * Works for any `base` ("./" or a sub-path such as "/deeptab/"): sw.js sits
 * at the root of dist/, so its scope is the app's folder and the precached
 * paths are relative to it.
 */
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "rolldown";
import type { HtmlTagDescriptor, Plugin, ResolvedConfig } from "vite";
import { cspContent } from "./csp.ts";
import { SW_FILE } from "./precache.ts";
import { stampShell } from "./stamp.ts";

/** The registration script's file name in dist/. */
export const REGISTER_FILE = "register-sw.js";

const here = fileURLToPath(new URL(".", import.meta.url));

/** One TypeScript entry bundled into a classic script (an IIFE: service workers and head scripts are not modules here). */
async function bundleClassic(entry: string): Promise<string> {
  const out = await build({
    input: resolve(here, entry),
    write: false,
    platform: "browser",
    logLevel: "warn",
    output: { format: "iife", minify: false },
  });
  const chunk = out.output[0];
  return chunk.code;
}

/**
 * The page with the CSP and referrer-policy meta tags right after its
 * `<meta charset>` (a CSP meta tag only governs what follows it, so it must
 * come before every script and stylesheet).
 */
export function withSecurityMeta(html: string): string {
  const charset = /<meta\s+charset=[^>]*>/i.exec(html);
  if (!charset) throw new Error("index.html has no <meta charset> to put the Content-Security-Policy after.");
  const end = charset.index + charset[0].length;
  const meta =
    `\n    <meta http-equiv="Content-Security-Policy" content="${cspContent()}" />` +
    `\n    <meta name="referrer" content="no-referrer" />`;
  return html.slice(0, end) + meta + html.slice(end);
}

export function appShell(): Plugin {
  let config: ResolvedConfig;
  let worker: Promise<string>;
  let register: Promise<string>;
  return {
    name: "deeptab:app-shell",
    apply: "build",
    configResolved(resolved) {
      config = resolved;
    },
    buildStart() {
      worker = bundleClassic("sw.ts");
      register = bundleClassic("register.ts");
    },
    transformIndexHtml: {
      order: "post",
      handler: (html): { html: string; tags: HtmlTagDescriptor[] } => ({
        html: withSecurityMeta(html),
        tags: [{ tag: "script", attrs: { src: `${config.base}${REGISTER_FILE}` }, injectTo: "head" }],
      }),
    },
    async generateBundle() {
      this.emitFile({ type: "asset", fileName: REGISTER_FILE, source: await register });
    },
    async writeBundle(options) {
      const outDir = options.dir ?? resolve(config.root, config.build.outDir);
      const { files, bytes, version } = await stampShell(outDir, await worker);
      config.logger.info(`app shell: ${SW_FILE} precaches ${files} files, ${(bytes / 1024).toFixed(1)} KiB (build ${version})`);
    },
  };
}
