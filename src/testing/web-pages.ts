/**
 * A loopback web host for `fetch_url` tests, in Node (tests in Node and Chromium use it alike, over HTTP). Every
 * answer sends `Cross-Origin-Resource-Policy: cross-origin` (a cross-origin-isolated page may make opaque requests
 * to it); all but `/nocors/*` send `Access-Control-Allow-Origin: *`.
 *
 *   GET /article.html        an HTML article (nav, script, relative links, code, a list)
 *   GET /nocors/article.html the same, without CORS
 *   GET /notes.md, /data.json, /plain.txt   text as it is
 *   GET /image.png           a PNG (binary); /unlabelled.bin: bytes with NULs and no Content-Type
 *   GET /big.html            50 MB of HTML, made as it is sent; GET /sent/big.html tells how many bytes went out
 *   GET /loop/a → /loop/b → /loop/a …       a redirect loop
 *   GET /chain/<n>           n redirects, then /article.html
 *   GET /away?to=<url>       a redirect to <url> (another host, for the redirect-host rule)
 *   GET /deep/<n>.html       a page nested n elements deep (deepPage); GET /flat.html: 1.95 MB of flat HTML (flatPage)
 *   GET /sent/flat.html      how many times /flat.html was sent whole
 *   GET /status/<code>       an empty answer with that status
 *   GET /hang                headers, then nothing
 */
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { deepPage, flatPage } from "./web-page-bodies.ts";

export interface WebPagesServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Bytes of /big.html sent so far (all requests). */
  bigBytesSent(): number;
  close(): Promise<void>;
}

/** Size of /big.html. */
export const BIG_PAGE_BYTES = 50 * 1024 * 1024;

const ARTICLE_HTML = `<!doctype html>
<html><head><title>Tide tables | Harbour notes</title><style>body { color: red }</style>
<script>document.write("tracking")</script></head>
<body>
<nav><a href="/">Home</a> <a href="/about">About</a></nav>
<article>
<h1>Tide tables</h1>
<p>The harbour has two high tides a day. ${"The spring tides come with the new and the full moon; neap tides fall between. ".repeat(8)}</p>
<p>See the <a href="/tides/2026">tables for 2026</a> and <a href="javascript:alert(1)">this</a>.</p>
<h2>Reading a table</h2>
<ul><li>Height in metres</li><li>Time in UTC</li></ul>
<pre><code>07:14  4.2 m
19:40  4.4 m</code></pre>
</article>
<footer>© Harbour notes</footer>
<script>alert("never in the Markdown")</script>
</body></html>`;

const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d4948445200000001000000010806000000" +
    "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082",
  "hex",
);

export async function startWebPagesServer(): Promise<WebPagesServer> {
  let bigSent = 0;
  const send = (res: ServerResponse, status: number, type: string | undefined, body: string | Buffer, cors = true) => {
    res.writeHead(status, {
      ...(type ? { "Content-Type": type } : {}),
      ...(cors ? { "Access-Control-Allow-Origin": "*" } : {}),
      "Cross-Origin-Resource-Policy": "cross-origin",
      "Cache-Control": "no-store",
    });
    res.end(body);
  };
  const redirect = (res: ServerResponse, to: string) => {
    res.writeHead(302, { Location: to, "Access-Control-Allow-Origin": "*", "Cross-Origin-Resource-Policy": "cross-origin" });
    res.end();
  };
  const flat = flatPage();
  let flatSent = 0;
  const server = createServer((req, res) => {
    // No keep-alive: a client reusing a socket the server is closing meanwhile fails (a race a loaded machine hits).
    res.setHeader("Connection", "close");
    const path = new URL(req.url ?? "/", "http://x").pathname;
    const chain = /^\/chain\/(\d+)$/.exec(path);
    const status = /^\/status\/(\d{3})$/.exec(path);
    const deep = /^\/deep\/(\d+)\.html$/.exec(path);
    if (path === "/article.html") return send(res, 200, "text/html; charset=utf-8", ARTICLE_HTML);
    if (path === "/nocors/article.html") return send(res, 200, "text/html; charset=utf-8", ARTICLE_HTML, false);
    if (path === "/notes.md") return send(res, 200, "text/markdown; charset=utf-8", "# Notes\n\n- one\n- two\n");
    if (path === "/data.json") return send(res, 200, "application/json", JSON.stringify({ tides: [4.2, 4.4], unit: "m" }));
    if (path === "/plain.txt") return send(res, 200, "text/plain; charset=iso-8859-1", Buffer.from("caf\xe9", "latin1"));
    if (path === "/image.png") return send(res, 200, "image/png", PNG);
    if (path === "/unlabelled.bin") return send(res, 200, undefined, Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 0, 0, 0x14, 0]));
    if (path === "/loop/a") return redirect(res, "/loop/b");
    if (path === "/loop/b") return redirect(res, "/loop/a");
    if (chain) return redirect(res, Number(chain[1]) > 0 ? `/chain/${Number(chain[1]) - 1}` : "/article.html");
    if (status) return send(res, Number(status[1]), "text/plain", "");
    if (path === "/away") return redirect(res, new URL(req.url ?? "/", "http://x").searchParams.get("to") ?? "/");
    if (deep) return send(res, 200, "text/html; charset=utf-8", deepPage(Math.min(100_000, Number(deep[1]))));
    if (path === "/flat.html") {
      res.once("finish", () => flatSent++);
      return send(res, 200, "text/html; charset=utf-8", flat);
    }
    if (path === "/sent/flat.html") return send(res, 200, "application/json", JSON.stringify({ count: flatSent }));
    if (path === "/sent/big.html") return send(res, 200, "application/json", JSON.stringify({ bytes: bigSent }));
    if (path === "/hang") {
      res.writeHead(200, { "Content-Type": "text/html", "Access-Control-Allow-Origin": "*" });
      res.write("<p>");
      return;
    }
    if (path === "/big.html") {
      res.writeHead(200, {
        "Content-Type": "text/html",
        "Content-Length": String(BIG_PAGE_BYTES),
        "Access-Control-Allow-Origin": "*",
        "Cross-Origin-Resource-Policy": "cross-origin",
      });
      const line = Buffer.from(`<p>${"Tide ".repeat(200)}</p>\n`);
      let left = BIG_PAGE_BYTES;
      const pump = () => {
        while (left > 0) {
          const chunk = left >= line.length ? line : line.subarray(0, left);
          left -= chunk.length;
          bigSent += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", pump);
        }
        res.end();
      };
      res.on("close", () => (left = 0));
      return pump();
    }
    send(res, 404, "text/plain", "not found");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    bigBytesSent: () => bigSent,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
