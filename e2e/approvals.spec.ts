/**
 * Approvals in the built app, driven through the UI with the model served by
 * the loopback OpenAI-compatible server (real `@langchain/openai` client in
 * the worker):
 *
 * - With "Ask before changing files" on, edit_file on an existing file opens
 *   the approval dialog with its origin (main agent) and a diff of the file;
 *   Approve changes the file (seen in the file viewer) and the card is done.
 * - write_file over an existing file shows a diff too; Reject with a reason
 *   leaves the file as it was and the model's next request carries the reason
 *   as the tool's result.
 * - Edit: invalid JSON and schema-violating JSON show a problem and cannot be
 *   sent; valid edited arguments are what the tool runs with.
 * - execute (offline shell, "Ask before running commands" on) shows the
 *   command to be run.
 * - Keyboard: the focus goes into the dialog when it opens and stays there
 *   (Tab cycles inside); Enter approves.
 * - Text typed in the composer while a run pauses for approval is kept in the
 *   box (the dialog is modal; the message is not sent nor dropped) and can be
 *   sent after the approval is answered.
 * - An execute answered with Respond shows "Responded" on its card, a rejected
 *   one "Rejected" (the model gets the answer as the result); the earlier
 *   answer offers no Retry while a pause waits.
 *
 * Restricting `allowedDecisions` has no setting in the UI (every approval
 * the app asks for allows approve, edit, reject and respond), so it is not
 * shown here; src/ui/approval/approval-dialog.browser.test.ts covers it.
 */
import { expect, type Page } from "@playwright/test";
import { connect, idle, send, shot, watchErrors } from "./app.ts";
import { providerScope, type ProviderScope, type RecordedRequest } from "./control.ts";
import { test } from "./fixtures.ts";

const MODEL = "gpt-4o-mini";

/** Connects the app to the scope's OpenAI-compatible endpoint. */
async function connectScope(page: Page, scope: ProviderScope, options: { approveWrites?: boolean; approveExecute?: boolean } = {}) {
  await connect(page, { provider: "openai-compatible", baseUrl: scope.baseUrl, model: MODEL, ...options });
}

/** Creates a file in the shown thread through Files › New file (it opens; then back to the tree). */
async function createFile(page: Page, path: string, content: string): Promise<void> {
  const panel = page.getByTestId("files");
  await panel.getByRole("button", { name: "New file" }).click();
  const form = panel.getByRole("form", { name: "New file" });
  await form.getByLabel("Path").fill(path);
  await form.getByLabel("Content").fill(content);
  await form.getByRole("button", { name: "Create" }).click();
  // A created file opens in the viewer; closing it goes back to the tree, which lists it.
  const viewer = page.getByTestId("file-viewer");
  await expect(viewer).toHaveAttribute("data-path", path);
  await viewer.getByRole("button", { name: "Close file" }).click();
  await expect(fileButton(page, path)).toBeVisible();
}

function fileButton(page: Page, path: string) {
  return page.getByTestId("files").locator(`[data-testid="file"][data-path="${path}"]`);
}

/** Opens `path` in the file viewer (through the Files panel) and returns the viewer. */
async function openFile(page: Page, path: string) {
  await page.getByRole("tab", { name: "Files" }).click();
  const viewer = page.getByTestId("file-viewer");
  // Closing and reopening re-reads the file, so the viewer shows what is stored now.
  if (await viewer.isVisible()) await viewer.getByRole("button", { name: "Close file" }).click();
  await fileButton(page, path).click();
  await expect(viewer).toHaveAttribute("data-path", path);
  return viewer;
}

/** The file viewer shows exactly `text` for `path` (its code view's lines, joined). */
async function expectViewerText(page: Page, path: string, text: string): Promise<void> {
  const viewer = await openFile(page, path);
  const code = viewer.getByRole("region", { name: path, exact: true });
  await expect.poll(async () => (await code.locator("[data-line] .text").allTextContents()).join("\n")).toBe(text);
}

/** The tool messages of a recorded chat request. */
function toolResults(req: RecordedRequest | undefined): string[] {
  const messages = (req?.body.messages ?? []) as Array<{ role: string; content: unknown }>;
  return messages.filter((m) => m.role === "tool").map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)));
}

test("edit_file on an existing file: the dialog shows its origin and a diff; Approve changes the file", async ({ page }) => {
  const errors = watchErrors(page);
  const scope = providerScope("openai");
  await scope.script([
    {
      toolCalls: [{ id: "call_edit", name: "edit_file", args: { file_path: "/notes.md", old_string: "old line", new_string: "new line" } }],
    },
    { text: "Edited the note." },
  ]);
  await page.goto("/");
  await connectScope(page, scope, { approveWrites: true });
  await createFile(page, "/notes.md", "first\nold line\nlast\n");

  await send(page, "Please edit the note");
  const approval = page.getByTestId("approval");
  await expect(approval).toBeVisible();
  await expect(page.getByRole("dialog", { name: "Approve edit_file?" })).toBeVisible();
  await expect(page.getByTestId("approval-origin")).toHaveText(/Asked by\s*Main agent/);
  await expect(page.getByTestId("approval-action")).toHaveAttribute("data-tool", "edit_file");
  const diff = approval.getByRole("region", { name: "Diff of /notes.md" });
  await expect(diff).toBeVisible();
  await expect(diff.locator('[data-marker="−"]')).toHaveText(["old line"]);
  await expect(diff.locator('[data-marker="+"]')).toHaveText(["new line"]);
  await expect(diff).toContainText("first");
  await expect(page.getByTestId("tool-call")).toHaveAttribute("data-status", "waiting");
  // Nothing changed yet.
  expect(await scope.chatRequests()).toHaveLength(1);

  await page.setViewportSize({ width: 1280, height: 800 });
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: shot(`approval-diff-desktop-${scheme}`) });
  }
  await page.setViewportSize({ width: 390, height: 844 });
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: shot(`approval-diff-phone-${scheme}`) });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: "light" });

  await approval.getByTestId("approve").click();
  await expect(approval).toHaveCount(0);
  await idle(page);
  await expect(page.getByTestId("assistant-message").last()).toHaveText("Edited the note.");
  await expect(page.getByTestId("tool-call")).toHaveAttribute("data-status", "done");
  await expectViewerText(page, "/notes.md", "first\nnew line\nlast");
  const sent = await scope.chatRequests();
  expect(sent).toHaveLength(2);
  expect(toolResults(sent[1])).toHaveLength(1);
  expect(errors).toEqual([]);
});

test("write_file over an existing file shows a diff; Reject with a reason keeps the file and the model gets the reason", async ({
  page,
}) => {
  const errors = watchErrors(page);
  const scope = providerScope("openai");
  await scope.script([
    { toolCalls: [{ id: "call_write", name: "write_file", args: { file_path: "/plan.txt", content: "rewritten plan\n" } }] },
    { text: "Understood, I left the plan alone." },
  ]);
  await page.goto("/");
  await connectScope(page, scope, { approveWrites: true });
  await createFile(page, "/plan.txt", "step one\nstep two\n");

  await send(page, "Rewrite the plan");
  const approval = page.getByTestId("approval");
  await expect(page.getByTestId("approval-action")).toHaveAttribute("data-tool", "write_file");
  await expect(page.getByTestId("approval-origin")).toContainText("Main agent");
  const diff = approval.getByRole("region", { name: "Diff of /plan.txt" });
  await expect(diff.locator('[data-marker="−"]')).toHaveText(["step one", "step two"]);
  await expect(diff.locator('[data-marker="+"]')).toHaveText(["rewritten plan"]);

  await approval.getByLabel("Reason (the agent sees it)").fill("Keep the plan as it is, please.");
  await approval.getByTestId("reject").click();
  await expect(approval).toHaveCount(0);
  await idle(page);
  await expect(page.getByTestId("assistant-message").last()).toHaveText("Understood, I left the plan alone.");
  await expectViewerText(page, "/plan.txt", "step one\nstep two");

  const sent = await scope.chatRequests();
  expect(sent).toHaveLength(2);
  // The rejection's reason is the tool's result the model reads.
  const messages = sent[1]!.body.messages as Array<Record<string, unknown>>;
  expect(messages.at(-1)).toMatchObject({ role: "tool", tool_call_id: "call_write", content: "Keep the plan as it is, please." });
  expect(toolResults(sent[1])).toHaveLength(1);
  expect(errors).toEqual([]);
});

test("Edit the arguments: invalid or schema-violating JSON is refused; valid edited arguments are what the tool runs with", async ({
  page,
}) => {
  const errors = watchErrors(page);
  const scope = providerScope("openai");
  await scope.script([
    { toolCalls: [{ id: "call_e", name: "edit_file", args: { file_path: "/todo.md", old_string: "milk", new_string: "oat milk" } }] },
    { text: "Done with your edit." },
  ]);
  await page.goto("/");
  await connectScope(page, scope, { approveWrites: true });
  await createFile(page, "/todo.md", "buy milk\nbuy bread\n");

  await send(page, "Change the shopping list");
  const approval = page.getByTestId("approval");
  await expect(approval.getByRole("region", { name: "Diff of /todo.md" })).toBeVisible();
  await approval.getByTestId("edit").click();
  const box = approval.getByRole("textbox", { name: "Edited arguments (JSON)" });
  // The box opens with the call's arguments and has the focus.
  await expect(box).toBeFocused();
  expect(JSON.parse(await box.inputValue())).toEqual({ file_path: "/todo.md", old_string: "milk", new_string: "oat milk" });
  const sendEdit = approval.getByTestId("send-edit");
  await expect(sendEdit).toBeEnabled();

  await box.fill('{ "file_path": "/todo.md", ');
  await expect(approval).toContainText("Not valid JSON");
  await expect(box).toHaveAttribute("aria-invalid", "true");
  await expect(sendEdit).toBeDisabled();

  await box.fill("[1, 2]");
  await expect(approval).toContainText("The arguments must be a JSON object");
  await expect(sendEdit).toBeDisabled();

  // JSON, but not what edit_file takes: the schema check refuses it.
  await box.fill(JSON.stringify({ file_path: 42, old_string: "milk", new_string: "rice milk" }));
  await expect(box).toHaveAttribute("aria-invalid", "true");
  await expect(approval).toContainText("argument 'file_path' must be of type string, got integer");
  await expect(sendEdit).toBeDisabled();
  // Nothing went to the model meanwhile.
  expect(await scope.chatRequests()).toHaveLength(1);

  await box.fill(JSON.stringify({ file_path: "/todo.md", old_string: "milk", new_string: "rice milk" }));
  await expect(box).not.toHaveAttribute("aria-invalid", "true");
  await expect(sendEdit).toBeEnabled();
  await sendEdit.click();
  await expect(approval).toHaveCount(0);
  await idle(page);
  await expect(page.getByTestId("assistant-message").last()).toHaveText("Done with your edit.");
  await expect(page.getByTestId("tool-call")).toHaveAttribute("data-status", "done");
  await expectViewerText(page, "/todo.md", "buy rice milk\nbuy bread");

  const sent = await scope.chatRequests();
  expect(sent).toHaveLength(2);
  expect(toolResults(sent[1])).toHaveLength(1);
  expect(errors).toEqual([]);
});

test("execute shows the command it will run; approved, it runs in the offline shell", async ({ page }) => {
  const errors = watchErrors(page);
  const scope = providerScope("openai");
  await scope.script([
    { toolCalls: [{ id: "call_x", name: "execute", args: { command: "echo approved-run && seq 3" } }] },
    { text: "The command ran." },
  ]);
  await page.goto("/");
  await connectScope(page, scope, { approveExecute: true });

  await send(page, "Run the command");
  const approval = page.getByTestId("approval");
  await expect(page.getByRole("dialog", { name: "Approve execute?" })).toBeVisible();
  await expect(page.getByTestId("approval-action")).toHaveAttribute("data-tool", "execute");
  await expect(approval.getByRole("region", { name: "Command of execute" })).toHaveText("echo approved-run && seq 3");
  await approval.getByTestId("approve").click();
  await expect(approval).toHaveCount(0);
  await idle(page);
  await expect(page.getByTestId("assistant-message").last()).toHaveText("The command ran.");
  const sent = await scope.chatRequests();
  expect(toolResults(sent[1]).join("\n")).toContain("approved-run\n1\n2\n3");
  await page.getByRole("tab", { name: "Terminal" }).click();
  await expect(page.getByRole("tabpanel")).toContainText("echo approved-run && seq 3");
  expect(errors).toEqual([]);
});

test("keyboard: the focus moves into the dialog and stays there; Enter approves", async ({ page }) => {
  const errors = watchErrors(page);
  const scope = providerScope("openai");
  await scope.script([
    { toolCalls: [{ id: "call_k", name: "execute", args: { command: "echo keyboard" } }] },
    { text: "Ran it from the keyboard." },
  ]);
  await page.goto("/");
  await connectScope(page, scope);

  await send(page, "Run it");
  const dialog = page.getByRole("dialog", { name: "Approve execute?" });
  const command = dialog.getByRole("region", { name: "Command of execute" });
  await expect(command).toBeFocused();

  /** Where the focus is: "dialog:<name>" inside the dialog, "page:<name>" elsewhere in the page, "none" outside the document. */
  const where = () =>
    page.evaluate(() => {
      const el = document.activeElement;
      if (!el || el === document.body) return "none";
      const labelled = el instanceof HTMLTextAreaElement ? el.labels[0]?.textContent : null;
      const name = el.getAttribute("aria-label") ?? el.getAttribute("data-testid") ?? labelled ?? el.tagName;
      return `${el.closest("dialog[open]") ? "dialog" : "page"}:${name}`;
    });
  const start = await where();
  const seen: string[] = [];
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press("Tab");
    seen.push(await where());
  }
  // Never on the page behind the dialog: Tab goes through the dialog's controls, past the last one out of the
  // document (Chromium's modal dialog hands the focus to the browser's own UI, "none"), then round to the start.
  expect(seen.filter((w) => w.startsWith("page:"))).toEqual([]);
  const cycle = ["dialog:Reason (the agent sees it)", "dialog:approve", "dialog:edit", "dialog:reject", "dialog:respond"];
  expect(seen.slice(0, 5)).toEqual(cycle);
  expect(seen.slice(5, 7)).toEqual(["none", start]);
  expect(seen.slice(7)).toEqual(cycle);

  // Back on the command (not a control): Enter approves.
  while ((await where()) !== start) await page.keyboard.press("Tab");
  await expect(command).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(dialog).toHaveCount(0);
  await idle(page);
  await expect(page.getByTestId("assistant-message").last()).toHaveText("Ran it from the keyboard.");
  expect(toolResults((await scope.chatRequests())[1]).join("\n")).toContain("keyboard");
  expect(errors).toEqual([]);
});

test("text typed in the composer while the run pauses for approval stays in the box and can be sent afterwards", async ({ page }) => {
  const errors = watchErrors(page);
  const scope = providerScope("openai");
  await scope.script([
    // Slow: the person types while the model is still answering.
    { toolCalls: [{ id: "call_c", name: "execute", args: { command: "echo composer" } }], delayMs: 2500 },
    { text: "First task done." },
    { text: "Got your follow-up.", when: { lastUserIncludes: "my follow-up" } },
  ]);
  await page.goto("/");
  await connectScope(page, scope);

  await send(page, "Start the first task");
  await expect(page.getByTestId("messages")).toHaveAttribute("data-running", "true");
  const box = page.getByRole("textbox", { name: "Message" });
  // Typed while it runs, not sent (Enter during the run would queue it for the agent: steer.spec.ts).
  await box.fill("my follow-up, typed while it runs");

  const approval = page.getByTestId("approval");
  await expect(approval).toBeVisible();
  // The pause keeps the text, and says so (the box sits behind the modal dialog until it is answered).
  await expect(box).toHaveValue("my follow-up, typed while it runs");
  await expect(page.getByText("The agent is waiting for your approval.")).toContainText("Your text stays here.");
  await expect(page.getByTestId("send")).toBeDisabled();
  await expect(page.getByTestId("user-message")).toHaveText(["Start the first task"]);

  await approval.getByTestId("approve").click();
  await expect(approval).toHaveCount(0);
  await idle(page);
  await expect(page.getByTestId("assistant-message").last()).toHaveText("First task done.");
  await expect(box).toHaveValue("my follow-up, typed while it runs");
  await box.press("Enter");
  await idle(page);
  await expect(page.getByTestId("user-message")).toHaveText(["Start the first task", "my follow-up, typed while it runs"]);
  await expect(page.getByTestId("assistant-message").last()).toHaveText("Got your follow-up.");
  await expect(box).toHaveValue("");
  expect(await scope.chatRequests()).toHaveLength(3);
  expect(errors).toEqual([]);
});

test("execute answered with Respond shows Responded, a rejected one Rejected (not Done or Error); no Retry while a pause waits", async ({
  page,
}) => {
  const errors = watchErrors(page);
  const scope = providerScope("openai");
  await scope.script([
    { text: "Hello there." },
    { toolCalls: [{ id: "call_build", name: "execute", args: { command: "npm run build" } }] },
    { text: "OK, I will not build." },
    { toolCalls: [{ id: "call_rm", name: "execute", args: { command: "rm -rf /tmp/cache" } }] },
    { text: "Understood, nothing removed." },
  ]);
  await page.goto("/");
  await connectScope(page, scope, { approveExecute: true });
  await send(page, "hi");
  await idle(page);
  await expect(page.getByTestId("assistant-message").last()).toHaveText("Hello there.");
  const retry = page.getByTestId("messages").locator("button", { hasText: /^Retry$/ });
  await expect(retry).toHaveCount(1);

  await send(page, "Build it");
  const approval = page.getByTestId("approval");
  await expect(approval).toBeVisible();
  // The pause is part of this turn: the earlier answer offers no Retry meanwhile.
  await expect(retry).toHaveCount(0);
  await approval.getByTestId("respond").click();
  await approval.getByLabel("Answer instead of running the tool").fill("The build is already done.");
  await approval.getByTestId("send-answer").click();
  await expect(approval).toHaveCount(0);
  await idle(page);
  await expect(page.getByTestId("assistant-message").last()).toHaveText("OK, I will not build.");
  const build = page.getByTestId("tool-call").filter({ hasText: "npm run build" });
  await expect(build).toHaveAttribute("data-status", "responded");
  await expect(build).toContainText("Responded");
  await expect(build).not.toContainText(/Done|Error/);
  // The model got the answer as the tool's result.
  const afterRespond = await scope.chatRequests();
  expect((afterRespond.at(-1)!.body.messages as Array<Record<string, unknown>>).at(-1)).toMatchObject({
    role: "tool",
    tool_call_id: "call_build",
    content: "The build is already done.",
  });

  await send(page, "Clean the cache");
  await expect(approval).toBeVisible();
  await approval.getByTestId("reject").click();
  await expect(approval).toHaveCount(0);
  await idle(page);
  const rm = page.getByTestId("tool-call").filter({ hasText: "rm -rf /tmp/cache" });
  await expect(rm).toHaveAttribute("data-status", "rejected");
  await expect(rm).toContainText("Rejected");
  await expect(rm).not.toContainText(/Done|Error/);
  await expect(retry).toHaveCount(1);
  // The terminal lists both as not run.
  await page.getByRole("tab", { name: "Terminal" }).click();
  await expect(page.getByTestId("command-status")).toHaveText(["Responded (not run)", "Rejected (not run)"]);
  expect(errors).toEqual([]);
});
