/**
 * The built app (vite preview): one agent turn, run in the Web Worker with
 * the scripted demo model, streamed into the page.
 */
import { expect, test } from "@playwright/test";
import { demoAnswer } from "../src/worker/demo.ts";

test("a message runs an agent turn in the worker and streams the answer", async ({ page }) => {
  const errors: string[] = [];
  page.on("pageerror", (err) => errors.push(err.message));
  page.on("console", (msg) => {
    if (msg.type() === "error") errors.push(msg.text());
  });

  await page.goto("/");
  const status = page.getByTestId("worker-status");
  await expect(status).toHaveAttribute("data-in-worker", "true");
  await expect(status).toHaveAttribute("data-isolated", "true");
  await expect(page.getByTestId("demo-badge")).toHaveText("demo mode (scripted model)");
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);

  await page.getByTestId("composer-input").fill("Hello from the test");
  await page.getByTestId("send").click();

  await expect(page.getByTestId("user-message")).toHaveText("Hello from the test");
  // The answer is visible while it streams, before the run ends.
  await expect(page.getByTestId("assistant-live")).toBeVisible();
  await expect(page.getByTestId("assistant-message").last()).toHaveText(demoAnswer(1));

  const messages = page.getByTestId("messages");
  await expect(messages).toHaveAttribute("data-running", "false");
  const tokenEvents = Number(await messages.getAttribute("data-token-events"));
  expect(tokenEvents).toBeGreaterThan(1);

  const tool = page.getByTestId("tool-call");
  await expect(tool).toHaveAttribute("data-tool", "write_file");
  await expect(tool).toHaveAttribute("data-status", "success");
  await tool.locator("summary").click();
  await expect(tool.getByTestId("tool-args")).toContainText("/hello.md");
  await expect(tool.getByTestId("tool-result")).toContainText("/hello.md");

  expect(errors).toEqual([]);
});

test("a second turn on the same thread works", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByTestId("worker-status")).toHaveAttribute("data-in-worker", "true");
  const input = page.getByTestId("composer-input");
  await input.fill("one");
  await input.press("Enter");
  await expect(page.getByTestId("assistant-message")).toHaveText([demoAnswer(1)]);
  await input.fill("two");
  await page.getByTestId("send").click();
  await expect(page.getByTestId("assistant-message")).toHaveText([demoAnswer(1), demoAnswer(2)]);
  await expect(page.getByTestId("tool-call")).toHaveCount(2);
});

test("a reload restores the thread: messages and files are still there", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByTestId("worker-status")).toHaveAttribute("data-storage", "indexeddb");
  await page.getByTestId("composer-input").fill("Remember this");
  await page.getByTestId("send").click();
  await expect(page.getByTestId("assistant-message").last()).toHaveText(demoAnswer(1));
  await expect(page.getByTestId("file")).toHaveAttribute("data-path", "/hello.md");

  await page.reload();
  await expect(page.getByTestId("user-message")).toHaveText("Remember this");
  await expect(page.getByTestId("assistant-message").last()).toHaveText(demoAnswer(1));
  await expect(page.getByTestId("tool-call")).toHaveAttribute("data-status", "success");
  await expect(page.getByTestId("file")).toHaveAttribute("data-path", "/hello.md");
});

test("an approval shown in the page survives a reload and can be answered", async ({ page }) => {
  await page.goto("/");
  const input = page.getByTestId("composer-input");
  await input.fill("write a note");
  await input.press("Enter");
  await expect(page.getByTestId("file")).toHaveAttribute("data-path", "/hello.md");
  await input.fill("please delete it");
  await input.press("Enter");
  await expect(page.getByTestId("approval-action")).toHaveAttribute("data-tool", "delete");

  await page.reload();
  await expect(page.getByTestId("approval-action")).toHaveAttribute("data-tool", "delete");
  await page.getByTestId("approve").click();
  await expect(page.getByTestId("approval")).toHaveCount(0);
  await expect(page.getByTestId("files")).toContainText("No files yet.");
  await expect(page.getByTestId("assistant-message").last()).toHaveText("Done: Deleted /hello.md");
});
