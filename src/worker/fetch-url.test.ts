/**
 * `fetch_url` in the app's agent, through the worker API (Node, fake-indexeddb, the OpenAI-compatible provider on a
 * loopback server, a loopback web host): offered to the model, asked about before it runs, its page read after the
 * person approves, and its host in the request log. Chromium: tools/fetch-url.browser.test.ts runs it in a real worker.
 */
import "fake-indexeddb/auto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveScripted } from "../testing/scripted-servers.ts";
import { startWebPagesServer, type WebPagesServer } from "../testing/web-pages.ts";
import { collectRun, openWorkerApi } from "../testing/worker-api.ts";
import { createRequestLog } from "./request-log.ts";

const serve = serveScripted();
let web: WebPagesServer;
beforeAll(async () => {
  web = await startWebPagesServer();
});
afterAll(async () => {
  await web.close();
});

async function run(start: Parameters<typeof collectRun>[0]) {
  const { events, done } = await collectRun(start);
  const terminal = await done;
  const interrupt = events.find((e) => e.type === "interrupt");
  return { terminal, approval: interrupt?.type === "interrupt" ? interrupt.approval : undefined };
}

describe("fetch_url in the app's agent", () => {
  it("is offered, asks before fetching, reads the page once approved, and lists its host in the request log", async () => {
    const url = `${web.url}/article.html`;
    const server = await serve("openai", [
      { when: { toolResults: 0 }, toolCalls: [{ id: "f1", name: "fetch_url", args: { url } }] },
      { when: { toolResults: 1 }, text: "The harbour has two high tides a day." },
    ]);
    const { api } = openWorkerApi();
    await api.setThreadModel("w", { provider: "openai-compatible", model: "m", baseUrl: `${server.url}/v1` });

    const first = await run((cb) => api.startRun("w", { text: "What about the tides?" }, cb));
    expect(first.terminal).toMatchObject({ status: "interrupted" });
    expect(first.approval?.actions[0]).toMatchObject({ name: "fetch_url", args: { url } });
    const offered = (server.requests.find((r) => r.path === "/v1/chat/completions")?.body.tools ?? []) as { function: { name: string } }[];
    expect(offered.map((t) => t.function.name)).toContain("fetch_url");
    // Nothing was fetched before the person approved.
    expect((await api.requestLog()).some((e) => e.host === new URL(web.url).host)).toBe(false);

    const second = await run((cb) => api.resume("w", [{ type: "approve" }], cb, first.approval!.id));
    expect(second.terminal).toMatchObject({ status: "complete" });
    const tool = (await api.getThread("w")).messages.find((m) => m.role === "tool");
    expect(tool).toMatchObject({ name: "fetch_url", status: "success" });
    expect(JSON.parse(tool!.content)).toMatchObject({ success: true, url, status_code: 200, title: "Tide tables | Harbour notes" });
    expect(await api.requestLog()).toContainEqual(
      expect.objectContaining({ method: "GET", host: new URL(web.url).host, path: "/article.html", status: 200 }),
    );
  }, 60_000);
});

describe("the request log and redirects a browser follows by itself", () => {
  it("lists the host a followed redirect ended at, and marks the first request as redirected", async () => {
    const ended = new Response("page", { status: 200 });
    Object.defineProperty(ended, "redirected", { value: true });
    Object.defineProperty(ended, "url", { value: "https://pages.example.org/final?token=x" });
    const log = createRequestLog(500, async () => ended);
    await log.fetch("https://short.example.com/abc", { redirect: "follow" });
    expect(log.entries().map(({ host, path, status, redirected }) => ({ host, path, status, redirected }))).toEqual([
      { host: "short.example.com", path: "/abc", status: 200, redirected: true },
      { host: "pages.example.org", path: "/final", status: 200, redirected: undefined },
    ]);
  });
});
