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
import { appShell as shellOf } from "../../bundle-size.mjs";
import { stampShell } from "./stamp.ts";

/** The registration script's file name in dist/. */
export const REGISTER_FILE = "register-sw.js";

/** The build input that creates the agent worker (src/page/boot.ts, imported by nothing but main.ts). */
export const BOOT_ENTRY = "boot";

/**
 * The page with the boot entry's script first after its security meta tags: module scripts run in document order,
 * and this one (a few hundred bytes, no imports, `async`) runs as soon as it is fetched, while the app's own script still
 * waits for its whole module graph; the app imports the same file, so the worker is created once.
 */
export function withBootScript(html: string, src: string): string {
  const referrer = /<meta\s+name="referrer"[^>]*>/i.exec(html);
  if (!referrer) throw new Error("index.html has no referrer meta tag to put the boot script after (withSecurityMeta first).");
  const end = referrer.index + referrer[0].length;
  return `${html.slice(0, end)}\n    <script type="module" async crossorigin src="${src}"></script>${html.slice(end)}`;
}

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
      handler: (html, ctx): { html: string; tags: HtmlTagDescriptor[] } => {
        const secured = withSecurityMeta(html);
        const boot = Object.values(ctx.bundle ?? {}).find((c) => c.type === "chunk" && c.isEntry && c.name === BOOT_ENTRY);
        const isApp = ctx.filename.endsWith("index.html");
        if (isApp && !boot) throw new Error(`The build has no "${BOOT_ENTRY}" entry (vite.config.ts input) for index.html.`);
        return {
          html: isApp && boot ? withBootScript(secured, `${config.base}${boot.fileName}`) : secured,
          tags: [{ tag: "script", attrs: { src: `${config.base}${REGISTER_FILE}` }, injectTo: "head" }],
        };
      },
    },
    async generateBundle() {
      this.emitFile({ type: "asset", fileName: REGISTER_FILE, source: await register });
    },
    async writeBundle(options) {
      const outDir = options.dir ?? resolve(config.root, config.build.outDir);
      const shell = new Set(shellOf(outDir).files.map((f) => f.file));
      const { files, bytes, version } = await stampShell(outDir, await worker, shell);
      config.logger.info(`app shell: ${SW_FILE} precaches ${files} files, ${(bytes / 1024).toFixed(1)} KiB (build ${version})`);
    },
  };
}
