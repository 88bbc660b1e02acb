/**
 * Rewind through the built app, the model served by the loopback OpenAI-compatible server (the agent's
 * write_file and edit_file calls run for real in the worker):
 *
 * - keyboard alone opens "Rewind" on a message: the preview lists the files that would change (a diff on demand);
 *   "Restore files only" brings the files back (seen in the Files panel) and a note records it; "Undo" on the note
 *   brings the newer files back;
 * - "Restore files and conversation" starts a new branch from before the message with the files as they were; the
 *   branch switcher still reaches the newer branch;
 * - axe finds nothing on the dialog; screenshots at 1280×800 and 390×844.
 */
import { expect, type Page } from "@playwright/test";
import { axeViolations, connect, shot, turn, watchErrors } from "./app.ts";
import { providerScope } from "./control.ts";
import { test } from "./fixtures.ts";

function fileButton(page: Page, path: string) {
  return page.getByTestId("files").locator(`[data-testid="file"][data-path="${path}"]`);
}

async function expectFiles(page: Page, present: string[], absent: string[]): Promise<void> {
  for (const path of present) await expect(fileButton(page, path)).toBeVisible();
  for (const path of absent) await expect(fileButton(page, path)).toHaveCount(0);
}

test("rewind a message by keyboard: files only (undone from its note), then files and conversation as a new branch", async ({ page }) => {
  const errors = watchErrors(page);
  const scope = providerScope("openai");
  await scope.script([
    { toolCalls: [{ id: "w1", name: "write_file", args: { file_path: "/notes.md", content: "first notes\n" } }] },
    { text: "Wrote the notes." },
    {
      toolCalls: [
        { id: "e1", name: "edit_file", args: { file_path: "/notes.md", old_string: "first notes", new_string: "second notes" } },
        { id: "w2", name: "write_file", args: { file_path: "/extra.txt", content: "extra\n" } },
      ],
    },
    { text: "Changed them." },
  ]);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/");
  await connect(page, { provider: "openai-compatible", baseUrl: scope.baseUrl, model: "gpt-4o-mini" });
  await turn(page, "Write the notes");
  await turn(page, "Change the notes");
  await expectFiles(page, ["/notes.md", "/extra.txt"], []);

  // Keyboard: the second message's Rewind, Enter.
  await page.getByTestId("rewind").nth(1).focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Rewind to before this message" });
  await expect(dialog.getByTestId("rewind-summary")).toHaveText("Restoring the files changes 2 files:");
  const rows = dialog.getByTestId("file-change");
  await expect(rows).toHaveCount(2);
  await expect(dialog.locator('[data-path="/extra.txt"]')).toHaveAttribute("data-kind", "deleted");
  await expect(dialog.locator('[data-path="/notes.md"]')).toHaveAttribute("data-kind", "changed");
  // The diff on demand: the disclosure opens with the keyboard.
  await dialog.locator('[data-path="/notes.md"] summary').focus();
  await page.keyboard.press("Enter");
  const diff = dialog.getByRole("region", { name: "Changes to /notes.md" });
  await expect(diff.locator('[data-marker="−"]')).toHaveText(["second notes"]);
  await expect(diff.locator('[data-marker="+"]')).toHaveText(["first notes"]);
  expect(await axeViolations(page, "dialog[open]")).toEqual([]);
  await page.screenshot({ path: shot("rewind-preview-1280") });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: shot("rewind-preview-390") });
  await page.setViewportSize({ width: 1280, height: 800 });

  await dialog.getByRole("button", { name: "Restore files only" }).focus();
  await page.keyboard.press("Enter");
  await expect(dialog).toBeHidden();
  await expectFiles(page, ["/notes.md"], ["/extra.txt"]);
  const note = page.getByTestId("workspace-note");
  await expect(note).toContainText('restored the workspace to how it was before their message "Change the notes"');

  // Undo: rewind to before the note.
  await note.getByRole("button", { name: "Undo" }).focus();
  await page.keyboard.press("Enter");
  const undo = page.getByRole("dialog", { name: "Undo: rewind to before this note" });
  await expect(undo.getByTestId("file-change")).toHaveCount(2);
  await undo.getByRole("button", { name: "Restore files only" }).click();
  await expect(undo).toBeHidden();
  await expectFiles(page, ["/notes.md", "/extra.txt"], []);

  // Files and conversation: a new branch without the second message; the newer one stays reachable.
  await page.getByTestId("rewind").nth(1).click();
  await dialog.getByRole("button", { name: "Restore files and conversation" }).click();
  await expect(dialog).toBeHidden();
  await expectFiles(page, ["/notes.md"], ["/extra.txt"]);
  await expect(page.getByTestId("user-message")).toHaveText(["Write the notes"]);
  await expect(page.getByTestId("branch-position")).toHaveText("2 / 2");
  await page.getByRole("button", { name: "Previous branch" }).click();
  await expect(page.getByTestId("user-message")).toHaveText(["Write the notes", "Change the notes"]);
  expect(errors).toEqual([]);
});
