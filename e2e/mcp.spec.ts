/**
 * MCP servers in the built app, through the UI, with the model served by the loopback OpenAI-compatible server
 * and two loopback MCP servers built with the SDK's server side (src/testing/mcp-servers.ts) on ports of their own:
 * add the server in Settings › MCP servers and see its tools; a run calls a read-only tool without asking and a
 * non-read-only one after approval; a server whose connections drop mid-call gives a tool error and the run goes
 * on; after a reload the servers are remembered and a session-only token is neither kept nor in IndexedDB. A third
 * server requires an OAuth sign-in (its authorization server from the SDK's server side): Sign in opens a popup,
 * the consent page's Allow lands on the site's oauth-callback.html, the tools work in a run, a blocked pop-up is said,
 * tokens are in IndexedDB only when remembered, and Sign out forgets them.
 *
 * Both MCP revisions: the first server speaks 2026-07-28 (stateless, `server/discover`), the one that drops its
 * connections 2025-11-25 (sessions); the sign-in test runs against a server of each.
 */
import { expect, type Locator, type Page } from "@playwright/test";
import { indexedDBText } from "../src/testing/indexeddb-text.ts";
import { MCP_REVISIONS, RED_PIXEL_PNG, startMcpServer, type McpTestServer } from "../src/testing/mcp-servers.ts";
import { AFTER_LOAD, connect, idle, send, shot, watchErrors } from "./app.ts";
import { providerScope, type RecordedRequest } from "./control.ts";
import { test } from "./fixtures.ts";

const TOKEN = "mcp-e2e-1a2b3c4d5e6f-DO-NOT-STORE";
let loop: McpTestServer;
let dying: McpTestServer;

test.beforeAll(async () => {
  loop = await startMcpServer({ revision: "2026-07-28" });
  dying = await startMcpServer({ revision: "2025-11-25" });
});
test.afterAll(async () => {
  await Promise.all([loop?.close(), dying?.close()]);
});

/** The tool messages of a recorded chat request. */
function toolResults(req: RecordedRequest | undefined): string[] {
  const messages = (req?.body.messages ?? []) as Array<{ role: string; content: unknown }>;
  return messages.filter((m) => m.role === "tool").map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)));
}

/** Screenshots with `card` in view at 1280×800 and 390×844; `path(size)` names each file. */
async function shotBoth(page: Page, card: Locator, path: (size: "desktop" | "phone") => string): Promise<void> {
  for (const [width, height, size] of [
    [1280, 800, "desktop"],
    [390, 844, "phone"],
  ] as const) {
    await page.setViewportSize({ width, height });
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path(size) });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

async function addServer(page: Page, url: string, name: string, token?: string): Promise<void> {
  const section = page.getByTestId("mcp-servers");
  await section.getByLabel("Server URL", { exact: true }).fill(url);
  await section.getByLabel("Name (optional)").fill(name);
  if (token) await section.getByLabel("Token or header value (optional)").fill(token);
  await section.getByRole("button", { name: "Add MCP server" }).click();
  await expect(section.getByRole("article", { name }).getByRole("status")).toHaveText(/^Connected: 11 tools$/, AFTER_LOAD);
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
  await shotBoth(page, card, (size) => shot(`mcp-settings-${size}`));
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
  await expect(reloaded.getByRole("article", { name: "dying" }).getByRole("status")).toHaveText(/^Connected: 11 tools$/, AFTER_LOAD);
  const stored = await databaseText(page);
  expect(stored).toContain(loop.url);
  expect(stored).not.toContain(TOKEN);
  // The 2026-07-28 server was reached without initialize; the 2025-11-25 one with it.
  expect(loop.initializeRequests).toBe(0);
  expect(loop.sessionRequests).toBe(0);
  expect(dying.initializeRequests).toBeGreaterThan(0);
  expect(errors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
});

/** Where the sign-in states' screenshots go: DEEPTAB_OAUTH_SHOTS (a folder), else screenshots/ as the others. */
const SHOTS = process.env.DEEPTAB_OAUTH_SHOTS ?? "";
for (const revision of MCP_REVISIONS) {
  const suffix = revision === "2026-07-28" ? "" : `-${revision}`;
  const oauthShot = (name: string) => (size: string) =>
    SHOTS ? `${SHOTS}/mcp-oauth-${name}${suffix}-${size}.png` : shot(`mcp-oauth-${name}${suffix}-${size}`);

  test(`an MCP server (${revision}) that requires sign-in: Sign in in a popup, its tools in a run, remembered as chosen, Sign out`, async ({
    page,
  }) => {
    test.setTimeout(240_000);
    // The fixed port for one of them only: the two may run at once.
    const port = revision === "2026-07-28" ? Number(process.env.DEEPTAB_E2E_OAUTH_PORT) || 0 : 0;
    const secure = await startMcpServer({ revision, oauth: {}, port });
    try {
      const errors = watchErrors(page);
      const scope = providerScope("openai");
      await scope.script([
        { toolCalls: [{ id: "call_secure", name: "secure__echo", args: { text: "signed in" } }] },
        { text: "Signed-in tool used." },
      ]);
      await page.goto("/");
      await connect(page, { provider: "openai-compatible", baseUrl: scope.baseUrl, model: "gpt-4o-mini" });
      await page.getByRole("button", { name: "Settings" }).click();
      const section = page.getByTestId("mcp-servers");
      await section.getByLabel("Server URL", { exact: true }).fill(secure.url);
      await section.getByLabel("Name (optional)").fill("secure");
      await section.getByRole("button", { name: "Add MCP server" }).click();
      const card = () => page.getByTestId("mcp-servers").getByRole("article", { name: "secure" });
      await expect(card().getByRole("status")).toHaveText(/^Needs sign-in/, AFTER_LOAD);
      expect(secure.oauth!.stats.registrations).toBe(0);
      await shotBoth(page, card(), oauthShot("needs-sign-in"));

      // A blocked pop-up is said as such.
      await page.evaluate(() => {
        (window as { realOpen?: typeof window.open }).realOpen = window.open;
        window.open = () => null;
      });
      await card().getByRole("button", { name: "Sign in to secure" }).click();
      await expect(card().getByRole("status")).toHaveText(/^Failed: The browser blocked the sign-in window/, AFTER_LOAD);
      await shotBoth(page, card(), oauthShot("popup-blocked"));
      await page.evaluate(() => {
        window.open = (window as { realOpen?: typeof window.open }).realOpen!;
      });

      // Sign in for this session: the popup shows the server's consent page, Allow lands on the site's callback page.
      const signIn = async (remember: boolean) => {
        await card().getByRole("checkbox", { name: "Remember sign-in on this device" }).setChecked(remember);
        const [popup] = await Promise.all([page.waitForEvent("popup"), card().getByRole("button", { name: "Sign in to secure" }).click()]);
        await expect(card().getByRole("status")).toHaveText("Signing in… finish in the sign-in window.", AFTER_LOAD);
        await popup.getByRole("link", { name: "Allow" }).waitFor(AFTER_LOAD);
        if (!remember) await shotBoth(page, card(), oauthShot("signing-in"));
        await popup.getByRole("link", { name: "Allow" }).click();
        await expect(card().getByRole("status")).toHaveText(/^Connected: 11 tools$/, AFTER_LOAD);
      };
      await signIn(false);
      await expect(card().getByText("Signed in (this session)")).toBeVisible();
      await shotBoth(page, card(), oauthShot("connected"));
      expect(secure.oauth!.stats.registrations).toBe(1);
      const html = await page.content();
      for (const token of secure.oauth!.issuedTokens()) expect(html).not.toContain(token);

      await page.keyboard.press("Escape");
      await send(page, "Use the signed-in server");
      await idle(page, 60_000);
      await expect(page.getByTestId("assistant-message").getByText("Signed-in tool used.")).toBeVisible();
      const requests = await scope.chatRequests();
      expect(toolResults(requests[1])).toEqual(["echo: signed in"]);
      expect(secure.calls.echo).toBe(1);
      let stored = await databaseText(page);
      expect(stored).toContain(secure.url);
      for (const token of secure.oauth!.issuedTokens()) expect(stored).not.toContain(token);

      // Not remembered: a reload needs a sign-in again. Remembered: stored, and connected after a reload.
      await page.reload();
      await page.getByRole("button", { name: "Settings" }).click();
      await expect(card().getByRole("status")).toHaveText(/^Needs sign-in/, AFTER_LOAD);
      await signIn(true);
      await expect(card().getByText("Signed in (remembered on this device)")).toBeVisible();
      stored = await databaseText(page);
      expect(secure.oauth!.issuedTokens().some((token) => stored.includes(token))).toBe(true);
      await page.reload();
      await page.getByRole("button", { name: "Settings" }).click();
      await expect(card().getByRole("status")).toHaveText(/^Connected: 11 tools$/, AFTER_LOAD);
      await expect(card().getByText("Signed in (remembered on this device)")).toBeVisible();

      // Sign out forgets the tokens here and in IndexedDB.
      await card().getByRole("button", { name: "Sign out of secure" }).click();
      await expect(card().getByRole("status")).toHaveText(/^Needs sign-in/, AFTER_LOAD);
      stored = await databaseText(page);
      for (const token of secure.oauth!.issuedTokens()) expect(stored).not.toContain(token);
      expect(stored).toContain(secure.url);
      expect(errors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
      expect(secure.initializeRequests > 0).toBe(revision === "2025-11-25");
    } finally {
      await secure.close();
    }
  });
}

test("an MCP tool's image shows in its tool card; an SVG, HTML called an image and a mislabelled file do not", async ({ page }) => {
  test.setTimeout(120_000);
  const errors = watchErrors(page);
  const scope = providerScope("openai");
  await scope.script([
    { toolCalls: [{ id: "call_img", name: "pics__image", args: {} }] },
    { toolCalls: [{ id: "call_hostile", name: "pics__hostile_images", args: {} }] },
    { text: "Looked at the images." },
  ]);
  await page.goto("/");
  await connect(page, { provider: "openai-compatible", baseUrl: scope.baseUrl, model: "gpt-4o-mini" });
  await page.getByRole("button", { name: "Settings" }).click();
  await addServer(page, loop.url, "pics");
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog", { name: "Settings" })).toBeHidden();

  await send(page, "Show me the images");
  const approve = page.getByRole("dialog", { name: "Approve pics__image?" });
  await expect(approve).toBeVisible(AFTER_LOAD);
  await approve.getByRole("button", { name: "Approve", exact: true }).click();
  await idle(page, 60_000);
  await expect(page.getByTestId("assistant-message").getByText("Looked at the images.")).toBeVisible();

  const imageCard = page.locator('[data-testid="tool-call"][data-tool="pics__image"]');
  await imageCard.getByRole("button", { name: /pics__image/ }).click();
  const img = imageCard.getByRole("img", { name: "Image 1 from pics__image" });
  await expect(img).toHaveAttribute("src", `data:image/png;base64,${RED_PIXEL_PNG}`);
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth), AFTER_LOAD).toBe(1);

  const hostileCard = page.locator('[data-testid="tool-call"][data-tool="pics__hostile_images"]');
  await hostileCard.getByRole("button", { name: /pics__hostile_images/ }).click();
  await expect(hostileCard.getByText("three images")).toBeVisible();
  // The worker kept none of them as images: the card has none to show, and the page never made an element of them.
  await expect(hostileCard.locator("img, svg, iframe, object, embed")).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { hostile?: number }).hostile)).toBeUndefined();
  // The model (OpenAI-compatible: text-only tool messages) read where each was saved.
  const requests = await scope.chatRequests();
  expect(toolResults(requests[1])[0]).toContain("saved at /large_tool_results/call_img-1.png");
  expect(JSON.stringify(requests.map((r) => r.body))).not.toContain("image_url");
  await page.screenshot({ path: shot("mcp-image-desktop") });
  expect(errors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
});
