/**
 * A turn's Changes through the built app, the model served by the loopback OpenAI-compatible server: keyboard
 * alone opens the turn's Changes (every file it created or changed, a diff each), reverts one file (gone from the
 * Files panel, a note in the timeline), and the model's next request carries the note; axe finds nothing on the
 * dialog; screenshots at 1280×800 and 390×844.
 */
import { expect, type Page } from "@playwright/test";
import { axeViolations, connect, shot, turn, watchErrors } from "./app.ts";
import { providerScope } from "./control.ts";
import { test } from "./fixtures.ts";

function fileButton(page: Page, path: string) {
  return page.getByTestId("files").locator(`[data-testid="file"][data-path="${path}"]`);
}

test("review a turn's changes by keyboard, revert one file, and the agent is told at its next call", async ({ page }) => {
  const errors = watchErrors(page);
  const scope = providerScope("openai");
  await scope.script([
    {
      toolCalls: [
        { id: "a", name: "write_file", args: { file_path: "/app.js", content: "console.log('hi');\n" } },
        { id: "b", name: "write_file", args: { file_path: "/draft.md", content: "a draft\n" } },
      ],
    },
    { text: "Wrote two files." },
    { text: "Understood." },
  ]);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/");
  await connect(page, { provider: "openai-compatible", baseUrl: scope.baseUrl, model: "gpt-4o-mini" });
  await turn(page, "Start the app");
  await expect(fileButton(page, "/draft.md")).toBeVisible();

  await page.getByRole("button", { name: "Changes of this turn" }).focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Changes of this turn" });
  await expect(dialog.getByTestId("changes-summary")).toHaveText("This turn changed 2 files.");
  await expect(dialog.getByTestId("file-change")).toHaveCount(2);
  await dialog.locator('[data-path="/app.js"] summary').click();
  await expect(dialog.getByRole("region", { name: "Changes to /app.js" }).locator('[data-marker="+"]')).toHaveText(["console.log('hi');"]);
  expect(await axeViolations(page, "dialog[open]")).toEqual([]);
  await page.screenshot({ path: shot("changes-1280") });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: shot("changes-390") });
  await page.setViewportSize({ width: 1280, height: 800 });

  await dialog.getByRole("button", { name: "Revert /draft.md" }).focus();
  await page.keyboard.press("Enter");
  await expect(dialog.locator('[data-path="/draft.md"]')).toContainText("Reverted");
  await expect(dialog.getByTestId("changes-summary")).toHaveText("This turn changed 2 files; 1 reverted.");
  await dialog.getByRole("button", { name: "Keep all" }).press("Enter");
  await expect(dialog).toBeHidden();
  await expect(fileButton(page, "/draft.md")).toHaveCount(0);
  await expect(fileButton(page, "/app.js")).toBeVisible();
  const note = page.getByTestId("workspace-note");
  await expect(note).toContainText("/draft.md (deleted: it did not exist then)");

  await turn(page, "Carry on");
  const sent = await scope.chatRequests();
  const messages = sent.at(-1)!.body.messages as Array<{ role: string; content: unknown }>;
  const users = messages.filter((m) => m.role === "user").map((m) => JSON.stringify(m.content));
  const told = 'The person reverted these files to how they were before their message \\"Start the app\\": ';
  expect(users.at(-2)).toContain(`${told}/draft.md (deleted: it did not exist then).`);
  expect(users.at(-1)).toContain("Carry on");
  expect(errors).toEqual([]);
});
