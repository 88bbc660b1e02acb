/**
 * Sandboxes in the built app. WebContainer loads its runtime from StackBlitz,
 * so the app boots it only when the user chooses it.
 *
 * - With StackBlitz blocked (every request leaving the machine is aborted by
 *   the test, so this runs the same on every machine, networked or not):
 *   choosing WebContainer starts a boot that cannot finish; within the 20 s
 *   timeout the app says why and falls back to the offline shell, and a
 *   command runs there.
 * - Where StackBlitz is reachable, the same flow runs the real WebContainer
 *   (Node.js in the tab). On machines without network that test is skipped
 *   and says so (it has never run on the machines this was written on).
 * - With no sandbox chosen, the model is not offered `execute` (the loopback
 *   provider's request log shows the tools the client sent); with the
 *   offline shell it is.
 */
import { expect, type BrowserContext, type Page } from "@playwright/test";
import { connect, idle, turn } from "./app.ts";
import { FILE_TOOLS_WITHOUT_SHELL } from "../src/testing/tool-names.ts";
import { providerScope } from "./control.ts";
import { test } from "./fixtures.ts";

const WEBCONTAINER = "WebContainer (loads from StackBlitz, a third party)";

/** StackBlitz's and WebContainer's hosts: the runtime's iframe, its assets, previews (`*.webcontainer-api.io`, `w-…-staticblitz.com`). */
const STACKBLITZ_HOST = /(?:^|[.-])(?:stackblitz|staticblitz|webcontainers?|webcontainer-api)\.(?:com|io)$/;
const LOOPBACK_HOST = /^(?:127\.0\.0\.1|localhost|\[::1\])$/;

/**
 * Aborts every request to a host that is not this machine (StackBlitz's hosts among them) for the whole context,
 * pages, frames and workers alike. Returns the StackBlitz URLs that were attempted (and aborted).
 */
async function blockTheNetwork(context: BrowserContext): Promise<string[]> {
  const stackblitz: string[] = [];
  await context.route(
    (url) => !LOOPBACK_HOST.test(url.hostname) && /^(?:https?|wss?):$/.test(url.protocol),
    (route) => {
      const url = new URL(route.request().url());
      if (STACKBLITZ_HOST.test(url.hostname)) stackblitz.push(url.href);
      return route.abort("internetdisconnected");
    },
  );
  return stackblitz;
}

async function chooseSandbox(page: Page, label: string, options: { approveExecute?: boolean } = {}) {
  await page.getByRole("button", { name: "Settings" }).click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  await dialog.getByLabel("Sandbox").selectOption({ label });
  if (options.approveExecute !== undefined)
    await dialog.getByRole("checkbox", { name: "Ask before running commands" }).setChecked(options.approveExecute);
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog.getByRole("status")).toContainText("Saved.");
}

async function stackblitzReachable(): Promise<string | null> {
  try {
    const res = await fetch("https://stackblitz.com", { signal: AbortSignal.timeout(4_000), method: "HEAD" });
    return res.status < 500 ? null : `StackBlitz answered HTTP ${res.status}`;
  } catch (cause) {
    return `StackBlitz is not reachable from this machine (${cause instanceof Error ? cause.message : String(cause)})`;
  }
}

test("with StackBlitz blocked, WebContainer's boot fails within its timeout and commands run in the offline shell", async ({
  page,
  context,
}) => {
  test.setTimeout(90_000);
  const attempted = await blockTheNetwork(context);
  await page.goto("/");
  await chooseSandbox(page, WEBCONTAINER, { approveExecute: false });
  const status = page.getByTestId("sandbox-status");
  await expect(status).toContainText(/booting|no WebContainer/);
  await expect(status).toContainText("no WebContainer", { timeout: 30_000 });
  await expect(status).toContainText("offline shell");
  // The boot really tried StackBlitz, and the test (not luck) stopped it.
  expect(attempted.length).toBeGreaterThan(0);
  await page.keyboard.press("Escape");
  await turn(page, "$ echo from the fallback > /fallback.txt && cat /fallback.txt");
  await expect(page.getByTestId("tool-call").first()).toHaveAttribute("data-status", "done");
  await expect(page.getByTestId("assistant-message").last()).toContainText("from the fallback");
});

test("where StackBlitz is reachable, the real WebContainer runs node and writes files back", async ({ page }) => {
  const unreachable = await stackblitzReachable();
  if (unreachable) console.log(`skipped: the real WebContainer boot needs the network: ${unreachable}`);
  test.skip(unreachable !== null, `the real WebContainer boot needs the network: ${unreachable}`);
  test.setTimeout(120_000);
  await page.goto("/");
  await chooseSandbox(page, WEBCONTAINER, { approveExecute: false });
  await expect(page.getByTestId("sandbox-status")).toContainText("WebContainer is running", { timeout: 60_000 });
  await page.keyboard.press("Escape");
  await turn(page, '$ node -e "console.log(6 * 7)"');
  await expect(page.getByTestId("assistant-message").last()).toContainText("42");
});

test("with no sandbox the model is not offered execute; with the offline shell it is", async ({ page }) => {
  const scope = providerScope("openai");
  await page.goto("/");
  await connect(page, { provider: "openai-compatible", baseUrl: scope.baseUrl, model: "e2e-model" });

  await chooseSandbox(page, "None");
  await expect(page.getByTestId("sandbox-status")).toContainText("no sandbox chosen: the agent cannot run commands");
  await page.keyboard.press("Escape");
  await turn(page, "first, with no sandbox");

  await chooseSandbox(page, "Offline shell (default)");
  await expect(page.getByTestId("sandbox-status")).toContainText("the offline shell");
  await page.keyboard.press("Escape");
  await turn(page, "then with the offline shell");
  await idle(page);

  const tools = (await scope.chatRequests()).map((r) =>
    ((r.body.tools as Array<{ function: { name: string } }> | undefined) ?? []).map((t) => t.function.name),
  );
  expect(tools).toHaveLength(2);
  // The rest of the file tools are there both times; only execute depends on the sandbox.
  for (const names of tools) expect(names).toEqual(expect.arrayContaining(FILE_TOOLS_WITHOUT_SHELL));
  expect(tools[0]).not.toContain("execute");
  expect(tools[1]).toContain("execute");
  // Without a shell, Python is a tool of its own (tools/python.ts); the shell has python3 itself.
  expect(tools[0]).toContain("python");
  expect(tools[1]).not.toContain("python");
});
