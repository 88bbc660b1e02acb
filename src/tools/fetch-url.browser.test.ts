/**
 * `fetch_url` in Chromium, against the loopback web host (web-pages.ts): where CORS applies. In the test page: a page
 * with CORS becomes Markdown, a host without CORS is named as blocking browser requests (with an MCP server as the
 * way on), a redirect loop and a 50 MB page are handled without buffering. Then in the real agent worker, as a run
 * uses it: asked about first, read once approved, its host in the worker's request log.
 */
import { describe, expect, inject, it } from "vitest";
import type { MessageReply, ServerReply } from "../testing/provider-servers.ts";
import { runTool } from "../testing/runtime.ts";
import { serverScope } from "../testing/server-scope.ts";
import { messagesOf, pendingOf, workerPool } from "../testing/worker-pool.ts";
import { createFetchUrlTool } from "./fetch-url.ts";

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
