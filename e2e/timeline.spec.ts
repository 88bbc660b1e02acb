/**
 * The timeline for real work, in the built app against the loopback
 * OpenAI-compatible server (scripted replies, real streaming), driven only
 * through the UI: a Markdown answer visible while it streams and rendered
 * after (heading, list, highlighted code, a link opening in a new tab); tool
 * cards (name, the path, duration, result folded, an error standing out); a
 * subagent's activity nested live under its task card; the todo checklist
 * following write_todos; an offloaded result opening in the file viewer;
 * Stop keeping the partial answer (and focus in the box) across a reload; a
 * reload mid-run marked interrupted, then Continue; editing a message and
 * Retry making branches the switcher moves between; a provider repeating
 * tool-call id `call_0` on every turn across reloads; two subagents in one
 * step, each with its own status; the context meter and each turn's usage
 * with the numbers the provider reported; the summarization marker opening
 * the history file; the live region announcing a finished answer once, as
 * text; what the answer waits for between Send and its first token.
 * Screenshots of a rich timeline at desktop and phone sizes, light
 * and dark.
 */
import { expect, type Page } from "@playwright/test";
import { AFTER_LOAD, connect, idle, recordStreamed, send, shot, streamedTexts, turn, watchErrors, type Connection } from "./app.ts";
import { providerScope, type ProviderScope } from "./control.ts";
import { test } from "./fixtures.ts";

/** A fresh page connected to a scope of its own on the OpenAI-compatible server. */
async function start(page: Page, extra: Partial<Connection> = {}): Promise<ProviderScope> {
  const scope = providerScope("openai");
  await page.goto("/");
  await connect(page, { provider: "openai-compatible", baseUrl: scope.baseUrl, model: "e2e-model", ...extra });
  return scope;
}

/** Records each text the live region (aria-live) takes, as it changes. */
async function watchAnnouncements(page: Page): Promise<void> {
  await page.evaluate(() => {
    const region = document.querySelector('[data-testid="announce"]')!;
    const seen: string[] = [];
    (window as unknown as { announced: string[] }).announced = seen;
    let last = region.textContent ?? "";
    new MutationObserver(() => {
      const now = region.textContent ?? "";
      if (now !== last && now.trim()) seen.push(now);
      last = now;
    }).observe(region, { childList: true, characterData: true, subtree: true });
  });
}

const announcements = (page: Page) => page.evaluate(() => (window as unknown as { announced: string[] }).announced);

const MARKDOWN = [
  "# Release plan\n\n",
  "- write the notes\n",
  "- tag the build\n\n",
  "```ts\nconst answer: number = 42;\n",
  "```\n\n",
  "See [the guide](https://example.com/guide) for more.",
];

test("a Markdown answer streams visibly, then shows as a heading, a list, highlighted code and a safe link", async ({ page }) => {
  const errors = watchErrors(page);
  const scope = await start(page);
  await scope.script([{ chunks: MARKDOWN, delayMs: 250 }]);
  await watchAnnouncements(page);
  await send(page, "Plan the release");

  const live = page.getByTestId("assistant-live");
  await expect(live).toBeVisible();
  await expect(live).toContainText("Release plan");
  // Still streaming: the answer is not final yet, and the run is on.
  await expect(page.getByTestId("messages")).toHaveAttribute("data-running", "true");
  await idle(page);

  await expect(live).toHaveCount(0);
  const answer = page.getByTestId("assistant-message");
  await expect(answer).toHaveCount(1);
  await expect(answer.getByRole("heading", { level: 1 })).toHaveText("Release plan");
  await expect(answer.getByRole("listitem")).toHaveText(["write the notes", "tag the build"]);
  const code = answer.locator("pre code");
  await expect(code).toContainText("const answer: number = 42;");
  await expect(code.locator('[class*="hljs-"]').first()).toBeVisible();
  const link = answer.getByRole("link", { name: "the guide" });
  await expect(link).toHaveAttribute("href", "https://example.com/guide");
  await expect(link).toHaveAttribute("target", "_blank");
  await expect(link).toHaveAttribute("rel", "noopener noreferrer");
  // Screen readers hear the finished answer once, as its words (not per token, not its Markdown source).
  expect(await announcements(page)).toEqual([
    "Release plan\nwrite the notes\ntag the build\nconst answer: number = 42;\nSee the guide for more.",
  ]);
  expect(errors).toEqual([]);
});

test("between Send and the first token the pending answer says what it waits for; the words go when the text comes", async ({ page }) => {
  const errors = watchErrors(page);
  const scope = await start(page);
  // The server takes 3 s before each chunk: long enough to see the wait.
  await scope.script([{ chunks: ["First", " words."], delayMs: 3_000 }]);
  await send(page, "Say something slowly");
  const host = new URL(scope.baseUrl).host;
  const status = page.getByTestId("run-status");
  await expect(status).toBeVisible();
  await expect(status).toHaveAttribute("data-phase", "waiting");
  await expect(status).toContainText(`Waiting for ${host}`);
  // Screen readers hear the words once (a polite live region that is always in the page).
  await expect(page.getByTestId("run-status-live")).toHaveText(`Waiting for ${host}`);
  await expect(page.getByTestId("assistant-live")).toContainText("First");
  await expect(status).toHaveCount(0);
  await expect(page.getByTestId("run-status-live")).toHaveText("");
  await idle(page);
  await expect(page.getByTestId("assistant-message")).toHaveText("First words.");
  await expect(status).toHaveCount(0);
  expect(errors).toEqual([]);
});

test("tool cards: name, path, duration, the result folded until opened, a failed call standing out", async ({ page }) => {
  const errors = watchErrors(page);
  const scope = await start(page);
  await scope.script([
    {
      toolCalls: [
        { name: "write_file", args: { file_path: "/notes/plan.md", content: "step one\nstep two\n" } },
        { name: "read_file", args: { file_path: "/notes/missing.md" } },
      ],
    },
    { text: "Wrote the plan; the other file does not exist." },
  ]);
  await turn(page, "Write the plan and read the missing file");

  const cards = page.getByTestId("tool-call");
  await expect(cards).toHaveCount(2);
  const write = cards.nth(0);
  await expect(write).toHaveAttribute("data-tool", "write_file");
  await expect(write).toHaveAttribute("data-status", "done");
  await expect(write.getByRole("button", { name: /write_file/ })).toContainText("/notes/plan.md");
  // Status in words and how long it took ("3 ms", "1.2 s").
  await expect(write).toContainText(/Done\s*\d+(\.\d)? (ms|s)\s*$/);
  // Folded by default: the result is not shown until the header is opened.
  const toggle = write.getByRole("button", { name: /write_file/ });
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await expect(write).not.toContainText("Updated file");
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  await expect(write).toContainText("Updated file /notes/plan.md");
  await expect(write.getByText("Arguments")).toBeVisible();

  const read = cards.nth(1);
  await expect(read).toHaveAttribute("data-tool", "read_file");
  await expect(read).toHaveAttribute("data-status", "error");
  // The error shows while folded: the word and the message's first line.
  await expect(read.getByRole("button", { name: /read_file/ })).toHaveAttribute("aria-expanded", "false");
  await expect(read).toContainText("Error");
  await expect(read).toContainText(/not found/i);
  await expect(page.getByTestId("assistant-message").last()).toHaveText("Wrote the plan; the other file does not exist.");
  expect(errors).toEqual([]);
});

test("a subagent's tool calls and text show nested under its task card while it runs; then the parent answers", async ({ page }) => {
  const errors = watchErrors(page);
  const scope = await start(page);
  await scope.script([
    { toolCalls: [{ name: "task", args: { description: "List the files at the root", subagent_type: "general-purpose" } }] },
    // The subagent's own model calls (same server, in order): a tool call, then its report, slowly.
    { toolCalls: [{ name: "ls", args: { path: "/" } }], delayMs: 300 },
    { chunks: ["The root ", "is empty", ", nothing ", "to report."], delayMs: 700 },
    { text: "The subagent says the root is empty." },
  ]);
  await send(page, "Ask a subagent what is at the root");

  const task = page.getByTestId("tool-call").and(page.locator('[data-tool="task"]'));
  await expect(task).toHaveAttribute("data-status", "running");
  await expect(task.getByRole("button", { name: /task/ })).toContainText("general-purpose: List the files at the root");
  const nested = task.getByRole("group", { name: "Subagent activity" });
  const child = nested.getByTestId("tool-call");
  await expect(child).toHaveAttribute("data-tool", "ls");
  await expect(child).toHaveAttribute("data-status", "done");
  // The child's text streams in under the card before the task is done.
  await expect(nested.getByTestId("assistant-live")).toContainText("The root");
  await expect(task).toHaveAttribute("data-status", "running");

  await idle(page);
  await expect(task).toHaveAttribute("data-status", "done");
  await expect(nested.getByTestId("assistant-message")).toHaveText("The root is empty, nothing to report.");
  await expect(page.getByTestId("tool-call")).toHaveCount(2);
  await expect(page.getByTestId("assistant-message").last()).toHaveText("The subagent says the root is empty.");
  // The subagent asked the model itself, without the task tool; the parent with it.
  const tools = (await scope.chatRequests()).map((r) =>
    ((r.body.tools as Array<{ function: { name: string } }> | undefined) ?? []).map((t) => t.function.name),
  );
  expect(tools).toHaveLength(4);
  expect(tools.map((names) => names.includes("task"))).toEqual([true, false, false, true]);
  expect(errors).toEqual([]);
});

test("two subagents in one step: the one that finishes first is Done while the other still runs", async ({ page }) => {
  const errors = watchErrors(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  const scope = await start(page);
  await scope.script([
    {
      toolCalls: [
        { name: "task", args: { description: "Quick job: say hello", subagent_type: "general-purpose" } },
        { name: "task", args: { description: "Slow job: think it over", subagent_type: "general-purpose" } },
      ],
    },
    // Each subagent's request is answered by the reply made for it, whichever comes first.
    { when: { lastUserIncludes: "Quick job" }, text: "Hello from the quick one." },
    { when: { lastUserIncludes: "Slow job" }, chunks: ["Thinking ", "it ", "over, ", "done."], delayMs: 1_500 },
    { text: "Both subagents reported." },
  ]);
  await send(page, "Run two subagents at once");

  const tasks = page.getByTestId("tool-call").and(page.locator('[data-tool="task"]'));
  await expect(tasks).toHaveCount(2);
  const [quick, slow] = [tasks.nth(0), tasks.nth(1)];
  await expect(quick.getByRole("button", { name: /task/ })).toContainText("Quick job");
  await expect(quick).toHaveAttribute("data-status", "done");
  await expect(quick).toContainText(/Done\s*\d+(\.\d)? (ms|s)/);
  await expect(quick.getByRole("group", { name: "Subagent activity" })).toContainText("Hello from the quick one.");
  // Meanwhile the slow one still runs, its own status.
  await expect(slow).toHaveAttribute("data-status", "running");
  await expect(page.getByTestId("messages")).toHaveAttribute("data-running", "true");
  await page.screenshot({ path: shot("timeline-parallel-subagents") });

  await idle(page);
  await expect(slow).toHaveAttribute("data-status", "done");
  await expect(quick).toHaveAttribute("data-status", "done");
  await expect(tasks).toHaveCount(2);
  await expect(page.getByTestId("assistant-message").last()).toHaveText("Both subagents reported.");
  expect(errors).toEqual([]);
});

test("the context meter and each turn's usage show what the provider reported, subagents and cache reads included", async ({ page }) => {
  const errors = watchErrors(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  const scope = await start(page);
  await scope.script([
    {
      toolCalls: [{ name: "task", args: { description: "Count the files", subagent_type: "general-purpose" } }],
      usage: { input: 1_000, output: 20 },
    },
    { when: { lastUserIncludes: "Count the files" }, text: "There are none.", usage: { input: 400, output: 10, cacheRead: 300 } },
    { text: "The subagent found no files.", usage: { input: 1_500, output: 25, cacheRead: 1_000 } },
    { text: "You are welcome.", usage: { input: 1_600, output: 5, cacheRead: 1_500 } },
  ]);
  await turn(page, "How many files are there?");

  // The turn: the main agent's two calls (one only called a tool) and the subagent's one.
  const usage = page.getByTestId("turn-usage");
  await expect(usage).toHaveText([
    "3 model calls · 2,900 in · 55 out · 1,300 cached " + "(subagents: 1 call · 400 in · 10 out · 300 cached)",
  ]);
  const meter = page.getByTestId("context-meter").filter({ visible: true });
  // The last request: 1,500 prompt tokens (cache reads are part of them) and its 25-token answer, in the
  // window the agent runs with (the loopback server reports none, so 8,192 is assumed and said so).
  await expect(meter.getByTestId("context-used")).toHaveText("1.5k / 8.2k");
  await expect(meter.getByRole("meter")).toHaveAttribute(
    "aria-label",
    "Context: 1.5k of 8.2k tokens; summarizes at 7.0k (assumed 8,192 tokens — the server did not say; set it in Settings)",
  );
  await expect(meter.getByTestId("thread-usage")).toHaveText("2.9k in · 55 out · 1.3k cached");
  await page.screenshot({ path: shot("timeline-usage-desktop") });
  // On a phone the meter and the usage fit without sideways scrolling.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId("context-meter").filter({ visible: true }).getByTestId("context-used")).toHaveText("1.5k / 8.2k");
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  expect(await page.getByTestId("messages").evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
  await page.screenshot({ path: shot("timeline-usage-phone") });
  await page.setViewportSize({ width: 1280, height: 800 });

  await turn(page, "Thanks");
  await expect(usage).toHaveText([
    "3 model calls · 2,900 in · 55 out · 1,300 cached (subagents: 1 call · 400 in · 10 out · 300 cached)",
    "1 model call · 1,600 in · 5 out · 1,500 cached",
  ]);
  await expect(meter.getByTestId("context-used")).toHaveText("1.6k / 8.2k");
  await expect(meter.getByTestId("thread-usage")).toHaveText("4.5k in · 60 out · 2.8k cached");
  // The same numbers after a reload (from the checkpoints, not the stream).
  await page.reload();
  await expect(page.getByTestId("turn-usage")).toHaveCount(2);
  await expect(page.getByTestId("context-meter").filter({ visible: true }).getByTestId("thread-usage")).toHaveText(
    "4.5k in · 60 out · 2.8k cached",
  );
  expect(errors).toEqual([]);
});

test("summarization shows its marker in the timeline, and the marker opens the history file in the viewer", async ({ page }) => {
  const errors = watchErrors(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  const scope = await start(page, { contextWindow: 8_192 });
  // A first answer of about 7,800 tokens (as the server reports it: the harness trusts reported usage): the
  // next request is over the trigger (85% of 8,192) and is summarized.
  const long = Array.from({ length: 600 }, (_, i) => `Paragraph ${i + 1} of the long first answer, with words.`).join("\n\n");
  await scope.script([
    { text: long, usage: { input: 900, output: 7_800 } },
    { text: "The user asked for a long answer and got one about paragraphs." },
    { chunks: ["Short answer ", "after the summary."], delayMs: 200 },
  ]);
  await turn(page, "Write something very long");
  const marker = page.getByRole("note").filter({ hasText: "Earlier messages were summarized" });
  await expect(marker).toHaveCount(0);
  // Every text the streaming answer shows, to check the summary never shows as an answer.
  await recordStreamed(page);
  await turn(page, "Now something short");
  await expect(marker).toBeVisible();
  const link = marker.getByRole("button", { name: /^\/conversation_history\// });
  const path = (await link.textContent())!.trim();
  expect(path).toMatch(/^\/conversation_history\/.+/);
  // The marker stands before the message that was kept verbatim.
  const order = await page
    .getByTestId("messages")
    .evaluate((el) =>
      [...el.querySelectorAll('[role="note"], [data-testid="user-message"]')].map((n) => n.textContent?.trim().slice(0, 30)),
    );
  expect(order).toEqual(["Write something very long", expect.stringContaining("Earlier messages were summ"), "Now something short"]);
  await expect(page.getByTestId("assistant-message").last()).toHaveText("Short answer after the summary.");
  const streamed = await streamedTexts(page);
  expect(streamed.some((t) => t.includes("Short answer"))).toBe(true);
  expect(streamed.filter((t) => t.includes("The user asked for a long answer"))).toEqual([]);
  await page.screenshot({ path: shot("timeline-summary-marker") });

  await link.click();
  const viewer = page.getByTestId("file-viewer");
  await expect(viewer).toBeVisible();
  await expect(viewer).toHaveAttribute("data-path", path);
  await expect(viewer.getByRole("heading", { name: path })).toBeVisible();
  await expect(viewer).toContainText("Write something very long");
  await expect(viewer).toContainText("Paragraph 1 of the long first answer");
  // The model's last request carried the summary instead of the long answer.
  const last = JSON.stringify((await scope.chatRequests()).at(-1)!.body.messages);
  expect(last).toContain("The user asked for a long answer");
  expect(last).not.toContain("Paragraph 300 of the long first answer");
  expect(errors).toEqual([]);
});

const todos = (...statuses: Array<"pending" | "in_progress" | "completed">) => ({
  todos: ["Read the brief", "Draft the notes", "Send the notes"].map((content, i) => ({ content, status: statuses[i] })),
});

test("write_todos shows a checklist in the Todos tab; the next write_todos updates it", async ({ page }) => {
  const errors = watchErrors(page);
  const scope = await start(page);
  await scope.script([
    { toolCalls: [{ name: "write_todos", args: todos("in_progress", "pending", "pending") }] },
    { text: "Planned." },
    { toolCalls: [{ name: "write_todos", args: todos("completed", "completed", "in_progress") }] },
    { text: "Two of three done." },
  ]);
  await turn(page, "Plan it as todos");

  const tab = page.getByRole("tab", { name: /^Todos/ });
  await expect(tab).toHaveText("Todos 0/3");
  await tab.click();
  const panel = page.getByRole("tabpanel", { name: /^Todos/ });
  const items = panel.getByRole("list", { name: "Todos" }).getByRole("listitem");
  await expect(items).toHaveText([/In progress: Read the brief$/, /Pending: Draft the notes$/, /Pending: Send the notes$/]);
  await expect(panel).toContainText("0 of 3 done");
  await expect(page.getByTestId("tool-call")).toContainText("3 todos");

  // The next write_todos changes statuses: the same checklist follows, with the panel open.
  await turn(page, "Carry on");
  await expect(items).toHaveText([/Completed: Read the brief$/, /Completed: Draft the notes$/, /In progress: Send the notes$/]);
  await expect(panel).toContainText("2 of 3 done");
  await expect(tab).toHaveText("Todos 2/3");
  await page.reload();
  await expect(page.getByRole("tab", { name: /^Todos/ })).toHaveText("Todos 2/3");
  expect(errors).toEqual([]);
});

test("a result too big for the context is offloaded: its card previews it and opens the full file", async ({ page }) => {
  const errors = watchErrors(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  // Over deepagents' 20,000 tokens (80,000 characters): `seq 1 30000` prints about 169,000.
  const scope = await start(page, { approveExecute: false });
  await scope.script([
    { toolCalls: [{ id: "call_big", name: "execute", args: { command: "seq 1 30000" } }] },
    { text: "The output was saved to a file." },
  ]);
  await turn(page, "Count to thirty thousand");

  const card = page.getByTestId("tool-call");
  await expect(card).toHaveAttribute("data-tool", "execute");
  await expect(card).toHaveAttribute("data-status", "done");
  await card.getByRole("button", { name: /execute/ }).click();
  await expect(card).toContainText("The full result was saved to /large_tool_results/call_big.");
  // The preview: the output's head and tail (numbered lines), not the instructions to the model.
  await expect(card).toContainText(/1\s+1\s+2\s+2[\s\S]*lines truncated[\s\S]*30000\s+30000/);
  await expect(card).not.toContainText("make sure to only read part of the result");
  await page.screenshot({ path: shot("timeline-offloaded-card") });
  await card.getByRole("button", { name: "Open full result" }).click();

  const viewer = page.getByTestId("file-viewer");
  await expect(viewer).toBeVisible();
  await expect(viewer).toHaveAttribute("data-path", "/large_tool_results/call_big");
  await expect(viewer.getByRole("heading", { name: "/large_tool_results/call_big" })).toBeVisible();
  // The whole output, paged: 30,000 lines and the exit line.
  await expect(viewer).toContainText("Lines 1–500 of 30,002");
  await expect(viewer.getByRole("region", { name: "/large_tool_results/call_big" })).toContainText("500");
  // The model's next request carried the stub, not the whole output.
  const last = (await scope.chatRequests()).at(-1)!;
  const sent = JSON.stringify(last.body.messages);
  expect(sent).toContain("/large_tool_results/call_big");
  expect(sent.length).toBeLessThan(80_000);
  expect(errors).toEqual([]);
});

/** A slow answer: one chunk every 400 ms, long enough to stop or reload in the middle. */
const SLOW = [
  "The first part ",
  "of a long answer. ",
  "More words ",
  "keep coming ",
  "and coming ",
  "and coming ",
  "until ",
  "THE VERY END.",
];

test("Stop keeps the partial answer, marks the turn stopped, leaves focus in the box, and a reload keeps it", async ({ page }) => {
  const errors = watchErrors(page);
  const scope = await start(page);
  // 1.5 s a chunk: Stop lands with 9 s of the answer still to come, on a loaded machine too.
  await scope.script([{ chunks: SLOW, delayMs: 1_500 }]);
  await send(page, "Tell me a long story");
  await expect(page.getByTestId("assistant-live")).toContainText("of a long answer.", { timeout: 60_000 });

  const stop = page.getByTestId("cancel");
  await expect(stop).toHaveAccessibleName("Stop");
  await stop.click();
  await idle(page);
  const answer = page.getByTestId("assistant-message");
  await expect(answer).toContainText("The first part of a long answer.");
  await expect(answer).not.toContainText("THE VERY END.");
  await expect(page.getByText("Stopped", { exact: true })).toBeVisible();
  await expect(page.getByRole("textbox", { name: "Message" })).toBeFocused();
  await expect(page.getByTestId("send")).toBeVisible();

  await page.reload();
  await expect(page.getByTestId("user-message")).toHaveText("Tell me a long story");
  await expect(answer).toContainText("The first part of a long answer.");
  await expect(answer).not.toContainText("THE VERY END.");
  await expect(page.getByText("Stopped", { exact: true })).toBeVisible();
  // A stop is not an interruption: nothing to continue.
  await expect(page.getByTestId("interrupted")).toHaveCount(0);
  expect(errors).toEqual([]);
});

test("a reload mid-stream marks the turn interrupted; Continue resumes it and the answer completes", async ({ page }) => {
  const scope = await start(page);
  // 700 ms a chunk: the partial answer is saved about once a second while it streams.
  await scope.script([{ chunks: SLOW, delayMs: 700 }, { text: "Resumed: here is the whole answer." }]);
  await send(page, "Tell me a long story");
  await expect(page.getByTestId("assistant-live")).toContainText("keep coming", { timeout: 15_000 });

  await page.reload();
  const banner = page.getByTestId("interrupted");
  await expect(banner).toBeVisible();
  await expect(banner).toContainText("interrupted");
  await expect(page.getByText("Interrupted (the page was reloaded)")).toBeVisible();
  await expect(page.getByTestId("user-message")).toHaveText("Tell me a long story");
  await expect(page.getByTestId("messages")).toContainText("The first part of a long answer.");

  const errors = watchErrors(page);
  await banner.getByRole("button", { name: "Continue" }).click();
  await idle(page);
  await expect(banner).toHaveCount(0);
  await expect(page.getByTestId("assistant-message").last()).toHaveText("Resumed: here is the whole answer.");
  await expect(page.getByTestId("user-message")).toHaveText("Tell me a long story");
  expect((await scope.chatRequests()).length).toBe(2);
  expect(errors).toEqual([]);
});

test("a reload right after Send loses nothing: the message is in the thread or back in the box, never both", async ({ page }) => {
  const scope = await start(page);
  const box = page.getByRole("textbox", { name: "Message" });
  // The provider's first chunk comes late: the worker has stored the message, the page has heard nothing yet.
  await scope.script([{ chunks: ["Late."], delayMs: 5_000 }]);
  await send(page, "Stored before the reload");
  await expect.poll(async () => (await scope.chatRequests()).length, { timeout: 15_000 }).toBe(1);
  await page.reload();
  await expect(page.getByTestId("user-message")).toHaveText("Stored before the reload");
  await expect(page.getByTestId("interrupted")).toBeVisible();
  await expect(box).toHaveValue("");

  // Reloaded at once: wherever the send got to, the message is in exactly one place.
  await page.getByRole("button", { name: "New thread" }).click();
  await expect(page.getByTestId("user-message")).toHaveCount(0);
  await scope.script([{ text: "Hello." }]);
  await send(page, "Sent as the page reloads");
  await page.reload();
  await expect(box).toBeVisible();
  const sent = "Sent as the page reloads";
  const where = async () => {
    const inThread = (await page.getByTestId("user-message").allTextContents()).includes(sent);
    const inBox = (await box.inputValue()) === sent;
    return inThread && inBox ? "both" : inThread ? "thread" : inBox ? "box" : "nowhere";
  };
  await expect.poll(where, { timeout: 15_000 }).toMatch(/^(thread|box)$/);
  test.info().annotations.push({ type: "message after the reload", description: await where() });
});

test("a reload while a subagent streams: Continue runs the subagent on and the parent answers", async ({ page }) => {
  const scope = await start(page);
  await scope.script([
    { toolCalls: [{ name: "task", args: { description: "Survey the cat breeds", subagent_type: "general-purpose" } }] },
    { when: { lastUserIncludes: "Survey the cat breeds" }, chunks: SLOW, delayMs: 700 },
    { when: { lastUserIncludes: "Survey the cat breeds" }, text: "Breeds: tabby and siamese." },
    { when: { lastUserIncludes: "Tell me about cats" }, text: "Cats come in many breeds." },
  ]);
  await send(page, "Tell me about cats");
  const task = page.getByTestId("tool-call").and(page.locator('[data-tool="task"]'));
  await expect(task.getByRole("group", { name: "Subagent activity" }).getByTestId("assistant-live")).toContainText("of a long answer.", {
    timeout: 15_000,
  });

  await page.reload();
  const banner = page.getByTestId("interrupted");
  await expect(banner).toBeVisible(AFTER_LOAD);
  const errors = watchErrors(page);
  await banner.getByRole("button", { name: "Continue" }).click();
  await idle(page);
  await expect(banner).toHaveCount(0);
  await expect(task).toHaveAttribute("data-status", "done");
  await expect(task.getByRole("group", { name: "Subagent activity" }).getByTestId("assistant-message").last()).toHaveText(
    "Breeds: tabby and siamese.",
  );
  await expect(page.getByTestId("assistant-message").last()).toHaveText("Cats come in many breeds.");
  await expect(page.getByTestId("run-error")).toHaveCount(0);
  // The subagent was asked again from its own history, then the parent.
  const chats = await scope.chatRequests();
  expect(chats).toHaveLength(4);
  expect(JSON.stringify(chats[2]!.body.messages)).toContain("Survey the cat breeds");
  expect(errors).toEqual([]);
});

test("Stop inside a subagent: its card says Stopped, keeps what it wrote, and the next message shows no note meant for the model", async ({
  page,
}) => {
  const errors = watchErrors(page);
  const scope = await start(page);
  await scope.script([
    { toolCalls: [{ name: "task", args: { description: "Survey the cat breeds", subagent_type: "general-purpose" } }] },
    // 1.5 s a chunk: Stop lands with 9 s of the subagent's answer still to come (at 500 ms, a click held up 3 s by a
    // loaded machine found the run over).
    { when: { lastUserIncludes: "Survey the cat breeds" }, chunks: SLOW, delayMs: 1_500 },
    { when: { lastUserIncludes: "And dogs?" }, text: "Dogs too." },
  ]);
  await send(page, "Tell me about cats");
  const task = page.getByTestId("tool-call").and(page.locator('[data-tool="task"]'));
  const nested = task.getByRole("group", { name: "Subagent activity" });
  await expect(nested.getByTestId("assistant-live")).toContainText("of a long answer.", { timeout: 60_000 });
  await page.getByTestId("cancel").click();
  await idle(page);

  const stopped = async () => {
    await expect(task).toHaveAttribute("data-status", "stopped", AFTER_LOAD);
    // Once for the card, once for the subagent's answer under it (the part it had written).
    await expect(task.getByText("Stopped", { exact: true })).toHaveCount(2);
    await expect(nested.getByText("Stopped", { exact: true })).toHaveCount(1);
    await expect(nested.getByTestId("assistant-message")).toContainText("The first part of a long answer.");
    await expect(page.getByTestId("messages")).not.toContainText("was cancelled - another message came in");
  };
  await stopped();
  await send(page, "And dogs?");
  await idle(page);
  await expect(page.getByTestId("assistant-message").last()).toHaveText("Dogs too.");
  await stopped();
  await page.reload();
  await stopped();
  // The model reads deepagents' note for the stopped call (in its request only).
  expect(JSON.stringify((await scope.chatRequests()).at(-1)!.body.messages)).toContain("was cancelled - another message came in");
  expect(errors).toEqual([]);
});

test("after a reload, Continue with a key that was not remembered asks for the key and sends nothing; with it, the run goes on", async ({
  page,
}) => {
  const scope = await start(page, { key: "sk-only-this-session" });
  await scope.configure({ requireKey: "sk-only-this-session" });
  await scope.script([{ chunks: SLOW, delayMs: 700 }, { text: "Resumed with the key." }]);
  await send(page, "Tell me a long story");
  await expect(page.getByTestId("assistant-live")).toContainText("keep coming", { timeout: 15_000 });

  await page.reload();
  const banner = page.getByTestId("interrupted");
  await expect(banner).toBeVisible(AFTER_LOAD);
  await banner.getByRole("button", { name: "Continue" }).click();
  const error = page.getByTestId("run-error");
  await expect(error).toHaveAttribute("data-code", "key_missing", { timeout: 15_000 });
  await expect(error).toContainText("API key was for the last session only, so the reload did not keep it.");
  await expect(error).not.toContainText("refused");
  // Nothing was sent, and nothing lost: the interrupted answer is still shown, Continue still offered.
  expect(await scope.chatRequests()).toHaveLength(1);
  await expect(page.getByTestId("messages")).toContainText("The first part of a long answer.");
  await expect(banner).toBeVisible();

  // "Enter the API key" opens Settings on the key field.
  await error.getByRole("button", { name: "Enter the API key" }).click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  const field = dialog.getByLabel("API key");
  await expect(field).toBeFocused();
  await expect(dialog.getByTestId("key-status")).toContainText("was for that session only and was not kept");
  await field.fill("sk-only-this-session");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog.getByRole("status")).toContainText("Saved.", { timeout: 15_000 });
  await page.keyboard.press("Escape");
  await banner.getByRole("button", { name: "Continue" }).click();
  await idle(page);
  await expect(page.getByTestId("assistant-message").last()).toHaveText("Resumed with the key.");
  expect(await scope.chatRequests()).toHaveLength(2);
});

test("Retry and editing a message each run a new branch; the switcher moves between them and their answers", async ({ page }) => {
  const errors = watchErrors(page);
  const scope = await start(page);
  await scope.script([
    { text: "Blue.", when: { lastUserIncludes: "colour" } },
    { text: "Teal.", when: { lastUserIncludes: "colour" } },
    { text: "Apple.", when: { lastUserIncludes: "fruit" } },
    { text: "Banana.", when: { lastUserIncludes: "fruit" } },
  ]);
  const answer = page.getByTestId("assistant-message");
  const position = page.getByTestId("branch-position");
  const previous = page.getByRole("button", { name: "Previous branch" });
  const next = page.getByRole("button", { name: "Next branch" });
  await turn(page, "Name a colour");
  await expect(answer).toHaveText("Blue.");
  await expect(position).toHaveCount(0);

  // Retry the last answer: a second branch with a new answer.
  await page.getByRole("button", { name: "Retry" }).click();
  await idle(page);
  await expect(answer).toHaveText("Teal.");
  await expect(position).toHaveText("2 / 2");
  await previous.click();
  await expect(position).toHaveText("1 / 2");
  await expect(answer).toHaveText("Blue.");
  await next.click();
  await expect(position).toHaveText("2 / 2");
  await expect(answer).toHaveText("Teal.");

  // Edit the message (on the first branch) and run again: a third branch; the first two stay.
  await previous.click();
  await expect(answer).toHaveText("Blue.");
  await page.getByRole("button", { name: "Edit message" }).click();
  const editor = page.getByRole("textbox", { name: "Edit message" });
  await expect(editor).toHaveValue("Name a colour");
  await editor.fill("Name a fruit");
  await page.getByRole("button", { name: "Run again" }).click();
  await idle(page);
  await expect(page.getByTestId("user-message")).toHaveText("Name a fruit");
  await expect(answer).toHaveText("Apple.");
  await expect(position).toHaveText("3 / 3");
  await expect(next).toBeDisabled();

  await previous.click();
  await expect(position).toHaveText("2 / 3");
  await expect(page.getByTestId("user-message")).toHaveText("Name a colour");
  await expect(answer).toHaveText("Teal.");
  await previous.click();
  await expect(position).toHaveText("1 / 3");
  await expect(answer).toHaveText("Blue.");
  await expect(previous).toBeDisabled();
  // The shown branch is kept across a reload.
  await page.reload();
  await expect(position).toHaveText("1 / 3");
  await expect(answer).toHaveText("Blue.");

  // Retry on the newest branch (the edited one): a fourth sibling, and it reruns that branch's message.
  await next.click();
  await next.click();
  await expect(position).toHaveText("3 / 3");
  await page.getByRole("button", { name: "Retry" }).click();
  await idle(page);
  await expect(page.getByTestId("user-message")).toHaveText("Name a fruit");
  await expect(answer).toHaveText("Banana.");
  await expect(position).toHaveText("4 / 4");
  for (const [at, text] of [
    ["3 / 4", "Apple."],
    ["2 / 4", "Teal."],
    ["1 / 4", "Blue."],
  ] as const) {
    await previous.click();
    await expect(position).toHaveText(at);
    await expect(answer).toHaveText(text);
  }
  expect((await scope.chatRequests()).length).toBe(4);
  expect(errors).toEqual([]);
});

test("a provider that reuses tool-call id call_0 every turn: every card shows, across reloads, without errors", async ({ page }) => {
  const errors = watchErrors(page);
  const scope = await start(page);
  const paths = ["/one.md", "/two.md", "/three.md"];
  await scope.script(
    paths.flatMap((path, n) => [
      { toolCalls: [{ id: "call_0", name: "write_file", args: { file_path: path, content: `note ${n + 1}\n` } }] },
      { text: `Wrote ${path}.` },
    ]),
  );
  const cards = page.getByTestId("tool-call");
  for (const [n, path] of paths.entries()) {
    await turn(page, `Write note ${n + 1}`);
    await expect(cards).toHaveCount(n + 1);
    await expect(cards.nth(n)).toContainText(path);
    await expect(cards.nth(n)).toHaveAttribute("data-status", "done");
    await page.reload();
    await expect(cards).toHaveCount(n + 1, AFTER_LOAD);
  }
  await expect(page.getByTestId("user-message")).toHaveText(["Write note 1", "Write note 2", "Write note 3"]);
  await expect(page.getByTestId("assistant-message")).toHaveText(paths.map((p) => `Wrote ${p}.`));
  for (const [n, path] of paths.entries()) {
    await expect(cards.nth(n)).toHaveAttribute("data-tool", "write_file");
    await expect(cards.nth(n)).toHaveAttribute("data-status", "done");
    await expect(cards.nth(n)).toContainText(path);
  }
  // The provider said call_0 each time; the history the app sends back keeps the three calls apart.
  const last = (await scope.chatRequests()).at(-1)!;
  const ids = (last.body.messages as Array<{ role: string; tool_call_id?: string }>)
    .filter((m) => m.role === "tool")
    .map((m) => m.tool_call_id);
  expect(ids).toHaveLength(3);
  expect(new Set(ids).size).toBe(3);
  for (const id of ids) expect(id).toMatch(/^call_0/);
  expect(errors).toEqual([]);
});

test("screenshots: Markdown, tool cards, a subagent and todos at 1280×800 and 390×844, light and dark", async ({ page }) => {
  const errors = watchErrors(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  const scope = await start(page);
  await scope.script([
    { toolCalls: [{ name: "write_todos", args: todos("in_progress", "pending", "pending") }] },
    {
      toolCalls: [
        { name: "task", args: { description: "Survey the workspace and report what is there", subagent_type: "general-purpose" } },
      ],
    },
    { toolCalls: [{ name: "ls", args: { path: "/" } }] },
    { text: "The workspace is empty: **no files** yet." },
    {
      toolCalls: [
        {
          name: "write_file",
          args: { file_path: "/notes/release-plan-with-a-rather-long-name.md", content: "# Plan\n\n- notes\n- tag\n" },
        },
        { name: "read_file", args: { file_path: "/notes/missing.md" } },
      ],
    },
    { toolCalls: [{ name: "write_todos", args: todos("completed", "completed", "in_progress") }] },
    { chunks: MARKDOWN },
  ]);
  await turn(page, "Plan the release, survey the workspace with a subagent, and write the plan down");
  await expect(page.getByTestId("tool-call")).toHaveCount(6);
  await expect(page.getByTestId("assistant-message").last().getByRole("heading", { level: 1 })).toHaveText("Release plan");
  await expect(page.locator('[data-tool="read_file"]')).toHaveAttribute("data-status", "error");
  await page.getByRole("tab", { name: /^Todos/ }).click();
  await expect(page.getByRole("list", { name: "Todos" })).toBeVisible();

  const scroller = page.getByTestId("messages");
  for (const [name, size] of [
    ["desktop", { width: 1280, height: 800 }],
    ["phone", { width: 390, height: 844 }],
  ] as const) {
    await page.setViewportSize(size);
    for (const colorScheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme });
      // The theme follows the scheme (the app's theme is "system" by default): a white page only in light.
      await expect
        .poll(() => page.evaluate(() => getComputedStyle(document.body).backgroundColor === "rgb(255, 255, 255)"))
        .toBe(colorScheme === "light");
      // Nothing in the conversation is wider than it (no sideways scrolling, nothing cut off at the right).
      expect(await scroller.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
      await scroller.evaluate((el) => el.scrollTo(0, 0));
      await page.screenshot({ path: shot(`timeline-${name}-${colorScheme}-top`) });
      await scroller.evaluate((el) => el.scrollTo(0, el.scrollHeight));
      await page.screenshot({ path: shot(`timeline-${name}-${colorScheme}-bottom`) });
    }
  }
  // The phone's side sheet with the checklist.
  await page.getByRole("button", { name: "Files and tools" }).click();
  await expect(page.getByRole("list", { name: "Todos" })).toBeVisible();
  await page.screenshot({ path: shot("timeline-phone-dark-todos") });
  expect(errors).toEqual([]);
});
