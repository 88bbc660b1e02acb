/**
 * The person's terminal in the built app, by keyboard: a command typed in the Terminal panel writes a file that the
 * agent (the loopback OpenAI-compatible server, scripted to call read_file) then reads, and a file the agent wrote
 * (write_file) is printed by the person's `cat`; Ctrl+C stops a runaway loop; nothing the person ran reaches the
 * model until "Share with the agent" puts it in the next message. axe finds nothing on the panel; screenshots at
 * 1280×800 and 390×844.
 */
import { expect, type Page } from "@playwright/test";
import { AFTER_LOAD, axeViolations, connect, idle, send, shot, watchErrors } from "./app.ts";
import { providerScope, type RecordedRequest } from "./control.ts";
import { test } from "./fixtures.ts";

/** The tool results and the last user message of a recorded chat request. */
function partsOf(req: RecordedRequest | undefined) {
  const messages = (req?.body.messages ?? []) as Array<{ role: string; content: unknown }>;
  const text = (c: unknown) => (typeof c === "string" ? c : JSON.stringify(c));
  return {
    tools: messages.filter((m) => m.role === "tool").map((m) => text(m.content)),
    lastUser: text(messages.filter((m) => m.role === "user").at(-1)?.content),
    all: messages.map((m) => text(m.content)).join("\n"),
  };
}

/** What xterm shows (its rows' text). */
const screen = (page: Page) => page.getByTestId("person-terminal").locator(".xterm-rows");

/** Types a command in the focused terminal and presses Enter. */
async function typeCommand(page: Page, command: string): Promise<void> {
  await page.keyboard.type(command);
  await page.keyboard.press("Enter");
}

test("a command the person types shares the files with the agent, Ctrl+C stops a loop, and Share puts it in the next message", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const errors = watchErrors(page);
  const scope = providerScope("openai");
  await scope.script([
    { toolCalls: [{ id: "call_read", name: "read_file", args: { file_path: "/person.txt" } }] },
    { toolCalls: [{ id: "call_write", name: "write_file", args: { file_path: "/agent.txt", content: "from-agent\n" } }] },
    { text: "Read yours, wrote mine." },
    { text: "Thanks for sharing." },
  ]);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/");
  await connect(page, {
    provider: "openai-compatible",
    baseUrl: scope.baseUrl,
    model: "gpt-4o-mini",
    approveWrites: false,
    approveExecute: false,
  });

  // To the terminal by keyboard: the Terminal tab, then Tab past the screen-reader switch into xterm.
  await page.getByRole("tab", { name: "Files" }).focus();
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await expect(page.getByRole("tab", { name: "Terminal" })).toHaveAttribute("aria-selected", "true");
  const panel = page.getByRole("tabpanel", { name: "Terminal" });
  await expect(panel.getByRole("heading", { name: "Your terminal" })).toBeVisible();
  await expect(screen(page)).toContainText("Your terminal: this thread's shell", AFTER_LOAD);
  await panel.getByRole("checkbox", { name: "Screen reader mode" }).focus();
  await page.keyboard.press("Tab");
  await expect(page.getByRole("textbox", { name: "Terminal input" })).toBeFocused();

  // The person writes a file; the agent's read_file reads it.
  await typeCommand(page, "echo from-person > /person.txt && echo wrote-it");
  await expect(screen(page)).toContainText("wrote-it", AFTER_LOAD);
  await expect(panel.getByTestId("person-command")).toHaveAttribute("data-state", "succeeded");
  await send(page, "Read my file, then leave me one.");
  await idle(page, 60_000);
  await expect(page.getByTestId("assistant-message").last()).toHaveText("Read yours, wrote mine.");
  let sent = await scope.chatRequests();
  expect(partsOf(sent[1]).tools[0]).toContain("from-person");
  // The person's command itself never reached the model.
  expect(sent.map((r) => partsOf(r).all).join("\n")).not.toContain("echo from-person");

  // The agent's write_file wrote a file; the person's cat prints it.
  await page.getByRole("textbox", { name: "Terminal input" }).focus();
  await typeCommand(page, "cat /agent.txt");
  await expect(screen(page)).toContainText("from-agent", AFTER_LOAD);
  await expect(panel.getByTestId("person-command")).toHaveCount(2);

  // History: Up brings the last command back; Ctrl+C drops the line.
  await page.keyboard.press("ArrowUp");
  await expect(screen(page)).toContainText("$ cat /agent.txt", AFTER_LOAD);
  await page.keyboard.press("Control+C");

  // Ctrl+C stops a runaway loop.
  await typeCommand(page, "while true; do :; done");
  await expect(page.getByTestId("person-command")).toHaveCount(2);
  await page.keyboard.press("Control+C");
  await expect(panel.getByTestId("person-command").first()).toHaveAttribute("data-state", "cancelled", AFTER_LOAD);

  // The agent's own commands stay listed under the terminal.
  await expect(panel.getByRole("region", { name: "The agent's commands" })).toBeVisible();

  expect(await axeViolations(page, '[role="tabpanel"]')).toEqual([]);
  await page.screenshot({ path: shot("terminal-desktop") });

  // Share with the agent (by keyboard): the cat command and its output go into the message box, then the next request.
  await panel.getByText(/Your commands \(3\)/).focus();
  await page.keyboard.press("Enter");
  await panel.getByRole("button", { name: "Share with the agent: cat /agent.txt" }).focus();
  await page.keyboard.press("Enter");
  await expect(panel.getByRole("status")).toHaveText(/Added "cat \/agent.txt" and its output to your message/);
  const box = page.getByRole("textbox", { name: "Message" });
  await expect(box).toHaveValue(/I ran this in the terminal \(exit code 0\):\n```\n\$ cat \/agent.txt\nfrom-agent\n```/);
  expect(await axeViolations(page, '[role="tabpanel"]')).toEqual([]);
  await expect(page.getByTestId("send")).toBeEnabled();
  await box.press("Enter");
  await idle(page, 60_000);
  sent = await scope.chatRequests();
  expect(sent).toHaveLength(4);
  expect(partsOf(sent[3]).lastUser).toContain("$ cat /agent.txt");
  expect(partsOf(sent[3]).lastUser).toContain("from-agent");
  expect(partsOf(sent[3]).all).not.toContain("while true");

  await page.setViewportSize({ width: 390, height: 844 });
  const sheet = page.getByRole("button", { name: "Files and tools" });
  if (await sheet.isVisible()) await sheet.click();
  await page.getByRole("tab", { name: "Terminal" }).click();
  await expect(screen(page)).toContainText("from-agent", AFTER_LOAD);
  await page.screenshot({ path: shot("terminal-phone") });
  expect(await axeViolations(page, '[role="tabpanel"]')).toEqual([]);
  expect(errors).toEqual([]);
});
