/**
 * A plain static file server for the built app, standing in for GitHub Pages
 * in e2e/hosting.spec.ts: serves a folder (dist/) under a sub-path such as
 * /deeptab/, with real content types (application/wasm included) and, unless
 * asked, no COOP/COEP headers. Responses are `Cache-Control: no-store`, so a
 * page that loads with the network off was served by the service worker, not
 * by the HTTP cache. Every request is logged in `requests`. `setDown(true)`
 * plays a host that has gone away: requests are still logged, then their
 * connection is dropped unanswered (a network failure to the browser).
 * `hold(path)` keeps the requests for one path waiting until released (e.g.
 * the service worker's script, so its install waits on the test). `compress`
 * and `cacheControl` play GitHub Pages more closely (gzip for text, a short
 * max-age), and `bytesSent()` counts what went on the wire, for a test that
 * weighs a visit.
 *
 * By hand: `node --import tsx scripts/static-server.ts [dist] [/deeptab/] [port]`.
 */
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { createGzip } from "node:zlib";
import { extname, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";

/** Content types by extension; anything else is application/octet-stream. */
const TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".map": "application/json",
  ".wasm": "application/wasm",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".txt": "text/plain; charset=utf-8",
};

export interface StaticServerOptions {
  /** The folder to serve. */
  readonly root: string;
  /** The URL path it is served under; starts and ends with "/". Default "/". */
  readonly base?: string;
  /** Extra headers on every response (e.g. COOP/COEP, to play a host that sends them). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Fixed answers by URL path (e.g. a stand-in "/deeptab/sw.js"), served instead of files. */
  readonly overrides?: Readonly<Record<string, { readonly type: string; readonly body: string }>>;
  /** 0 (the default): a free port. */
  readonly port?: number;
  /** Gzip text (HTML, JS, CSS, JSON, SVG, plain text) for a request that accepts it, as GitHub Pages does. Default off. */
  readonly compress?: boolean;
  /** The Cache-Control of files (default `no-store`; GitHub Pages sends `max-age=600`). */
  readonly cacheControl?: string;
}

/** The content types `compress` gzips. */
const COMPRESSED = /^(text\/|application\/json|image\/svg\+xml)/;

export interface StaticServer {
  /** The app's URL: origin + base. */
  readonly url: string;
  readonly origin: string;
  /** "GET /deeptab/assets/…" for every request received, in order. */
  readonly requests: string[];
  /** While down, every request is logged and its connection dropped without an answer. */
  setDown(down: boolean): void;
  /** Requests for `pathname` (e.g. "/deeptab/assets/x.wasm") wait, unanswered, until the returned function is called. */
  hold(pathname: string): () => void;
  /** Every byte written to the browser so far (status lines, headers and bodies, as sent: compressed where it was). */
  bytesSent(): number;
  close(): Promise<void>;
}

export async function startStaticServer(options: StaticServerOptions): Promise<StaticServer> {
  const root = resolve(options.root);
  const base = options.base ?? "/";
  if (!base.startsWith("/") || !base.endsWith("/")) throw new Error(`base must start and end with "/": ${base}`);
  const requests: string[] = [];
  let down = false;
  const held = new Map<string, Promise<void>>();

  const send = (res: ServerResponse, status: number, headers: Record<string, string>, body?: string) => {
    res.writeHead(status, { ...options.headers, "Cache-Control": "no-store", ...headers });
    res.end(body);
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? "GET";
    requests.push(`${method} ${req.url ?? ""}`);
    if (down) return void res.destroy();
    if (method !== "GET" && method !== "HEAD") return send(res, 405, { Allow: "GET, HEAD" });
    const pathname = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    await held.get(pathname);
    if (down) return void res.destroy();
    const override = options.overrides?.[pathname];
    if (override) return send(res, 200, { "Content-Type": override.type }, method === "HEAD" ? undefined : override.body);
    if (`${pathname}/` === base) return send(res, 301, { Location: base });
    if (!pathname.startsWith(base)) return send(res, 404, { "Content-Type": "text/plain" }, "not found");
    const rel = pathname.slice(base.length);
    let file = resolve(root, rel.endsWith("/") || rel === "" ? `${rel}index.html` : rel);
    if (file !== root && !file.startsWith(root + sep)) return send(res, 404, { "Content-Type": "text/plain" }, "not found");
    let info = await stat(file).catch(() => undefined);
    if (info?.isDirectory()) {
      file = resolve(file, "index.html");
      info = await stat(file).catch(() => undefined);
    }
    if (!info?.isFile()) return send(res, 404, { "Content-Type": "text/plain" }, "not found");
    const type = TYPES[extname(file)] ?? "application/octet-stream";
    const gzip = options.compress === true && COMPRESSED.test(type) && /\bgzip\b/.test(String(req.headers["accept-encoding"] ?? ""));
    res.writeHead(200, {
      ...options.headers,
      "Cache-Control": options.cacheControl ?? "no-store",
      "Content-Type": type,
      ...(gzip ? { "Content-Encoding": "gzip", Vary: "Accept-Encoding" } : { "Content-Length": String(info.size) }),
      "X-Content-Type-Options": "nosniff",
    });
    if (method === "HEAD") return void res.end();
    if (gzip) createReadStream(file).pipe(createGzip()).pipe(res);
    else createReadStream(file).pipe(res);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) send(res, 500, { "Content-Type": "text/plain" }, String(err));
      else res.destroy();
    });
  });
  const sockets = new Set<Socket>();
  server.on("connection", (socket) => sockets.add(socket));
  await new Promise<void>((ok, fail) => {
    server.once("error", fail);
    server.listen(options.port ?? 0, "127.0.0.1", ok);
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: origin + base,
    origin,
    requests,
    setDown: (value) => {
      down = value;
    },
    hold: (pathname) => {
      let release!: () => void;
      held.set(pathname, new Promise<void>((ok) => (release = ok)));
      return () => {
        held.delete(pathname);
        release();
      };
    },
    bytesSent: () => [...sockets].reduce((n, socket) => n + socket.bytesWritten, 0),
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [root = "dist", base = "/deeptab/", port = "4318"] = process.argv.slice(2);
  const server = await startStaticServer({ root, base, port: Number(port) });
  console.log(`serving ${resolve(root)} at ${server.url} (no COOP/COEP headers)`);
}
