/**
 * MCP servers in the built app, through the UI, with the model served by the loopback OpenAI-compatible server
 * and two loopback MCP servers built with the SDK's server side (src/testing/mcp-servers.ts) on ports of their own:
 * add the server in Settings › MCP servers and see its tools; a run calls a read-only tool without asking and a
 * non-read-only one after approval; a server whose connections drop mid-call gives a tool error and the run goes
 * on; after a reload the servers are remembered and a session-only token is neither kept nor in IndexedDB.
 */
import { expect, test, type Page } from "@playwright/test";
import { indexedDBText } from "../src/testing/indexeddb-text.ts";
import { startMcpServer, type McpTestServer } from "../src/testing/mcp-servers.ts";
import { AFTER_LOAD, connect, idle, send, shot, watchErrors } from "./app.ts";
import { providerScope, type RecordedRequest } from "./control.ts";

const TOKEN = "mcp-e2e-1a2b3c4d5e6f-DO-NOT-STORE";
let loop: McpTestServer;
let dying: McpTestServer;

test.beforeAll(async () => {
  loop = await startMcpServer();
  dying = await startMcpServer();
});
test.afterAll(async () => {
  await Promise.all([loop?.close(), dying?.close()]);
});

/** The tool messages of a recorded chat request. */
function toolResults(req: RecordedRequest | undefined): string[] {
  const messages = (req?.body.messages ?? []) as Array<{ role: string; content: unknown }>;
  return messages.filter((m) => m.role === "tool").map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)));
}

async function addServer(page: Page, url: string, name: string, token?: string): Promise<void> {
  const section = page.getByTestId("mcp-servers");
  await section.getByLabel("Server URL", { exact: true }).fill(url);
  await section.getByLabel("Name (optional)").fill(name);
  if (token) await section.getByLabel("Token or header value (optional)").fill(token);
  await section.getByRole("button", { name: "Add MCP server" }).click();
  await expect(section.getByRole("article", { name }).getByRole("status")).toHaveText(/^Connected: 8 tools$/, AFTER_LOAD);
}

/** Every value of the app's IndexedDB databases, as one text. */
const databaseText = (page: Page) => page.evaluate(indexedDBText, "");

test("add MCP servers in Settings, a run calls their tools (asking where it should), a dropped server is a tool error", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const errors = watchErrors(page);
  const scope = providerScope("openai");
  await scope.script([
    { toolCalls: [{ id: "call_echo", name: "loop__echo", args: { text: "from the tab" } }] },
    { toolCalls: [{ id: "call_fail", name: "loop__fail", args: {} }] },
    { toolCalls: [{ id: "call_die", name: "dying__die", args: {} }] },
    { text: "Done with the MCP tools." },
  ]);
  await page.goto("/");
  await connect(page, { provider: "openai-compatible", baseUrl: scope.baseUrl, model: "gpt-4o-mini" });

  await page.getByRole("button", { name: "Settings" }).click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  await addServer(page, loop.url, "loop", TOKEN);
  await addServer(page, dying.url, "dying");
  const card = dialog.getByRole("article", { name: "loop" });
  await expect(card.getByText("Echoes its text.")).toBeVisible();
  await expect(card.getByRole("checkbox", { name: "Ask before calling echo" })).not.toBeChecked();
  await expect(card.getByRole("checkbox", { name: "Ask before calling fail" })).toBeChecked();
  await expect(card.getByText("Authorization: set (this session)")).toBeVisible();
  expect(await page.content()).not.toContain(TOKEN);
  for (const [width, height, name] of [
    [1280, 800, "desktop"],
    [390, 844, "phone"],
  ] as const) {
    await page.setViewportSize({ width, height });
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: shot(`mcp-settings-${name}`) });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();

  await send(page, "Use the MCP tools");
  // echo is read-only: it runs without asking; fail is not: the run asks first.
  const approveFail = page.getByRole("dialog", { name: "Approve loop__fail?" });
  await expect(approveFail).toBeVisible(AFTER_LOAD);
  await approveFail.getByRole("button", { name: "Approve", exact: true }).click();
  const approveDie = page.getByRole("dialog", { name: "Approve dying__die?" });
  await expect(approveDie).toBeVisible(AFTER_LOAD);
  await approveDie.getByRole("button", { name: "Approve", exact: true }).click();
  await idle(page, 60_000);
  await expect(page.getByTestId("assistant-message").getByText("Done with the MCP tools.")).toBeVisible();
  await expect(page.locator('[data-testid="tool-call"][data-tool="loop__echo"]')).toBeVisible();
  await page.screenshot({ path: shot("mcp-run-desktop") });

  const requests = await scope.chatRequests();
  expect(requests).toHaveLength(4);
  const results = toolResults(requests[3]);
  expect(results[0]).toBe("echo: from the tab");
  expect(results[1]).toBe("Error: the quota is used up");
  expect(results[2]).toContain("went away during the call");
  expect(loop.calls.echo).toBe(1);

  // A reload: the servers are remembered, the session-only token is not (nor in IndexedDB), so it is asked for again.
  await page.reload();
  await page.getByRole("button", { name: "Settings" }).click();
  const reloaded = page.getByRole("dialog", { name: "Settings" });
  await expect(reloaded.getByRole("article", { name: "loop" }).getByRole("status")).toHaveText(
    /^Needs its Authorization value again/,
    AFTER_LOAD,
  );
  await expect(reloaded.getByRole("article", { name: "dying" }).getByRole("status")).toHaveText(/^Connected: 8 tools$/, AFTER_LOAD);
  const stored = await databaseText(page);
  expect(stored).toContain(loop.url);
  expect(stored).not.toContain(TOKEN);
  expect(errors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
});
