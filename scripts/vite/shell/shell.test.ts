/**
 * The app shell's pure logic in Node (routing, isolation headers, the reload
 * rule, the precache list, the build hash, the CSP and where it goes), and
 * the plugin in a real `vite build` of a small fixture (a stylesheet, a module
 * worker that imports a .wasm) built under the absolute base /deeptab/, as
 * the Pages workflow builds: every URL of the result lies under the base.
 */
import { mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { build } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CSP_DIRECTIVES, cspContent } from "./csp.ts";
import {
  ISOLATION_HEADERS,
  installCacheMode,
  isolatedHeaders,
  isolationState,
  reloadDecision,
  routeOf,
  type RequestInfo,
} from "./isolation.ts";
import { BOOT_ENTRY, REGISTER_FILE, appShell, withBootScript, withSecurityMeta } from "./plugin.ts";
import { manifestOf, onDemandFiles, precacheFiles, shellVersion, swSource } from "./precache.ts";

const origin = "https://user.github.io";
const precached = new Set([`${origin}/deeptab/assets/index-abc.js`, `${origin}/deeptab/index.html`]);
const get = (url: string, extra: Partial<RequestInfo> = {}): RequestInfo => ({
  url,
  method: "GET",
  mode: "cors",
  cache: "default",
  ...extra,
});

describe("routeOf", () => {
  it("answers same-origin GETs: navigations network first, precached files cache first, the rest from the network", () => {
    expect(routeOf(get(`${origin}/deeptab/`, { mode: "navigate" }), origin, precached)).toBe("navigate");
    expect(routeOf(get(`${origin}/deeptab/?thread=1`, { mode: "navigate" }), origin, precached)).toBe("navigate");
    expect(routeOf(get(`${origin}/deeptab/assets/index-abc.js`), origin, precached)).toBe("precached");
    expect(routeOf(get(`${origin}/deeptab/assets/index-abc.js#x`), origin, precached)).toBe("precached");
    expect(routeOf(get(`${origin}/deeptab/models/tiny.gguf`), origin, precached)).toBe("network");
  });

  it("leaves other origins and non-GET requests to the browser, untouched", () => {
    expect(routeOf(get("https://api.openai.com/v1/chat/completions"), origin, precached)).toBe("pass");
    expect(routeOf(get("http://localhost:11434/api/chat"), origin, precached)).toBe("pass");
    expect(routeOf(get("https://huggingface.co/x/resolve/main/m.gguf"), origin, precached)).toBe("pass");
    expect(routeOf(get(`${origin}/deeptab/index.html`, { method: "POST" }), origin, precached)).toBe("pass");
    expect(routeOf(get(`${origin}/deeptab/index.html`, { method: "HEAD" }), origin, precached)).toBe("pass");
  });

  it("skips only-if-cached requests that are not same-origin mode (Chromium rejects answers to them)", () => {
    expect(routeOf(get(`${origin}/deeptab/index.html`, { cache: "only-if-cached", mode: "no-cors" }), origin, precached)).toBe("pass");
    expect(routeOf(get(`${origin}/deeptab/index.html`, { cache: "only-if-cached", mode: "same-origin" }), origin, precached)).toBe(
      "precached",
    );
  });
});

describe("isolatedHeaders", () => {
  it("sets COOP, COEP and CORP and keeps every other header", () => {
    const headers = isolatedHeaders(
      200,
      new Headers({ "Content-Type": "application/wasm", "Cross-Origin-Embedder-Policy": "unsafe-none" }),
    );
    expect(headers && Object.fromEntries(headers)).toEqual({
      "content-type": "application/wasm",
      "cross-origin-opener-policy": "same-origin",
      "cross-origin-embedder-policy": "require-corp",
      "cross-origin-resource-policy": "cross-origin",
    });
    expect(Object.keys(ISOLATION_HEADERS)).toHaveLength(3);
  });

  it("leaves an opaque response (status 0) alone", () => {
    expect(isolatedHeaders(0, new Headers())).toBeNull();
  });
});

describe("reloadDecision", () => {
  it("reloads once when not isolated and unused; offers it to the app once used; never when isolated or already reloaded", () => {
    expect(reloadDecision(false, false, false)).toBe("reload");
    expect(reloadDecision(false, false, true)).toBe("offer");
    for (const used of [false, true]) {
      expect(reloadDecision(false, true, used)).toBe("none");
      expect(reloadDecision(true, false, used)).toBe("none");
      expect(reloadDecision(true, true, used)).toBe("none");
    }
  });
});

describe("isolationState", () => {
  it("is reloading only for a reload; an offer or nothing to do has settled, isolated or not", () => {
    expect(isolationState(false, "reload")).toBe("reloading");
    expect(isolationState(false, "offer")).toBe("offered");
    expect(isolationState(false, "none")).toBe("not-isolated");
    expect(isolationState(true, "none")).toBe("isolated");
    // Every case reloadDecision gives, for every page: "reloading" exactly when it reloads.
    for (const isolated of [false, true])
      for (const reloaded of [false, true])
        for (const used of [false, true]) {
          const decision = reloadDecision(isolated, reloaded, used);
          expect(isolationState(isolated, decision) === "reloading").toBe(decision === "reload");
        }
  });
});

describe("precache list and build hash", () => {
  it("precaches the app shell only and caches every other file of the build at first use; never maps, dotfiles or sw.js", () => {
    const files = [
      "sw.js",
      "index.html",
      "assets\\wllama-x.wasm",
      "assets/index-a.js",
      "assets/index-a.js.map",
      "assets/later-b.js",
      ".nojekyll",
      "register-sw.js",
      "agents/index.json",
    ];
    const shell = new Set(["index.html", "assets/index-a.js"]);
    expect(precacheFiles(files, shell)).toEqual(["agents/index.json", "assets/index-a.js", "index.html", "register-sw.js"]);
    expect(onDemandFiles(files, shell)).toEqual(["assets/later-b.js", "assets/wllama-x.wasm"]);
  });

  it("never precaches Pyodide (about 13 MB), even named in the shell", () => {
    const files = ["index.html", "assets/pyodide/pyodide.asm.wasm", "assets\\pyodide\\python_stdlib.zip", "assets/shell.worker-a.js"];
    const shell = new Set(["index.html", "assets/pyodide/pyodide.asm.wasm"]);
    expect(precacheFiles(files, shell)).toEqual(["index.html"]);
    expect(onDemandFiles(files, shell)).toEqual([
      "assets/pyodide/pyodide.asm.wasm",
      "assets/pyodide/python_stdlib.zip",
      "assets/shell.worker-a.js",
    ]);
  });

  it("installs content-hashed assets through the HTTP cache (the page just loaded them), the rest past it", () => {
    expect(installCacheMode("assets/index--woHQfCa.js")).toBe("default");
    expect(installCacheMode("assets/agent.worker-L16WNd4x.js")).toBe("default");
    expect(installCacheMode("assets/index-Bjjj9A-J.css")).toBe("default");
    expect(installCacheMode("index.html")).toBe("reload");
    expect(installCacheMode("register-sw.js")).toBe("reload");
    expect(installCacheMode("agents/index.json")).toBe("reload");
    expect(installCacheMode("assets/pyodide/pyodide.asm.wasm")).toBe("reload");
  });

  it("hashes paths and bytes: stable under order, different for any change", () => {
    const a = { path: "index.html", content: new TextEncoder().encode("<html>") };
    const b = { path: "assets/a.js", content: new Uint8Array([1, 2, 3]) };
    expect(shellVersion([a, b])).toBe(shellVersion([b, a]));
    expect(shellVersion([a, b])).toMatch(/^[0-9a-f]{16}$/);
    expect(shellVersion([a, { ...b, content: new Uint8Array([1, 2, 4]) }])).not.toBe(shellVersion([a, b]));
    expect(shellVersion([a, { ...b, path: "assets/b.js" }])).not.toBe(shellVersion([a, b]));
  });

  it("writes the manifest as sw.js's first line and reads it back", () => {
    const manifest = { version: "0123456789abcdef", files: ["index.html", "assets/a.js"] };
    const text = swSource("(function() {})();\n", manifest);
    expect(text.split("\n")[0]).toBe(`const SHELL = ${JSON.stringify(manifest)};`);
    expect(manifestOf(text)).toEqual(manifest);
    expect(manifestOf("self.addEventListener('fetch', () => {});")).toBeUndefined();
  });
});

describe("the Content-Security-Policy", () => {
  it("allows scripts from the page's origin and wasm only: no inline, no eval, no third party", () => {
    expect(CSP_DIRECTIVES["script-src"]).toEqual(["'self'", "'wasm-unsafe-eval'"]);
    expect(cspContent()).toBe(
      "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self' blob:; style-src 'self' 'unsafe-inline'; " +
        "img-src 'self' data: blob:; connect-src 'self' https: http://localhost:* http://127.0.0.1:* ws://localhost:*; " +
        "frame-src https://stackblitz.com https://*.stackblitz.com https://*.webcontainer.io https://*.webcontainer-api.io; " +
        "object-src 'none'; base-uri 'self'; form-action 'none'",
    );
  });

  it("lets WebContainer's runtime frame load: it is https://stackblitz.com/headless, a bare host no *. source covers", () => {
    // @webcontainer/api boots by framing its DEFAULT_EDITOR_ORIGIN (internal/constants.js); e2e/sandbox.spec.ts sees the request go out.
    expect(CSP_DIRECTIVES["frame-src"]).toContain("https://stackblitz.com");
  });

  it("goes right after <meta charset>, before anything else in the head", () => {
    const html = withSecurityMeta('<html><head><meta charset="UTF-8" /><script src="./a.js"></script></head></html>');
    expect(html.indexOf("Content-Security-Policy")).toBeGreaterThan(html.indexOf("charset"));
    expect(html.indexOf("Content-Security-Policy")).toBeLessThan(html.indexOf("<script"));
    expect(html).toContain('<meta name="referrer" content="no-referrer" />');
    expect(() => withSecurityMeta("<html><head></head></html>")).toThrow(/meta charset/);
  });

  it("puts the boot script first after the security meta tags, and refuses a page without them", () => {
    const html = withBootScript(
      withSecurityMeta('<html><head><meta charset="UTF-8" /><script src="./a.js"></script></head></html>'),
      "./b.js",
    );
    expect(html.indexOf('<script type="module" async crossorigin src="./b.js"></script>')).toBeGreaterThan(html.indexOf("referrer"));
    expect(html.indexOf("./b.js")).toBeLessThan(html.indexOf("./a.js"));
    expect(() => withBootScript('<html><head><meta charset="UTF-8" /></head></html>', "./b.js")).toThrow(/referrer/);
  });
});

describe("appShell in a real vite build under /deeptab/", () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "deeptab-shell-"));
    await writeFile(
      join(root, "index.html"),
      '<!doctype html><html><head><meta charset="UTF-8" /></head><body><script type="module" src="./main.js"></script></body></html>',
    );
    await writeFile(join(root, "main.js"), 'import "./style.css";\nimport { worker } from "./boot.js";\nconsole.log(worker);\n');
    await writeFile(
      join(root, "boot.js"),
      'export const worker = new Worker(new URL("./work.js", import.meta.url), { type: "module" });\n',
    );
    await writeFile(join(root, "style.css"), "body { margin: 0; }\n");
    await writeFile(join(root, "work.js"), 'import wasm from "./tiny.wasm?url";\nfetch(wasm);\n');
    await writeFile(join(root, "tiny.wasm"), new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]));
    await build({
      root,
      configFile: false,
      logLevel: "silent",
      base: "/deeptab/",
      plugins: [appShell()],
      worker: { format: "es" },
      build: {
        outDir: "dist",
        assetsInlineLimit: 0,
        sourcemap: true,
        rolldownOptions: { input: { index: join(root, "index.html"), [BOOT_ENTRY]: join(root, "boot.js") } },
      },
    });
  }, 30_000);
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it("precaches the page, its chunks and stylesheet (no maps), leaves the worker and its wasm to first use, relative to sw", async () => {
    const manifest = manifestOf(await readFile(join(root, "dist", "sw.js"), "utf8"));
    expect(manifest?.version).toMatch(/^[0-9a-f]{16}$/);
    const files = manifest?.files ?? [];
    const onDemand = manifest?.onDemand ?? [];
    expect(files).toContain("index.html");
    expect(files).toContain(REGISTER_FILE);
    expect(files.filter((f) => /^assets\/index-[\w-]+\.js$/.test(f))).toHaveLength(1);
    expect(files.filter((f) => /^assets\/index-[\w-]+\.css$/.test(f))).toHaveLength(1);
    expect(files.filter((f) => new RegExp(`^assets/${BOOT_ENTRY}-[\\w-]+\\.js$`).test(f))).toHaveLength(1);
    // Not an agent worker (assets/agent.worker-*.js), so not in the shell: cached when first fetched.
    expect(onDemand.filter((f) => /^assets\/work-[\w-]+\.js$/.test(f))).toHaveLength(1);
    expect(onDemand.filter((f) => /^assets\/tiny-[\w-]+\.wasm$/.test(f))).toHaveLength(1);
    expect([...files, ...onDemand].some((f) => f.endsWith(".map") || f === "sw.js" || f.startsWith("/"))).toBe(false);
  });

  it("writes the CSP first and registers the worker from an external script under the base", async () => {
    const html = await readFile(join(root, "dist", "index.html"), "utf8");
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="${cspContent()}" />`);
    expect(html).toContain(`<script src="/deeptab/${REGISTER_FILE}"></script>`);
    expect(html.indexOf("Content-Security-Policy")).toBeLessThan(html.indexOf("<script"));
    expect(html.match(/<script\b[^>]*>/g)?.every((tag) => /\ssrc="\/deeptab\//.test(tag))).toBe(true);
    // The boot entry (the worker's creation) is the page's first script, before the app's own.
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts[0]).toMatch(new RegExp(`src="/deeptab/assets/${BOOT_ENTRY}-[\\w-]+\\.js"`));
    expect(scripts.findIndex((tag) => /assets\/index-/.test(tag))).toBeGreaterThan(0);
    const register = await readFile(join(root, "dist", REGISTER_FILE), "utf8");
    expect(register).toContain('new URL("sw.js"');
  });

  it("puts every URL under the base: the page's src and href, sw.js and its scope, the precache list, the chunks' asset URLs", async () => {
    const dist = join(root, "dist");
    const site = `${origin}/deeptab/`;
    const html = await readFile(join(dist, "index.html"), "utf8");
    const refs = [...html.matchAll(/\s(?:src|href)="([^"]*)"/g)].map((m) => m[1]!);
    expect(refs.some((r) => r.endsWith(".css"))).toBe(true);
    expect(refs.filter((r) => !r.startsWith("/deeptab/"))).toEqual([]);
    // register-sw.js registers sw.js next to itself: /deeptab/sw.js, whose default scope is /deeptab/.
    const swUrl = new URL("sw.js", new URL(`${REGISTER_FILE}`, site));
    expect(swUrl.pathname).toBe("/deeptab/sw.js");
    expect(new URL("./", swUrl).pathname).toBe("/deeptab/");
    // The precache and first-use lists, resolved as the worker resolves them, are exactly the build's files (no maps, not
    // sw.js), all under the base.
    const manifest = manifestOf(await readFile(join(dist, "sw.js"), "utf8"))!;
    const listed = [...manifest.files, ...(manifest.onDemand ?? [])];
    const urls = listed.map((f) => new URL(f, swUrl).pathname);
    expect(urls.filter((u) => !u.startsWith("/deeptab/"))).toEqual([]);
    const built = (await readdir(dist, { recursive: true, withFileTypes: true }))
      .filter((e) => e.isFile())
      .map((e) => relative(dist, join(e.parentPath, e.name)).replaceAll("\\", "/"))
      .filter((f) => !f.endsWith(".map") && f !== "sw.js");
    expect(listed.sort()).toEqual(built.sort());
    // The chunks load the worker and the wasm by absolute URLs under the base, each one listed.
    const chunks = await Promise.all(built.filter((f) => f.endsWith(".js")).map((f) => readFile(join(dist, f), "utf8")));
    const assetUrls = chunks.flatMap((code) => [...code.matchAll(/["'`](\/[^"'`]*assets\/[^"'`]+)["'`]/g)].map((m) => m[1]!));
    expect(assetUrls.some((u) => /\/work-[\w-]+\.js$/.test(u))).toBe(true);
    expect(assetUrls.some((u) => /\/tiny-[\w-]+\.wasm$/.test(u))).toBe(true);
    for (const u of assetUrls) expect(urls, u).toContain(u);
  });
});
