/**
 * `fetch_url` in Chromium, against the loopback web host (web-pages.ts): where CORS applies. In the test page: a page
 * with CORS becomes Markdown, a host without CORS is named as blocking browser requests (with an MCP server as the
 * way on), a redirect loop and a 50 MB page are handled without buffering. Then in the real agent worker, as a run
 * uses it: asked about first, read once approved, its host in the worker's request log.
 */
import { describe, expect, inject, it, vi } from "vitest";
import type { MessageReply, ServerReply } from "../testing/provider-servers.ts";
import { runTool, testRuntime } from "../testing/runtime.ts";
import { deepPage, flatPage } from "../testing/web-page-bodies.ts";
import { serverScope } from "../testing/server-scope.ts";
import { WAIT } from "../testing/wait.ts";
import { messagesOf, pendingOf, workerPool } from "../testing/worker-pool.ts";
import { createFetchUrlTool } from "./fetch-url.ts";
import { convertHtml } from "./html-markdown-thread.ts";
import { htmlToMarkdown, MAX_DEPTH } from "./html-markdown.ts";

const web = inject("webPages");
const tool = createFetchUrlTool();
const call = async (url: string) => {
  const out = await runTool(tool, { url });
  return { ...out, json: JSON.parse(out.text) as Record<string, unknown> };
};

describe("fetch_url in Chromium", () => {
  it("reads a page that allows browser requests, as Markdown (linkedom, Readability, turndown in the browser)", async () => {
    const { json, status } = await call(`${web}/article.html`);
    expect(status).toBe("success");
    expect(json).toMatchObject({ success: true, url: `${web}/article.html`, status_code: 200, title: "Tide tables | Harbour notes" });
    expect(json.markdown_content).toContain(`[tables for 2026](${web}/tides/2026)`);
    expect(json.markdown_content).not.toContain("alert");
  });

  it("says that a host without CORS blocks browser requests, and suggests an MCP server (no proxy)", async () => {
    const { json, status } = await call(`${web}/nocors/article.html`);
    expect(status).toBe("error");
    expect(json.error).toMatch(/^Fetch URL error: 127\.0\.0\.1:\d+ blocks browser requests: it does not send Access-Control-Allow-Origin/);
    expect(json.error).toContain("no proxy: to read this page, use an MCP server that fetches pages (Settings → MCP servers)");
  });

  it("follows redirects the browser hides, and gives a redirect loop a clear error", async () => {
    expect((await call(`${web}/chain/3`)).json).toMatchObject({ success: true, url: `${web}/article.html` });
    const loop = await call(`${web}/loop/a`);
    expect(loop.status).toBe("error");
    expect(loop.json.error).toContain("redirected, and the browser could not follow: a redirect loop, too many redirects");
  });

  it("cuts a 50 MB page at 2 MiB while streaming, and refuses an image", async () => {
    const before = ((await (await fetch(`${web}/sent/big.html`)).json()) as { bytes: number }).bytes;
    const { json } = await call(`${web}/big.html`);
    expect(json.note).toBe("The page is larger than 2,097,152 bytes: only its beginning was read.");
    const sent = async () => ((await (await fetch(`${web}/sent/big.html`)).json()) as { bytes: number }).bytes - before;
    await expect.poll(sent, { timeout: 30_000 }).toBeLessThan(25 * 1024 * 1024);
    const png = await call(`${web}/image.png`);
    expect(png.json.error).toBe(
      `Fetch URL error: ${web}/image.png is image/png, not text: fetch_url reads HTML, text, Markdown and JSON only.`,
    );
  }, 120_000);
});

/** The longest gap between turns of this thread's event loop while `work` runs, ms. */
async function longestBlock<T>(work: () => Promise<T>): Promise<{ value: T; blockedMs: number }> {
  let last = performance.now();
  let blockedMs = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    blockedMs = Math.max(blockedMs, now - last);
    last = now;
  }, 5);
  try {
    const value = await work();
    blockedMs = Math.max(blockedMs, performance.now() - last);
    return { value, blockedMs };
  } finally {
    clearInterval(ticker);
  }
}

describe("HTML → Markdown off the caller's thread, in Chromium", () => {
  it.each([2_000, 10_000])(
    "a page nested %i deep gives its text, not a stack overflow (in-process and through fetch_url)",
    async (depth) => {
      const words = (markdown: string) => markdown.split(/\s+/).filter(Boolean);
      const direct = words(htmlToMarkdown(deepPage(depth), "https://example.test/").markdown);
      expect(direct.at(-1)).toBe(`L${depth - 1}`);
      expect(direct.length).toBeGreaterThanOrEqual(depth - MAX_DEPTH);
      const { json, status } = await call(`${web}/deep/${depth}.html`);
      expect(status).toBe("success");
      expect(words(json.markdown_content as string)).toEqual(direct);
    },
    120_000,
  );

  it("a flat 1.95 MB page is converted on a worker of its own: this thread is never blocked for long", async () => {
    const { value, blockedMs } = await longestBlock(() => call(`${web}/flat.html`));
    expect(value.status).toBe("success");
    expect(value.json.content_length).toBeGreaterThan(1_500_000);
    console.info(`flat 1.95 MB page: this thread blocked at most ${Math.round(blockedMs)} ms`);
    // In-process, the conversion held this thread for its whole length (4 to 9 s).
    expect(blockedMs).toBeLessThan(1_000);
  }, 120_000);

  it("Stop during the conversion of a flat 1.95 MB page ends the call within 1 s", async () => {
    const runtime = testRuntime({}, { name: "fetch_url" });
    const controller = new AbortController();
    runtime.config.signal = controller.signal;
    const logged: string[] = [];
    const fetchUrl = createFetchUrlTool({
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        logged.push(String(input));
        return response;
      },
    });
    const running = fetchUrl.run({ url: `${web}/flat.html` }, runtime);
    await vi.waitFor(() => expect(logged).toHaveLength(1), WAIT);
    // The download (2 MB over loopback) and the hand-over to the worker, then Stop mid-conversion.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const stopAt = performance.now();
    controller.abort();
    const out = await running;
    const tookMs = performance.now() - stopAt;
    console.info(`Stop during the conversion: the call ended ${Math.round(tookMs)} ms later`);
    expect(tookMs).toBeLessThan(1_000);
    expect(typeof out === "string" ? out : out.content).toContain("The run was stopped while the page was being converted to Markdown.");
  }, 120_000);

  it("a conversion over its time limit ends with an error the model can act on, and the next one runs", async () => {
    const slow = await convertHtml(flatPage(), "https://example.test/flat", { timeLimitMs: 200 });
    expect(slow).toMatchObject({ ok: false, error: { code: "timeout" } });
    if (!slow.ok)
      expect(slow.error.message).toMatch(
        /^Converting https:\/\/example\.test\/flat to Markdown took longer than 0\.2 s .*Try a smaller page/,
      );
    expect(await convertHtml("<p>next <b>one</b></p>", "https://example.test/")).toEqual({
      ok: true,
      value: { title: "", markdown: "next **one**" },
    });
  }, 60_000);

  it("refuses the answer of a redirect to another host, and names the new URL", async () => {
    const other = `${web.replace("127.0.0.1", "localhost")}/article.html`;
    const away = `${web}/away?to=${encodeURIComponent(other)}`;
    const { json, status } = await call(away);
    expect(status).toBe("error");
    expect(json.error).toBe(
      `Fetch URL error: ${away} redirects to another host: ${other}. fetch_url does not follow a redirect to another host ` +
        `by itself; to read that page, call fetch_url with url ${other}.`,
    );
  });
});

describe("fetch_url in the agent worker", () => {
  const { spawn } = workerPool(`deeptab-test-${crypto.randomUUID()}`);

  it("asks first, reads the page once approved, and lists the host in the request log", async () => {
    const url = `${web}/article.html`;
    const blocked = `${web}/nocors/article.html`;
    const server = serverScope(inject("providerServer"));
    const step = (toolResults: number, reply: MessageReply): ServerReply[] =>
      // Queued twice: under load Chromium may resend a request whose connection dropped (see parallel-approvals.ts).
      [
        { ...reply, when: { toolResults } },
        { ...reply, when: { toolResults } },
      ];
    await server.script([
      ...step(0, { toolCalls: [{ id: "f1", name: "fetch_url", args: { url } }] }),
      ...step(1, { toolCalls: [{ id: "f2", name: "fetch_url", args: { url: blocked } }] }),
      ...step(2, { text: "Two high tides a day." }),
    ]);
    const client = spawn();
    await client.setThreadModel("t-fetch", { provider: "openai-compatible", model: "m", baseUrl: server.baseUrl });
    const started = await client.run("t-fetch", { text: "tides?" });
    if (!started.ok) throw new Error(started.error.message);
    expect(await started.value.done).toMatchObject({ status: "interrupted" });
    expect((await pendingOf(client, "t-fetch"))?.actions[0]).toMatchObject({ name: "fetch_url", args: { url } });

    for (const id of ["f1", "f2"]) {
      const pending = await pendingOf(client, "t-fetch");
      expect(pending?.actions[0]?.name, id).toBe("fetch_url");
      const resumed = await client.resume("t-fetch", [{ type: "approve" }], undefined, pending!.id);
      if (!resumed.ok) throw new Error(resumed.error.message);
      await resumed.value.done;
    }
    const tools = (await messagesOf(client, "t-fetch")).filter((m) => m.role === "tool");
    expect(tools.map((m) => [m.name, m.status])).toEqual([
      ["fetch_url", "success"],
      ["fetch_url", "error"],
    ]);
    expect(JSON.parse(tools[0]!.content)).toMatchObject({ success: true, url, title: "Tide tables | Harbour notes" });
    expect(JSON.parse(tools[1]!.content).error).toContain("blocks browser requests");
    const log = await client.requestLog();
    const host = new URL(web).host;
    expect(log).toContainEqual(expect.objectContaining({ method: "GET", host, path: "/article.html", status: 200 }));
    expect(log).toContainEqual(expect.objectContaining({ method: "GET", host, path: "/nocors/article.html" }));
  }, 120_000);
});
