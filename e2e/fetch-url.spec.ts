/**
 * fetch_url in the built app, through the UI: the model (the loopback OpenAI-compatible server) asks to fetch a page
 * of a loopback web host (src/testing/web-pages.ts); the run asks first, showing the URL; once approved the page is
 * read from the worker and its Markdown reaches the model; a host without CORS gives the model a tool error saying
 * so; Settings › Request log lists the web host's requests.
 */
import { expect } from "@playwright/test";
import { startWebPagesServer, type WebPagesServer } from "../src/testing/web-pages.ts";
import { AFTER_LOAD, connect, idle, send, watchErrors } from "./app.ts";
import { providerScope, type RecordedRequest } from "./control.ts";
import { test } from "./fixtures.ts";

let web: WebPagesServer;
test.beforeAll(async () => {
  web = await startWebPagesServer();
});
test.afterAll(async () => {
  await web?.close();
});

/** The tool messages of a recorded chat request. */
function toolResults(req: RecordedRequest | undefined): string[] {
  const messages = (req?.body.messages ?? []) as Array<{ role: string; content: unknown }>;
  return messages.filter((m) => m.role === "tool").map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)));
}

test("fetch_url asks first, reads the page from the tab, names a host without CORS, and the request log lists the host", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const errors = watchErrors(page);
  const url = `${web.url}/article.html`;
  const blocked = `${web.url}/nocors/article.html`;
  const scope = providerScope("openai");
  await scope.script([
    { toolCalls: [{ id: "call_page", name: "fetch_url", args: { url } }] },
    { toolCalls: [{ id: "call_blocked", name: "fetch_url", args: { url: blocked } }] },
    { text: "The harbour has two high tides a day." },
  ]);
  await page.goto("/");
  await connect(page, { provider: "openai-compatible", baseUrl: scope.baseUrl, model: "gpt-4o-mini" });
  await send(page, "What about the tides?");

  for (const asked of [url, blocked]) {
    const approve = page.getByRole("dialog", { name: "Approve fetch_url?" });
    await expect(approve).toBeVisible(AFTER_LOAD);
    await expect(approve).toContainText(asked);
    await approve.getByRole("button", { name: "Approve", exact: true }).click();
  }
  await idle(page, 60_000);
  await expect(page.getByTestId("assistant-message").getByText("The harbour has two high tides a day.")).toBeVisible();
  await expect(page.locator('[data-testid="tool-call"][data-tool="fetch_url"]').first()).toBeVisible();

  const requests = await scope.chatRequests();
  expect(requests).toHaveLength(3);
  const [read, refused] = toolResults(requests[2]);
  expect(JSON.parse(read!)).toMatchObject({ success: true, url, status_code: 200, title: "Tide tables | Harbour notes" });
  expect(JSON.parse(read!).markdown_content).toContain(`[tables for 2026](${web.url}/tides/2026)`);
  expect(JSON.parse(refused!).error).toMatch(/blocks browser requests.*MCP server/);

  await page.getByRole("button", { name: "Settings" }).click();
  const log = page.getByRole("dialog", { name: "Settings" }).getByTestId("request-log");
  if ((await log.getAttribute("open")) === null) await log.locator("summary").click();
  await log.getByRole("button", { name: "Refresh" }).click();
  const host = new URL(web.url).host;
  await expect(log.getByRole("row").filter({ hasText: host }).filter({ hasText: "/article.html" }).first()).toBeVisible();
  expect(errors.filter((e) => !/Failed to load resource|CORS|Access-Control-Allow-Origin/.test(e))).toEqual([]);
});
