/**
 * Recorded demos through the page, as an author and a visitor meet them (issue 41):
 * - the author opens an agent from a link, runs a turn with the loopback scripted OpenAI provider (a file written,
 *   a subagent's task), saves the thread as a demo (the dialog lists what it keeps; the confirmation names the new
 *   version) and shares the agent (its zip downloads);
 * - the zip on a link host, opened from `?agent=` in a fresh browser context with no provider set: the review lists
 *   the demo, the landing offers it as a chip marked "Recorded demo", and the demo's prompt sent in replay mode shows
 *   the recorded answer, the subagent's task and the file it wrote, while no request leaves the app's origin (the
 *   request log and Playwright's request list) and the provider gets none;
 * - a changed prompt stops the replay, says why and offers to go on: Settings first (the visitor has no model), then,
 *   with the visitor's provider set, **Go on with my model** continues the thread from there.
 * axe on each new screen; screenshots at 1280×800 and 390×844 of the Save dialog, the demo chips, the replay notice and
 * the divergence card (screenshots/, not committed).
 */
import { expect, type Page, type Request } from "@playwright/test";
import { readFile } from "node:fs/promises";
import { zipAgent } from "../src/agent-folders/zip.ts";
import { putAgentFile } from "../src/testing/agent-link-files.ts";
import { startAgentLinkServer, type AgentLinkServer } from "../src/testing/agent-link-server.ts";
import { AFTER_LOAD, axeViolations, connect, idle, shot, watchErrors } from "./app.ts";
import { providerScope } from "./control.ts";
import { test } from "./fixtures.ts";

const encoder = new TextEncoder();
let links: AgentLinkServer;

test.beforeAll(async () => {
  links = await startAgentLinkServer();
});
test.afterAll(async () => {
  await links?.close();
});

const PROMPT = "Write the tide report";
const ANSWER = "Wrote /report.md and had it checked: high tide at 06:12.";

/** The author's agent: a name, a starter prompt, instructions. */
function tideAgent(): Map<string, Uint8Array> {
  const files: Record<string, string> = {
    "agent.yaml": ["name: Tide reporter", "description: Writes tide reports.", `suggestions: ["${PROMPT}", "Plot a week"]`, ""].join("\n"),
    "AGENTS.md": "You write tide reports to /report.md and have a subagent check them.",
  };
  return new Map(Object.entries(files).map(([path, text]) => [path, encoder.encode(text)]));
}

/** Screenshots of what is on screen at the desktop and the phone size, back at the desktop size after. */
async function shots(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: shot(`${name}-desktop`) });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: shot(`${name}-phone`) });
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** The top-level timeline as `kind:text` (tool cards by their tool; a subagent's messages under its task card left out). */
function timeline(page: Page): Promise<string[]> {
  return page
    .getByTestId("messages")
    .locator('[data-testid="user-message"], [data-testid="tool-call"], [data-testid="assistant-message"]')
    .evaluateAll((nodes) =>
      nodes
        .filter((n) => !n.parentElement?.closest('[data-testid="tool-call"]'))
        .map((n) => {
          const kind = n.getAttribute("data-testid");
          return kind === "tool-call" ? `tool:${n.getAttribute("data-tool")}` : `${kind}:${n.textContent?.trim() ?? ""}`;
        }),
    );
}

test("record, save as a demo, share; a fresh visitor with no key replays it from a link, and a changed prompt stops it", async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const errors = watchErrors(page);
  const provider = providerScope("openai");
  await provider.script([
    {
      when: { lastUserIncludes: PROMPT, toolResults: 0 },
      toolCalls: [
        { id: "call_write", name: "write_file", args: { file_path: "/report.md", content: "# Tides\nHigh tide at 06:12.\n" } },
        { id: "call_task", name: "task", args: { description: "CHECK the report in /report.md", subagent_type: "general-purpose" } },
      ],
    },
    { when: { lastUserIncludes: "CHECK the report" }, text: "Checked: the report is right." },
    {
      when: { lastUserIncludes: PROMPT, toolResults: 2 },
      text: ANSWER,
      chunks: ["Wrote /report.md ", "and had it checked: ", "high tide at 06:12."],
    },
  ]);
  const v1 = await putAgentFile(links.url, `${crypto.randomUUID()}/tides.zip`, zipAgent(tideAgent(), "tides"));

  // The author: the agent from its link, a real turn with the provider.
  await page.goto(`/?agent=${encodeURIComponent(v1)}`);
  await page.getByRole("dialog", { name: "Use Tide reporter?" }).getByRole("button", { name: "Use this agent" }).click(AFTER_LOAD);
  await connect(page, { provider: "openai-compatible", baseUrl: provider.baseUrl, model: "tide-model", contextWindow: 200_000 });
  await page.getByTestId("agent-landing").getByRole("button", { name: PROMPT }).click();
  await page.getByRole("textbox", { name: "Message" }).press("Enter");
  await idle(page, 90_000);
  await expect(page.getByTestId("assistant-message").last()).toHaveText(ANSWER);
  expect(await timeline(page)).toEqual([`user-message:${PROMPT}`, "tool:write_file", "tool:task", `assistant-message:${ANSWER}`]);
  expect(await provider.chatRequests()).toHaveLength(3);

  // Save as demo: what it keeps, then the new version, then Share (the zip carries the demo).
  await page.getByRole("button", { name: "Save as demo" }).click();
  const save = page.getByRole("dialog", { name: "Save as demo" });
  await expect(save.getByLabel("Title")).toHaveValue(PROMPT);
  const keeps = save.getByTestId("save-demo-keeps");
  await expect(keeps).toContainText(PROMPT);
  await expect(keeps).toContainText("3 model replies");
  await expect(keeps).toContainText("write_file, task");
  await expect(save).toContainText("new version of Tide reporter");
  await expect(save).toContainText("no key");
  await save.getByLabel("Recorded by (shown to visitors)").fill("Ada");
  expect(await axeViolations(page, "dialog[open]")).toEqual([]);
  await shots(page, "demo-save-dialog");
  await save.getByRole("button", { name: "Save as demo" }).click();
  await expect(save.getByTestId("save-demo-saved")).toContainText(/Tide reporter.*, version [0-9a-f]{12}/);
  await expect(save.getByTestId("save-demo-saved")).toContainText("demos/");
  expect(await axeViolations(page, "dialog[open]")).toEqual([]);
  await shots(page, "demo-save-saved");
  const download = page.waitForEvent("download", (d) => d.suggestedFilename().endsWith(".zip"));
  await save.getByRole("button", { name: /^Share Tide reporter/ }).click();
  const zip = await readFile(await (await download).path());
  await expect(save.getByTestId("save-demo-share-status")).toContainText("Downloaded");
  await save.getByRole("button", { name: "Close" }).first().click();
  await expect(save).toBeHidden();
  expect(errors).toEqual([]);

  // The visitor: a fresh profile, no provider, the shared zip from a link.
  const shared = await putAgentFile(links.url, `${crypto.randomUUID()}/tides-demo.zip`, zip);
  const context = await browser.newContext({ serviceWorkers: "block", viewport: { width: 1280, height: 800 } });
  const visitor = await context.newPage();
  const visitorErrors = watchErrors(visitor);
  const requests: Request[] = [];
  context.on("request", (r) => requests.push(r));
  await visitor.goto(`${baseURL}/?agent=${encodeURIComponent(shared)}`);
  const review = visitor.getByRole("dialog", { name: "Use Tide reporter?" });
  const listed = review.getByTestId("agent-demo");
  await expect(listed).toContainText(PROMPT, AFTER_LOAD);
  await expect(listed).toContainText("3 model replies · tools: write_file, task · model");
  await expect(listed).toContainText("recorded by Ada");
  expect(await axeViolations(visitor, "dialog[open]")).toEqual([]);
  await review.getByRole("button", { name: "Use this agent" }).click();
  const landing = visitor.getByTestId("agent-landing");
  const chip = landing.getByTestId("demo-chip");
  await expect(chip).toContainText("Recorded demo");
  await expect(chip).toContainText(PROMPT);
  // Its other prompt has no demo, and the visitor's model is the scripted demo model.
  await expect(landing.getByRole("button", { name: "Plot a week (needs a model)" })).toBeVisible();
  expect(await axeViolations(visitor, '[data-testid="agent-landing"]')).toEqual([]);
  await shots(visitor, "demo-chips");

  // Replay: from here on, no request leaves the app's origin.
  const origin = new URL(baseURL!).origin;
  const before = requests.length;
  await chip.click();
  const notice = visitor.getByTestId("replay-notice");
  await expect(notice).toContainText("Replays a recorded demo: the answers were recorded by Ada with model");
  await expect(notice).toContainText("the tools run here");
  await expect(visitor.getByRole("textbox", { name: "Message" })).toHaveValue(PROMPT);
  expect(await axeViolations(visitor, '[data-testid="replay-notice"]')).toEqual([]);
  await shots(visitor, "demo-replay-notice");
  await notice.getByRole("radio", { name: "4×" }).check();
  await visitor.getByRole("textbox", { name: "Message" }).press("Enter");
  await expect(notice).toBeHidden();
  await idle(visitor, 90_000);
  await expect(visitor.getByTestId("assistant-message").last()).toHaveText(ANSWER);
  expect(await timeline(visitor)).toEqual([`user-message:${PROMPT}`, "tool:write_file", "tool:task", `assistant-message:${ANSWER}`]);
  await expect(visitor.getByTestId("replay-note")).toHaveText(/^Recorded answers · recorded by Ada with .+ · \d+ \w+ \d{4}$/);
  // The subagent's reply, nested under its task, and the file the replay's write_file wrote in this tab.
  const task = visitor.getByTestId("tool-call").and(visitor.locator('[data-tool="task"]'));
  const toggle = task.getByRole("button", { name: /task/ });
  await expect(async () => {
    if ((await toggle.getAttribute("aria-expanded")) !== "true") await toggle.click();
    await expect(task).toContainText("Checked: the report is right.", { timeout: 2_000 });
  }).toPass();
  await visitor.getByRole("tab", { name: "Files" }).click();
  await expect(visitor.getByTestId("files").locator('[data-testid="file"][data-path="/report.md"]')).toBeVisible();
  const left = requests
    .slice(before)
    .filter((r) => new URL(r.url()).origin !== origin && !r.url().startsWith("data:") && !r.url().startsWith("blob:"));
  expect(left.map((r) => r.url())).toEqual([]);
  expect(await provider.chatRequests()).toHaveLength(3);
  // The worker's own request log: the agent's zip (fetched for the review), nothing since.
  await visitor.getByRole("button", { name: "Settings" }).click();
  const settings = visitor.getByRole("dialog", { name: "Settings" });
  await settings.getByText("Request log").click();
  await expect(settings.getByTestId("request-log").locator("tbody tr")).toHaveCount(1);
  await expect(settings.getByTestId("request-log")).toContainText("/f/");
  await visitor.keyboard.press("Escape");
  await expect(settings).toBeHidden();

  // A changed prompt: the replay stops there, says why, and offers to go on (Settings first: no model of the visitor's).
  await visitor
    .getByRole("button", { name: "Threads" })
    .or(visitor.getByRole("button", { name: "New thread" }))
    .first()
    .isVisible();
  await visitor.getByRole("button", { name: "New thread" }).click();
  await visitor.locator('[data-testid="agent-card"]').filter({ hasText: "Tide reporter" }).getByTestId("demo-chip").click();
  await expect(notice).toBeVisible();
  await visitor.getByRole("textbox", { name: "Message" }).fill(`${PROMPT} for Brest`);
  await visitor.getByRole("textbox", { name: "Message" }).press("Enter");
  await idle(visitor, 90_000);
  const card = visitor.getByTestId("demo-diverged");
  await expect(card).toContainText("The recorded demo stops here");
  await expect(card.getByRole("button", { name: "Go on with my model" })).toBeVisible();
  await expect(card.getByRole("button", { name: "Open Settings" })).toBeVisible();
  expect(await axeViolations(visitor, '[data-testid="demo-diverged"]')).toEqual([]);
  await shots(visitor, "demo-diverged");
  await card.getByRole("button", { name: "Go on with my model" }).click();
  await expect(visitor.getByRole("dialog", { name: "Settings" })).toBeVisible();
  await visitor.keyboard.press("Escape");
  // With a model of the visitor's own, Go on continues the thread from where the replay stopped (no new branch).
  await provider.script([{ when: { lastUserIncludes: "for Brest" }, text: "Brest: high tide at 06:40." }]);
  await connect(visitor, { provider: "openai-compatible", baseUrl: provider.baseUrl, model: "visitor-model", contextWindow: 200_000 });
  await card.getByRole("button", { name: "Go on with my model" }).click();
  await idle(visitor, 90_000);
  await expect(visitor.getByTestId("assistant-message").last()).toHaveText("Brest: high tide at 06:40.");
  await expect(card).toBeHidden();
  expect(await timeline(visitor)).toEqual([`user-message:${PROMPT} for Brest`, "assistant-message:Brest: high tide at 06:40."]);
  expect(visitorErrors).toEqual([]);
  await context.close();
});
