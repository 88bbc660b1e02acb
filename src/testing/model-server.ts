/**
 * A loopback HTTP server for browser tests of model downloads (Node only):
 * serves files with HEAD and Range support, CORS and CORP headers (the test
 * page is cross-origin isolated), optionally slowly (to cancel mid-way), and
 * counts the requests it answers. A "claimed" file has only a size: HEAD and
 * the headers of a GET say it (e.g. over 2 GB) and a GET then drops the
 * connection, so a client that would download it fails loudly.
 *
 *   GET|HEAD /files/<name>         the file
 *   GET|HEAD /slow/files/<name>    the same, 16 KB every 25 ms
 *   GET|HEAD /nohead/files/<name>  the same, but HEAD answers 405 (a host that tells the size only on GET)
 *   GET      /stats                { "<METHOD> <path> <range>": count }
 *   POST     /reset                clears the counts
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface ModelServer {
  url: string;
  close(): Promise<void>;
}

/** `files`: name → bytes; `claimed`: name → the size a file says it has (nothing is sent). */
export async function startModelServer(files: Record<string, Uint8Array>, claimed: Record<string, number> = {}): Promise<ModelServer> {
  const counts = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const headers = {
      "access-control-allow-origin": "*",
      "access-control-allow-headers": "range",
      "access-control-expose-headers": "content-length, content-range, accept-ranges",
      "cross-origin-resource-policy": "cross-origin",
    };
    if (req.method === "OPTIONS") return void res.writeHead(204, headers).end();
    const url = new URL(req.url ?? "/", "http://x");
    if (url.pathname === "/stats")
      return void res.writeHead(200, { ...headers, "content-type": "application/json" }).end(JSON.stringify(Object.fromEntries(counts)));
    if (url.pathname === "/reset") {
      counts.clear();
      return void res.writeHead(204, headers).end();
    }
    const slow = url.pathname.startsWith("/slow/");
    const name = url.pathname.replace(/^\/(slow\/|nohead\/)?files\//, "");
    const body = files[name];
    const range = req.headers.range ?? "";
    const key = `${req.method} ${url.pathname} ${range}`.trim();
    counts.set(key, (counts.get(key) ?? 0) + 1);
    if (req.method === "HEAD" && url.pathname.startsWith("/nohead/")) return void res.writeHead(405, headers).end();
    const size = claimed[name];
    if (size !== undefined) {
      res.writeHead(200, {
        ...headers,
        "accept-ranges": "bytes",
        "content-type": "application/octet-stream",
        "content-length": String(size),
      });
      if (req.method === "HEAD") return void res.end();
      res.flushHeaders();
      return void setTimeout(() => res.destroy(), 20);
    }
    if (!body) return void res.writeHead(404, headers).end();
    const m = /^bytes=(\d+)-$/.exec(range);
    const start = m ? Number(m[1]) : 0;
    if (start >= body.length && m) return void res.writeHead(416, { ...headers, "content-range": `bytes */${body.length}` }).end();
    const part = body.subarray(start);
    const status = m ? 206 : 200;
    res.writeHead(status, {
      ...headers,
      "accept-ranges": "bytes",
      "content-type": "application/octet-stream",
      "content-length": String(part.length),
      ...(m ? { "content-range": `bytes ${start}-${body.length - 1}/${body.length}` } : {}),
    });
    if (req.method === "HEAD") return void res.end();
    if (!slow) return void res.end(Buffer.from(part));
    let at = 0;
    const tick = setInterval(() => {
      if (res.destroyed) return clearInterval(tick);
      res.write(Buffer.from(part.subarray(at, at + 16_384)));
      at += 16_384;
      if (at >= part.length) {
        clearInterval(tick);
        res.end();
      }
    }, 25);
    res.on("close", () => clearInterval(tick));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
