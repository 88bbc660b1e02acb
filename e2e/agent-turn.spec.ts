/**
 * The built app (vite preview) with the demo model (no key, no network): a
 * turn runs in the worker and streams into the page; a reload (idle, twice)
 * keeps the thread whole, including its tool cards (the first issue a new
 * user met); an approval survives a reload; a command runs in the offline
 * shell and the Terminal tab lists it; a file a command wrote is in the Files
 * panel with its content after a reload.
 */
import { expect, test, type Page } from "@playwright/test";
import { demoAnswer } from "../src/models/demo.ts";

function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (err) => errors.push(err.message));
  page.on("console", (msg) => {
    if (msg.type() === "error") errors.push(msg.text());
  });
  return errors;
}

async function send(page: Page, text: string) {
  await page.getByRole("textbox", { name: "Message" }).fill(text);
  await page.getByRole("textbox", { name: "Message" }).press("Enter");
}

test("a message runs an agent turn in the worker and streams the answer", async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto("/");
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
  await expect(page.getByTestId("model-chip")).toHaveText("Demo · scripted");

  await send(page, "Hello from the test");
  await expect(page.getByTestId("user-message")).toHaveText("Hello from the test");
  // The answer is visible while it streams, before the run ends.
  await expect(page.getByTestId("assistant-live")).toBeVisible();
  await expect(page.getByTestId("assistant-message").last()).toHaveText(demoAnswer(1));
  await expect(page.getByTestId("messages")).toHaveAttribute("data-running", "false");

  const tool = page.getByTestId("tool-call");
  await expect(tool).toHaveAttribute("data-tool", "write_file");
  await expect(tool).toHaveAttribute("data-status", "done");
  await expect(tool).toContainText("/hello.md");
  // Finished answers are announced once, not token by token.
  await expect(page.getByTestId("announce")).toHaveText(demoAnswer(1));
  expect(errors).toEqual([]);
});

test("reloads, even idle and twice, keep every message and tool card, in every tab", async ({ page, context }) => {
  const errors = watchErrors(page);
  await page.goto("/");
  await send(page, "hello");
  await expect(page.getByTestId("assistant-message")).toHaveText([demoAnswer(1)]);
  await expect(page.getByTestId("messages")).toHaveAttribute("data-running", "false");
  await page.reload();
  await expect(page.getByTestId("tool-call")).toHaveCount(1);
  await send(page, "hi again");
  await expect(page.getByTestId("assistant-message")).toHaveText([demoAnswer(1), demoAnswer(2)]);
  await expect(page.getByTestId("tool-call")).toHaveCount(2);
  await page.reload();
  await expect(page.getByTestId("user-message")).toHaveText(["hello", "hi again"]);
  await expect(page.getByTestId("tool-call")).toHaveCount(2);
  await expect(page.getByTestId("tool-call").nth(1)).toHaveAttribute("data-status", "done");
  const other = await context.newPage();
  await other.goto("/");
  await expect(other.getByTestId("tool-call")).toHaveCount(2);
  await expect(other.getByTestId("assistant-message")).toHaveText([demoAnswer(1), demoAnswer(2)]);
  expect(errors).toEqual([]);
});

test("an approval survives a reload and can be answered", async ({ page }) => {
  await page.goto("/");
  await send(page, "write a note");
  await expect(page.getByTestId("assistant-message")).toHaveCount(1);
  await expect(page.getByTestId("messages")).toHaveAttribute("data-running", "false");
  await send(page, "please delete it");
  await expect(page.getByTestId("approval-action")).toHaveAttribute("data-tool", "delete");
  await page.reload();
  await expect(page.getByTestId("approval-action")).toHaveAttribute("data-tool", "delete");
  await page.getByTestId("approve").click();
  await expect(page.getByTestId("approval")).toHaveCount(0);
  await expect(page.getByTestId("assistant-message").last()).toHaveText("Done: Deleted /hello.md");
});

test("a command runs in the offline shell: its card shows the output and the Terminal tab lists it", async ({ page }) => {
  await page.goto("/");
  await send(page, "$ seq 3 | sort -r");
  // Commands ask first (the default).
  await expect(page.getByTestId("approval-action")).toHaveAttribute("data-tool", "execute");
  await expect(page.getByTestId("approval")).toContainText("seq 3 | sort -r");
  await page.getByTestId("approve").click();
  await expect(page.getByTestId("assistant-message").last()).toContainText("3\n2\n1");
  await expect(page.getByTestId("tool-call").first()).toHaveAttribute("data-status", "done");
  await page.getByRole("tab", { name: "Terminal" }).click();
  await expect(page.getByRole("tabpanel")).toContainText("seq 3 | sort -r");
  await expect(page.getByTestId("command")).toHaveAttribute("data-exit", "0");
});

test("a file a command writes is in the Files panel, with its content, after a reload", async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto("/");
  await send(page, "$ seq 3 | sort -r > /x.txt");
  await page.getByTestId("approve").click();
  // The demo reads the redirect target back with read_file.
  const answer = page.getByTestId("assistant-message").last();
  await expect(answer.getByRole("paragraph")).toHaveText("Here is /x.txt:");
  await expect(answer.locator("pre code")).toHaveText("3\n2\n1\n");
  await expect(page.getByTestId("messages")).toHaveAttribute("data-running", "false");

  await page.reload();
  await page.getByRole("tab", { name: "Files" }).click();
  const file = page.getByTestId("files").locator('[data-testid="file"][data-path="/x.txt"]');
  await expect(file).toBeVisible();
  await file.click();
  const viewer = page.getByTestId("file-viewer");
  await expect(viewer).toHaveAttribute("data-path", "/x.txt");
  const code = viewer.getByRole("region", { name: "/x.txt", exact: true });
  await expect.poll(async () => (await code.locator("[data-line] .text").allTextContents()).join("\n")).toBe("3\n2\n1");
  expect(errors).toEqual([]);
});
