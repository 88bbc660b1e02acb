/**
 * The thread list in the built app: create, rename, delete, export → import,
 * and two tabs on one thread (the second is read-only while the first runs).
 */
import { expect, test, type Page } from "@playwright/test";
import { demoAnswer } from "../src/worker/demo.ts";

async function send(page: Page, text: string) {
  await page.getByTestId("composer-input").fill(text);
  await page.getByTestId("send").click();
  await expect(page.getByTestId("messages")).toHaveAttribute("data-running", "false");
  await expect(page.getByTestId("assistant-message").last()).toHaveText(demoAnswer(1));
}

test("threads: create two, rename, delete, export and import", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByTestId("worker-status")).toHaveAttribute("data-storage", "indexeddb");
  const items = page.getByTestId("thread-item");
  await send(page, "alpha");
  await expect(items).toHaveCount(1);
  await page.getByTestId("new-thread").click();
  await expect(page.getByTestId("user-message")).toHaveCount(0);
  await send(page, "beta");
  await expect(page.getByTestId("thread-title")).toHaveText(["beta", "alpha"]);
  await expect(page.getByTestId("storage-usage")).toContainText("Storage:");

  // Rename the newest thread inline.
  await items.first().getByTestId("thread-rename").click();
  await page.getByTestId("rename-input").fill("Renamed beta");
  await page.getByTestId("rename-input").press("Enter");
  await expect(page.getByTestId("thread-title")).toHaveText(["Renamed beta", "alpha"]);

  // Open alpha, then delete it: the chat moves to a new empty thread.
  await items.nth(1).getByTestId("thread-open").click();
  await expect(page.getByTestId("user-message")).toHaveText("alpha");
  await items.nth(1).getByTestId("thread-delete").click();
  await expect(page.getByTestId("thread-title")).toHaveText(["Renamed beta"]);
  await expect(page.getByTestId("user-message")).toHaveCount(0);

  // Export → import: a second copy with the same history.
  const download = page.waitForEvent("download");
  await items.first().getByTestId("thread-export").click();
  const file = await (await download).path();
  await page.getByTestId("import-input").setInputFiles(file);
  await expect(items).toHaveCount(2);
  await expect(page.getByTestId("thread-title")).toHaveText(["Renamed beta", "Renamed beta"]);
  await expect(page.getByTestId("user-message")).toHaveText("beta");
  await expect(page.getByTestId("assistant-message").last()).toHaveText(demoAnswer(1));
  await expect(page.getByTestId("file")).toHaveAttribute("data-path", "/hello.md");
  const ids = await items.evaluateAll((els) => els.map((e) => e.getAttribute("data-thread-id")));
  expect(new Set(ids).size).toBe(2);

  // A file that is not an export is refused with a message.
  await page
    .getByTestId("import-input")
    .setInputFiles({ name: "bad.json", mimeType: "application/json", buffer: Buffer.from('{"nope":1}') });
  await expect(page.getByTestId("thread-error")).toHaveAttribute("data-code", "invalid_export");
  await expect(items).toHaveCount(2);
});

test("two tabs on one thread: the second is read-only while the first runs", async ({ context }) => {
  const first = await context.newPage();
  await first.goto("/");
  await expect(first.getByTestId("worker-status")).toHaveAttribute("data-storage", "indexeddb");
  const second = await context.newPage();
  await second.goto("/");
  await expect(second.getByTestId("worker-status")).toHaveAttribute("data-storage", "indexeddb");

  await first.getByTestId("composer-input").fill("from the first tab");
  await first.getByTestId("send").click();
  await expect(second.getByTestId("thread-busy")).toBeVisible();
  await expect(second.getByTestId("composer-input")).toBeDisabled();

  await expect(first.getByTestId("assistant-message").last()).toHaveText(demoAnswer(1));
  await expect(second.getByTestId("thread-busy")).toHaveCount(0);
  await expect(second.getByTestId("user-message")).toHaveText("from the first tab");
  await expect(second.getByTestId("assistant-message").last()).toHaveText(demoAnswer(1));
  await expect(second.getByTestId("composer-input")).toBeEnabled();
});

test("asks for persistent storage once the user has data, and shows usage", async ({ page }) => {
  await page.addInitScript(() => {
    const calls: string[] = [];
    (window as unknown as { persistCalls: string[] }).persistCalls = calls;
    navigator.storage.persist = async () => {
      calls.push("persist");
      return true;
    };
  });
  await page.goto("/");
  await expect(page.getByTestId("worker-status")).toHaveAttribute("data-in-worker", "true");
  expect(await page.evaluate(() => (window as unknown as { persistCalls: string[] }).persistCalls)).toEqual([]);
  await page.getByTestId("composer-input").fill("keep me");
  await page.getByTestId("send").click();
  await expect(page.getByTestId("assistant-message").last()).toBeVisible();
  await expect.poll(() => page.evaluate(() => (window as unknown as { persistCalls: string[] }).persistCalls)).toEqual(["persist"]);
  await expect(page.getByTestId("storage-usage")).toContainText(/Storage: .+ of .+/);
  // Asked once, not on every turn.
  await page.getByTestId("composer-input").fill("again");
  await page.getByTestId("send").click();
  await expect(page.getByTestId("assistant-message")).toHaveCount(2);
  expect(await page.evaluate(() => (window as unknown as { persistCalls: string[] }).persistCalls)).toEqual(["persist"]);
});
