/**
 * The built app (vite preview) with the demo model (no key, no network): a
 * turn runs in the worker and streams into the page; a reload (idle, twice)
 * keeps the thread whole, including its tool cards (the first issue a new
 * user met); an approval survives a reload; a command runs in the offline
 * shell and the Terminal tab lists it; a file a command wrote is in the Files
 * panel with its content after a reload; files dropped on the composer or
 * pasted into it are written to /uploads/ and named in the message; a very
 * long message shows folded until unfolded, and a reload keeps it whole.
 */
import { expect, type Page } from "@playwright/test";
import { demoAnswer } from "../src/models/demo.ts";
import { recordStreamed, streamedTexts } from "./app.ts";
import { test } from "./fixtures.ts";

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

  // Every text the streaming answer shows, recorded as the page changes: the demo streams for about half a
  // second, which a polling assertion can miss between two polls (CI saw it), an observer cannot.
  await recordStreamed(page);
  await send(page, "Hello from the test");
  await expect(page.getByTestId("user-message")).toHaveText("Hello from the test");
  await expect(page.getByTestId("assistant-message").last()).toHaveText(demoAnswer(1));
  await expect(page.getByTestId("messages")).toHaveAttribute("data-running", "false");
  // The answer was visible while it streamed, in parts, before the run ended.
  const streamed = (await streamedTexts(page)).map((t) => t.trim());
  const partial = streamed.filter((t) => t.length > 0 && t.length < demoAnswer(1).length);
  // At least one partial text was shown (on a loaded machine the page may paint the stream only once before it ends).
  expect(partial.length).toBeGreaterThan(0);
  expect(partial.every((t) => demoAnswer(1).startsWith(t))).toBe(true);

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

test("files dropped on the composer or pasted into it go into /uploads/ and the message names them", async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto("/");
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("Please look at these");

  // A drop of two files, as the browser delivers one from the desktop (a DataTransfer with files).
  const dropped = await page.evaluateHandle(() => {
    const dt = new DataTransfer();
    dt.items.add(new File(["alpha line\nbeta line\n"], "notes.txt", { type: "text/plain" }));
    dt.items.add(new File(['{"a": 1}'], "data.json", { type: "application/json" }));
    return dt;
  });
  const form = page.locator("form").filter({ has: box });
  await form.dispatchEvent("dragover", { dataTransfer: dropped });
  await form.dispatchEvent("drop", { dataTransfer: dropped });
  // A pasted image (clipboard files), as a screenshot pasted with Ctrl+V arrives.
  const pasted = await box.evaluate((el) => {
    const dt = new DataTransfer();
    dt.items.add(
      new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0])], "image.png", { type: "image/png" }),
    );
    const event = new ClipboardEvent("paste", { clipboardData: dt, bubbles: true, cancelable: true });
    el.dispatchEvent(event);
    return event.defaultPrevented;
  });
  // The paste of files is taken by the composer (nothing is pasted as text).
  expect(pasted).toBe(true);
  await expect(box).toHaveValue("Please look at these");
  const attached = page.getByRole("list", { name: "Attached files" }).getByRole("listitem");
  await expect(attached).toHaveCount(3);
  await expect(attached.nth(0)).toContainText("notes.txt");
  await expect(attached.nth(1)).toContainText("data.json");
  await expect(attached.nth(2)).toContainText("image.png");

  await box.press("Enter");
  await expect(page.getByTestId("messages")).toHaveAttribute("data-running", "false");
  await expect(page.getByTestId("user-message")).toHaveText(
    "Please look at these\n\nAttached files: /uploads/notes.txt, /uploads/data.json, /uploads/image.png",
  );
  await expect(page.getByRole("list", { name: "Attached files" })).toHaveCount(0);
  // In the workspace's files, with their bytes.
  for (const [path, size] of [
    ["/uploads/notes.txt", "21 B"],
    ["/uploads/data.json", "8 B"],
    ["/uploads/image.png", "12 B"],
  ] as const)
    await expect(page.locator(`[data-testid="file"][data-path="${path}"]`)).toHaveAccessibleName(`${path}, ${size}`);
  await page.locator('[data-testid="file"][data-path="/uploads/notes.txt"]').click();
  const viewer = page.getByTestId("file-viewer");
  await expect(viewer).toHaveAttribute("data-path", "/uploads/notes.txt");
  await expect(viewer).toContainText("alpha line");
  await expect(viewer).toContainText("beta line");
  // The same names again: the next message's files do not overwrite these.
  await page.keyboard.press("Escape");
  await box.fill("One more");
  await form.dispatchEvent("drop", { dataTransfer: dropped });
  await box.press("Enter");
  await expect(page.getByTestId("messages")).toHaveAttribute("data-running", "false");
  await expect(page.getByTestId("user-message").last()).toHaveText(
    "One more\n\nAttached files: /uploads/notes-1.txt, /uploads/data-1.json",
  );
  expect(errors).toEqual([]);
});

test("a very long message shows folded, unfolds on request, and stays whole across a reload", async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto("/");
  const lines = Array.from({ length: 400 }, (_, i) => `log line ${String(i + 1).padStart(3, "0")}: all good`);
  const text = lines.join("\n");
  await send(page, text);
  await expect(page.getByTestId("messages")).toHaveAttribute("data-running", "false", { timeout: 20_000 });
  const message = page.getByTestId("user-message");
  const unfold = page.getByRole("button", { name: `Show all (${(text.length - 3_000).toLocaleString("en-US")} more characters)` });
  await expect(unfold).toHaveAttribute("aria-expanded", "false");
  expect(await message.textContent()).toBe(`${text.slice(0, 3_000)}…`);
  await unfold.click();
  expect(await message.textContent()).toBe(text);
  await page.getByRole("button", { name: "Show less" }).click();
  expect(await message.textContent()).toBe(`${text.slice(0, 3_000)}…`);

  // Folding is only how it shows: the thread holds the whole message.
  await page.reload();
  await unfold.click();
  await expect(message).toHaveText(text);
  expect(errors).toEqual([]);
});
