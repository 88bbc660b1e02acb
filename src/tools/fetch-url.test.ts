import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRequestLog } from "../worker/request-log.ts";
import { runTool } from "../testing/runtime.ts";
import { BIG_PAGE_BYTES, startWebPagesServer, type WebPagesServer } from "../testing/web-pages.ts";
import { fetchPage } from "./fetch-page.ts";
import { createFetchUrlTool, FETCH_URL_TOOL_NAME } from "./fetch-url.ts";
import { deepPage } from "../testing/web-page-bodies.ts";
import { htmlToMarkdown, MAX_DEPTH } from "./html-markdown.ts";

let web: WebPagesServer;
beforeAll(async () => {
  web = await startWebPagesServer();
});
afterAll(async () => {
  await web.close();
});

const tool = createFetchUrlTool();
const call = async (url: string, args: Record<string, unknown> = {}) => {
  const out = await runTool(tool, { url, ...args });
  return { ...out, json: JSON.parse(out.text) as Record<string, unknown> };
};

describe("fetch_url", () => {
  it("keeps deepagents' name, arguments and result fields", async () => {
    expect(tool.name).toBe(FETCH_URL_TOOL_NAME);
    expect(tool.name).toBe("fetch_url");
    expect(Object.keys((tool.schema as { properties: object }).properties)).toEqual(["url", "timeout"]);
    const { json, status } = await call(`${web.url}/article.html`);
    expect(status).toBe("success");
    expect(json).toMatchObject({ success: true, url: `${web.url}/article.html`, status_code: 200 });
    expect(json.content_length).toBe((json.markdown_content as string).length);
  });

  it("turns an HTML page into Markdown: the article, absolute links, code; no scripts, styles or javascript: links", async () => {
    const { json } = await call(`${web.url}/article.html`);
    const md = json.markdown_content as string;
    expect(json.title).toBe("Tide tables | Harbour notes");
    expect(md).toContain("## Reading a table");
    expect(md).toContain("The harbour has two high tides a day.");
    expect(md).toContain(`[tables for 2026](${web.url}/tides/2026)`);
    expect(md).toMatch(/- +Height in metres/);
    expect(md).toContain("```\n07:14  4.2 m\n19:40  4.4 m\n```");
    expect(md).not.toMatch(/alert|tracking|color: red|javascript:/);
  });

  it("returns text, Markdown and JSON as they are, decoded by their charset", async () => {
    expect((await call(`${web.url}/notes.md`)).json.markdown_content).toBe("# Notes\n\n- one\n- two\n");
    expect(JSON.parse((await call(`${web.url}/data.json`)).json.markdown_content as string)).toEqual({ tides: [4.2, 4.4], unit: "m" });
    expect((await call(`${web.url}/plain.txt`)).json.markdown_content).toBe("café");
  });

  it("refuses binary types clearly, labelled or not", async () => {
    const png = await call(`${web.url}/image.png`);
    expect(png.status).toBe("error");
    expect(png.json.error).toBe(
      `Fetch URL error: ${web.url}/image.png is image/png, not text: fetch_url reads HTML, text, Markdown and JSON only.`,
    );
    const bin = await call(`${web.url}/unlabelled.bin`);
    expect(bin.status).toBe("error");
    expect(bin.json.error).toContain("is binary data, not text");
  });

  it("follows redirects to the page, and names a redirect loop as one", async () => {
    const chain = await call(`${web.url}/chain/3`);
    expect(chain.json).toMatchObject({ success: true, url: `${web.url}/article.html` });
    const loop = await call(`${web.url}/loop/a`);
    expect(loop.status).toBe("error");
    expect(loop.json).toMatchObject({ success: false, url: `${web.url}/loop/a` });
    expect(loop.json.error).toMatch(/^Fetch URL error: .*redirects in a loop \(.*\/loop\/b → .*\/loop\/a, visited before\)/);
    const long = await call(`${web.url}/chain/12`);
    expect(long.json.error).toContain("redirected more than 10 times");
  });

  it("does not follow a redirect to another host (loopback included): it names the new URL for a call of its own", async () => {
    const seen: string[] = [];
    const logged = createFetchUrlTool({ fetch: (input, init) => (seen.push(String(input)), fetch(input, init)) });
    const away = `${web.url}/away?to=${encodeURIComponent("http://localhost:9/secret")}`;
    const out = await runTool(logged, { url: away });
    expect(out.status).toBe("error");
    expect(JSON.parse(out.text).error).toBe(
      `Fetch URL error: ${away} redirects to another host: http://localhost:9/secret. fetch_url does not follow a redirect ` +
        "to another host by itself; to read that page, call fetch_url with url http://localhost:9/secret.",
    );
    // Refused before the request: the other host was never contacted.
    expect(seen).toEqual([away]);
    // The same host on the same port is followed as before.
    const same = await call(`${web.url}/away?to=${encodeURIComponent(`${web.url}/article.html`)}`);
    expect(same.json).toMatchObject({ success: true, url: `${web.url}/article.html` });
  });

  it("reads at most 2 MB of a 50 MB page, says it was cut, and offloads the Markdown whole to /large_tool_results/", async () => {
    const out = await runTool(tool, { url: `${web.url}/big.html` });
    const json = JSON.parse(out.text) as Record<string, unknown>;
    expect(out.status).toBe("success");
    expect(json.note).toBe("The page is larger than 2,097,152 bytes: only its beginning was read.");
    // The stream was cancelled: the host did not get to send the page.
    await expect.poll(() => web.bigBytesSent(), { timeout: 30_000 }).toBeLessThan(BIG_PAGE_BYTES / 2);
    const md = json.markdown_content as string;
    expect(md).toContain(
      "Tool result too large, the result of this tool call call_test was saved in the filesystem at this path: " +
        "/large_tool_results/call_test.md",
    );
    const saved = out.files["/large_tool_results/call_test.md"];
    expect(saved?.content.length).toBe(json.content_length);
    expect(json.content_length).toBeGreaterThan(1_500_000);
    expect(out.text.length).toBeLessThan(80_000);
  }, 120_000);

  it("gives the host's HTTP error, an unreachable host and a bad URL as tool errors", async () => {
    expect((await call(`${web.url}/status/404`)).json.error).toBe(`Fetch URL error: ${web.url}/status/404 answered HTTP 404 Not Found.`);
    const closed = await call("http://127.0.0.1:9/x");
    expect(closed.status).toBe("error");
    expect(closed.json.error).toMatch(/^Fetch URL error: 127\.0\.0\.1:9 could not be reached/);
    expect((await call("file:///etc/passwd")).json.error).toBe(
      "Fetch URL error: fetch_url reads http:// and https:// URLs only, not file:",
    );
    expect((await call("not a url")).json.error).toContain("is not a URL");
  });

  it("a page nested 10,000 deep gives its text through fetch_url, not a stack overflow", async () => {
    const { json, status } = await call(`${web.url}/deep/10000.html`);
    expect(status).toBe("success");
    expect(json.markdown_content).toMatch(/^L\d+ L\d+ /);
    expect(json.markdown_content).toMatch(/L9998 L9999$/);
  }, 60_000);

  it("stops at the timeout it is given", async () => {
    const out = await call(`${web.url}/hang`, { timeout: 1 });
    expect(out.status).toBe("error");
    expect(out.json.error).toMatch(/did not (answer|send the whole page) within 1 s/);
  });

  it("sends every request through the fetch it is given, without credentials: each redirect's host is in the request log", async () => {
    const seen: RequestInit[] = [];
    const log = createRequestLog(500, (input, init) => {
      seen.push(init ?? {});
      return fetch(input, init);
    });
    const logged = createFetchUrlTool({ fetch: log.fetch });
    await runTool(logged, { url: `${web.url}/chain/2` });
    expect(log.entries().map((e) => `${e.method} ${e.path} ${e.status}`)).toEqual([
      "GET /chain/2 302",
      "GET /chain/1 302",
      "GET /chain/0 302",
      "GET /article.html 200",
    ]);
    expect(seen.every((init) => init.credentials === "omit")).toBe(true);
  });
});

describe("fetchPage", () => {
  it("reads a page without CORS headers where CORS does not apply (Node)", async () => {
    const page = await fetchPage(`${web.url}/nocors/article.html`);
    expect(page.ok && page.value.text).toContain("Tide tables");
  });
});

describe("htmlToMarkdown", () => {
  it.each([2_000, 10_000])(
    "a page nested %i deep gives its text, in order, not a stack overflow",
    (depth) => {
      const started = performance.now();
      const { markdown, title } = htmlToMarkdown(deepPage(depth), "https://example.test/");
      expect(title).toBe("Deep");
      // Every level's text, in order, to the deepest; Readability may take the text-heavy lower part as the article.
      const words = markdown.split(/\s+/).filter(Boolean);
      const from = depth - words.length;
      expect(from).toBeLessThanOrEqual(MAX_DEPTH);
      expect(words).toEqual(Array.from({ length: words.length }, (_, i) => `L${from + i}`));
      // Readability scored a page this deep for minutes before the nesting was bounded.
      expect(performance.now() - started).toBeLessThan(20_000);
    },
    60_000,
  );

  it("keeps the Markdown of everything above the depth bound: a heading and a link just above it stay", () => {
    const above = "<div>".repeat(MAX_DEPTH - 3);
    const html = `<html><body>${above}<h2>Near</h2><p><a href="/x">link</a></p>${"</div>".repeat(MAX_DEPTH - 3)}</body></html>`;
    expect(htmlToMarkdown(html, "https://example.test/").markdown).toBe("## Near\n\n[link](https://example.test/x)");
  });

  it("keeps a page that is not an article whole", () => {
    const { markdown, title } = htmlToMarkdown("<html><body><p>Short <b>note</b>.</p></body></html>", "https://example.test/");
    expect(title).toBe("");
    expect(markdown).toBe("Short **note**.");
  });
});
