/**
 * Steering a running agent in the built app, with the model served by the loopback OpenAI-compatible server:
 *
 * - While a `task` call runs (its subagent waits on a slow reply), messages typed into the composer and sent with
 *   Enter are queued; one is edited and one withdrawn, by keyboard alone. The kept one lands in the timeline after
 *   the task's result and before the next answer, and the model's next request carries it last (the subagent's
 *   never does; the withdrawn text is in no request).
 * - A message sent during the last model call is still queued when the run ends: it starts the next turn by itself.
 */
import { expect, type Page } from "@playwright/test";
import { axeViolations, connect, idle, send, shot, watchErrors } from "./app.ts";
import { providerScope, type ProviderScope, type RecordedRequest, type ServerReply } from "./control.ts";
import { test } from "./fixtures.ts";

async function connectScope(page: Page, scope: ProviderScope): Promise<void> {
  await connect(page, { provider: "openai-compatible", baseUrl: scope.baseUrl, model: "gpt-4o-mini" });
}

/** A request's messages as `role:text`. */
function said(req: RecordedRequest): string[] {
  const messages = (req.body.messages ?? []) as Array<{ role: string; content: unknown }>;
  return messages.map((m) => `${m.role}:${typeof m.content === "string" ? m.content : JSON.stringify(m.content)}`);
}

/** The top-level timeline as `kind:text` in the order shown (user messages, tool cards by tool, answers). */
function timeline(page: Page): Promise<string[]> {
  return page
    .getByTestId("messages")
    .locator('[data-testid="user-message"], [data-testid="tool-call"], [data-testid="assistant-message"]')
    .evaluateAll((nodes) =>
      // A subagent's messages, nested under its task card, are left out.
      nodes
        .filter((n) => !n.parentElement?.closest('[data-testid="tool-call"]'))
        .map((n) => {
          const kind = n.getAttribute("data-testid");
          return kind === "tool-call" ? `tool:${n.getAttribute("data-tool")}` : `${kind}:${n.textContent?.trim() ?? ""}`;
        }),
    );
}

/** Types into the composer and presses Enter (the keyboard's way to send or queue). */
async function typeAndEnter(page: Page, text: string): Promise<void> {
  const box = page.getByRole("textbox", { name: "Message" });
  await box.focus();
  await page.keyboard.type(text);
  await page.keyboard.press("Enter");
}

test("steer mid-run by keyboard: queue, edit, withdraw; the message lands after the running task and the next request carries it", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const errors = watchErrors(page);
  const scope = providerScope("openai");
  // The subagent's reply is slow: the task call stays in flight while the person steers. (Twice: a resent request.)
  const slowChild: ServerReply = { when: { lastUserIncludes: "DIG-DEEP" }, text: "Dug it up.", delayMs: 20_000 };
  await scope.script([
    {
      when: { lastUserIncludes: "STEER-GO", toolResults: 0 },
      toolCalls: [{ id: "call_task", name: "task", args: { description: "DIG-DEEP", subagent_type: "general-purpose" } }],
    },
    slowChild,
    slowChild,
    { when: { lastUserIncludes: "Use tabs, not spaces", toolResults: 1 }, text: "Done, with tabs." },
  ]);
  await page.goto("/");
  await connectScope(page, scope);
  await send(page, "STEER-GO");
  await expect(page.getByTestId("tool-call").first()).toHaveAttribute("data-tool", "task");
  await expect(page.getByTestId("messages")).toHaveAttribute("data-running", "true");

  await typeAndEnter(page, "Use spaces");
  await typeAndEnter(page, "Withdraw me");
  const queued = page.getByTestId("queued-message");
  await expect(queued).toHaveCount(2);
  await expect(queued.first()).toContainText("Queued");
  await expect(page.getByTestId("queued-messages")).toContainText("at its next step");

  // Edit the first by keyboard: Enter on Edit, replace the text, Enter saves.
  await page.getByRole("button", { name: "Edit queued message: Use spaces" }).focus();
  await page.keyboard.press("Enter");
  const editBox = page.getByRole("textbox", { name: "Edit queued message" });
  await expect(editBox).toBeFocused();
  await editBox.fill("");
  await page.keyboard.type("Use tabs, not spaces");
  await page.keyboard.press("Enter");
  await expect(queued.first()).toContainText("Use tabs, not spaces");
  // Withdraw the second by keyboard.
  await page.getByRole("button", { name: "Withdraw queued message: Withdraw me" }).focus();
  await page.keyboard.press("Enter");
  await expect(queued).toHaveCount(1);
  expect(await axeViolations(page, '[data-testid="queued-messages"]')).toEqual([]);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: shot("steer-queued-desktop") });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: shot("steer-queued-phone") });
  await page.setViewportSize({ width: 1280, height: 800 });

  await idle(page, 60_000);
  await expect(queued).toHaveCount(0);
  expect(await timeline(page)).toEqual([
    "user-message:STEER-GO",
    "tool:task",
    "user-message:Use tabs, not spaces",
    "assistant-message:Done, with tabs.",
  ]);
  const requests = (await scope.chatRequests()).map(said);
  const next = requests.at(-1)!;
  expect(next.slice(-2)).toEqual([expect.stringMatching(/^tool:/), "user:Use tabs, not spaces"]);
  const child = requests.filter((r) => r.some((m) => m.includes("DIG-DEEP")) && !r.some((m) => m.includes("STEER-GO")));
  expect(child.length).toBeGreaterThan(0);
  expect(child.flat().join("\n")).not.toContain("Use tabs");
  expect(requests.flat().join("\n")).not.toContain("Withdraw me");
  expect(errors).toEqual([]);
});

test("a message queued when the run ends starts the next turn", async ({ page }) => {
  const errors = watchErrors(page);
  const scope = providerScope("openai");
  const slowAnswer: ServerReply = { when: { lastUserIncludes: "END-GO" }, text: "First answer.", delayMs: 4000 };
  await scope.script([slowAnswer, slowAnswer, { when: { lastUserIncludes: "QUEUED-AFTER" }, text: "Next turn answer." }]);
  await page.goto("/");
  await connectScope(page, scope);
  await send(page, "END-GO");
  // The model call is under way (a message sent before it would join this very call).
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-phase", "waiting");
  await typeAndEnter(page, "QUEUED-AFTER the answer");
  await expect(page.getByTestId("queued-message")).toHaveCount(1);

  await expect(page.getByTestId("assistant-message").last()).toHaveText("Next turn answer.", { timeout: 60_000 });
  await idle(page);
  await expect(page.getByTestId("queued-message")).toHaveCount(0);
  expect(await timeline(page)).toEqual([
    "user-message:END-GO",
    "assistant-message:First answer.",
    "user-message:QUEUED-AFTER the answer",
    "assistant-message:Next turn answer.",
  ]);
  const requests = (await scope.chatRequests()).map(said);
  expect(requests.at(-1)!.at(-1)).toBe("user:QUEUED-AFTER the answer");
  expect(requests.filter((r) => r.at(-1) === "user:QUEUED-AFTER the answer")).toHaveLength(1);
  expect(errors).toEqual([]);
});
