/**
 * The page as a client of a LangGraph server, through the UI: `langgraph dev` on loopback serves deeptab's graph
 * (allowing the preview's origin in `http.cors.allow_origins`), with a scripted OpenAI-compatible model as
 * `DEEPTAB_MODEL`. Settings → Runtime → LangGraph server connects and fills the Assistant; a run streams from the
 * server with its todos and files shown from the thread's state; the server's approval is answered in the page's
 * dialog; the thread is the server's (listed after a reload); an unreachable server says so and the tab keeps
 * working.
 */
import { expect, type Page } from "@playwright/test";
import { AFTER_LOAD, connect, idle, send, turn, watchErrors } from "./app.ts";
import { freePort, startLangGraphServer, type LangGraphServer } from "../src/testing/langgraph-server.ts";
import {
  DEFAULT_REPLY_TEXT,
  startScriptedServer,
  type RecordedRequest,
  type ScriptedServer,
  type ServerReply,
} from "../src/testing/provider-servers.ts";
import { startAgentLinkServer, type AgentLinkServer } from "../src/testing/agent-link-server.ts";
import { putAgentFile } from "../src/testing/agent-link-files.ts";
import { agentBundle } from "../src/agent-folders/bundle.ts";
import { startStaticServer } from "../scripts/static-server.ts";
import { test } from "./fixtures.ts";

type Message = { role?: string; content?: unknown };
const textOf = (content: unknown): string =>
  typeof content === "string" ? content : Array.isArray(content) ? content.map((p: { text?: string }) => p.text ?? "").join("") : "";

/** The model's turns by step (tool results so far). */
const STEPS: ServerReply[] = [
  { toolCalls: [{ name: "write_file", args: { file_path: "/report/notes.md", content: "# Notes\n\nalpha\n" } }] },
  {
    toolCalls: [
      {
        name: "write_todos",
        args: {
          todos: [
            { content: "write the notes", status: "completed" },
            { content: "count them", status: "in_progress" },
          ],
        },
      },
    ],
  },
  { toolCalls: [{ name: "execute", args: { command: "grep -c alpha /report/notes.md > /report/count.txt" } }] },
  { chunks: ["The notes ", "are written ", "and counted."], delayMs: 100 },
];

/** The message whose answer is slow, in the reload test. */
const STORY = "[slow] tell me a long story";
/** A long answer (16 s): the page is reloaded while the server runs it. */
const SLOW_WORDS = Array.from({ length: 40 }, (_, i) => `word${i + 1} `);

/**
 * The steering test's first answer stops after two words until both queued messages are shown: on a loaded machine a
 * paced answer could end before they are typed (it did, in CI), and they would be sent as runs, not queued.
 */
let queueHeld = held();

/** A promise and what settles it (Node 20 has no `Promise.withResolvers`). */
function held(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

function script(req: RecordedRequest): ServerReply | undefined {
  const messages = (req.body.messages ?? []) as Message[];
  const user = textOf(messages.find((m) => m.role === "user")?.content);
  if (user.includes("[slow]")) return { chunks: SLOW_WORDS, delayMs: 400 };
  // Steering: the first message's answer is slow (messages are queued meanwhile); each queued one is answered by name.
  if (user.includes("[queue]")) {
    const users = messages.filter((m) => m.role === "user");
    return users.length === 1
      ? { chunks: SLOW_WORDS.slice(0, 15), delayMs: 400, hold: { after: 2, until: queueHeld.promise } }
      : { chunks: ["Answer to ", `${textOf(users.at(-1)!.content)}.`], delayMs: 700 };
  }
  // An async subagent's task on the server, and the tab's agent that starts it.
  // About 3 s: the tab reloads while the task runs on the server.
  if (user.includes("[survey]")) return { chunks: ["Survey done: ", "42 answers."], delayMs: 1_500 };
  if (user.includes("Run the survey"))
    return messages.at(-1)?.role === "tool"
      ? { text: "Started the survey on the server." }
      : { toolCalls: [{ name: "start_async_task", args: { agentName: "surveyor", description: "[survey] count the answers" } }] };
  if (!user.includes("[server]")) return undefined;
  return STEPS[messages.filter((m) => m.role === "tool").length];
}

test.describe.configure({ mode: "serial", timeout: 240_000 });

let model: ScriptedServer;
let server: LangGraphServer;
let links: AgentLinkServer;

test.beforeAll(async ({ baseURL }) => {
  links = await startAgentLinkServer();
  model = await startScriptedServer("openai", script);
  server = await startLangGraphServer({
    kind: "dev",
    port: await freePort(),
    corsOrigins: [new URL(baseURL!).origin],
    env: { DEEPTAB_MODEL: "openai-compatible:scripted", OPENAI_BASE_URL: model.baseUrl(), DEEPTAB_INTERRUPT_ON: "execute" },
  });
});
test.afterAll(async () => {
  await server?.stop();
  await model?.close();
  await links?.close();
});

/** The model server's requests whose messages include `text`. */
const modelRequestsWith = (text: string): RecordedRequest[] =>
  model.requests.filter((r) => ((r.body.messages ?? []) as Message[]).some((m) => textOf(m.content).includes(text)));

/** Settings → Runtime → LangGraph server at `url`, Connect; returns the dialog (left open). */
async function connectServer(page: Page, url: string) {
  await page.getByRole("button", { name: "Settings" }).click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  const runtime = dialog.getByRole("form", { name: "Runtime" });
  await runtime.getByRole("radio", { name: /^LangGraph server/ }).check();
  await runtime.getByLabel("Server URL").fill(url);
  await runtime.getByRole("button", { name: "Connect" }).click();
  return { dialog, runtime };
}

/** Connects to the test's server (deeptab's graph) in Settings → Runtime; the dialog closes. */
async function useServer(page: Page) {
  const { dialog, runtime } = await connectServer(page, server.url);
  await expect(runtime.getByTestId("runtime-status")).toHaveText(`Using deeptab on ${server.url}.`, { timeout: 60_000 });
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
}

test("connects to the server, streams a run with todos and files from its state, and answers its approval", async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto("/");
  const { dialog, runtime } = await connectServer(page, server.url);
  await expect(runtime.getByTestId("runtime-status")).toHaveText(`Using deeptab on ${server.url}.`, { timeout: 60_000 });
  await expect(runtime.getByLabel("Assistant")).toHaveValue(/.+/);
  await expect(runtime.getByLabel("Assistant").locator("option")).toContainText(["deeptab (deeptab)"]);
  await expect(page.getByTestId("agent-picker")).toHaveValue(/^langgraph:/);
  await expect(page.getByTestId("agent-picker").locator("option:checked")).toHaveText("deeptab (on the server)");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();

  await send(page, "[server] write the notes and count them");
  // The server pauses at execute: the page's own approval dialog shows the server's request.
  const approval = page.getByTestId("approval");
  await expect(page.getByRole("dialog", { name: "Approve execute?" })).toBeVisible({ timeout: 60_000 });
  await expect(approval.getByRole("region", { name: "Command of execute" })).toHaveText(
    "grep -c alpha /report/notes.md > /report/count.txt",
  );
  // Before the decision: the todos and the file written so far come from the thread's state on the server.
  await expect(page.getByRole("tab", { name: /^Todos/ })).toHaveText("Todos 1/2");
  await approval.getByTestId("approve").click();
  await expect(approval).toHaveCount(0);
  await idle(page, 60_000);
  await expect(page.getByTestId("assistant-message").last()).toHaveText("The notes are written and counted.");
  await expect(page.getByTestId("tool-call").filter({ hasText: "execute" })).toBeVisible();
  // The server runtime does not branch: no Edit or Retry on its thread.
  await expect(page.getByRole("button", { name: "Edit message" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Retry" })).toHaveCount(0);

  const files = page.getByTestId("files");
  await page.getByRole("tab", { name: "Files" }).click();
  await files.getByRole("button", { name: "report/, 2 files" }).click();
  await expect(files.locator('[data-testid="file"][data-path="/report/count.txt"]')).toBeVisible();
  await files.locator('[data-testid="file"][data-path="/report/notes.md"]').click();
  await expect(page.getByTestId("file-viewer")).toContainText("alpha");

  // A reload reconnects to the server: its thread is listed and shown from the server's state.
  await page.reload();
  await expect(page.getByTestId("assistant-message").last()).toHaveText("The notes are written and counted.", { timeout: 60_000 });
  await expect(page.getByRole("tab", { name: /^Todos/ })).toHaveText("Todos 1/2");
  expect(errors).toEqual([]);
});

test("a reload while the server streams follows the run at once: the answer completes without Continue", async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto("/");
  await useServer(page);
  const asked = () => modelRequestsWith(STORY).length;
  const before = asked();
  await send(page, STORY);
  // The server's model call takes 16 s (the graph reads the answer whole): reload while it runs.
  await expect(page.getByTestId("messages")).toHaveAttribute("data-running", "true");
  await expect(page.getByTestId("user-message")).toHaveText(STORY);
  // The page shows the run as soon as it asks the server for it, but a reload before the request reaches the server can
  // lose it (a loaded CI run once showed an empty thread after the reload): wait until the server's run calls the model.
  await expect.poll(asked, { timeout: 60_000 }).toBeGreaterThan(before);
  await page.reload();
  // The run goes on on the server; the page rejoins it by itself and the rest of the answer streams in.
  await expect(page.getByTestId("messages")).toHaveAttribute("data-running", "true", { timeout: 60_000 });
  await expect(page.getByTestId("assistant-message").last()).toHaveText(SLOW_WORDS.join("").trim(), { timeout: 60_000 });
  await idle(page, 60_000);
  await expect(page.getByTestId("interrupted")).toHaveCount(0);
  await expect(page.getByTestId("thread-item").filter({ hasText: STORY })).toHaveCount(1);
  expect(errors).toEqual([]);
});

test("a reload before the server has the run loses nothing: the message is back in the box, and sends from there", async ({ page }) => {
  await page.goto("/");
  await useServer(page);
  const box = page.getByRole("textbox", { name: "Message" });
  const HELD = "Held on its way to the server";
  // The run's request is held unanswered: the page shows the run, the server never hears of it.
  let held = 0;
  const RUNS = "**/threads/*/runs/stream";
  await page.route(RUNS, () => void held++);
  await send(page, HELD);
  await expect(page.getByTestId("user-message")).toHaveText(HELD);
  await expect.poll(() => held, { timeout: 30_000 }).toBe(1);
  await page.reload();
  await page.unrouteAll({ behavior: "ignoreErrors" });
  const errors = watchErrors(page);
  await expect(box).toHaveValue(HELD, AFTER_LOAD);
  await expect(page.getByTestId("user-message")).toHaveCount(0);
  await expect(page.getByTestId("interrupted")).toHaveCount(0);
  expect(modelRequestsWith(HELD)).toEqual([]);

  // Sent from the box: answered once, and the thread holds it once.
  await expect(page.getByTestId("send")).toBeEnabled(AFTER_LOAD);
  await box.press("Enter");
  await idle(page, 60_000);
  await expect(page.getByTestId("user-message")).toHaveText(HELD);
  await expect(page.getByTestId("assistant-message").last()).toHaveText(DEFAULT_REPLY_TEXT);
  await expect(box).toHaveValue("");
  await page.reload();
  await expect(page.getByTestId("assistant-message").last()).toHaveText(DEFAULT_REPLY_TEXT, { timeout: 60_000 });
  await expect(page.getByTestId("user-message")).toHaveText(HELD);
  await expect(box).toHaveValue("");
  expect(errors).toEqual([]);
});

test("Stop ends a run on the server and keeps the user's message in the thread, across a reload", async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto("/");
  await useServer(page);
  await page.getByRole("button", { name: "New thread", exact: true }).click();
  await send(page, "[slow] a story to stop");
  await expect(page.getByTestId("messages")).toHaveAttribute("data-running", "true");
  await page.getByRole("button", { name: "Stop" }).click();
  await idle(page, 60_000);
  // The API forgets a stopped thread's values; the page reads its checkpoint, which has the message.
  await expect(page.getByTestId("user-message")).toHaveText("[slow] a story to stop");
  await expect(page.getByTestId("thread-item").filter({ hasText: "[slow] a story to stop" })).toHaveCount(1);
  await page.reload();
  await expect(page.getByTestId("user-message")).toHaveText("[slow] a story to stop", { timeout: 60_000 });
  await expect(page.getByTestId("messages")).toHaveAttribute("data-running", "false");
  expect(errors).toEqual([]);
});

test("steering on the server: two messages sent mid-run are queued runs, each followed in turn, answers in order", async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto("/");
  await useServer(page);
  await page.getByRole("button", { name: "New thread", exact: true }).click();
  queueHeld = held();
  await send(page, "[queue] begin");
  const assistant = page.getByTestId("assistant-message");
  // The first answer is streaming (held after two words), so messages typed now are queued behind it.
  await expect(page.getByTestId("assistant-live")).toContainText("word1", { timeout: 60_000 });
  const box = page.getByRole("textbox", { name: "Message" });
  for (const text of ["queued one", "queued two"]) {
    await box.fill(text);
    await box.press("Enter");
    await expect(page.getByTestId("queued-message").filter({ hasText: text })).toBeVisible();
    // The page says what the server does with them, while the first run still runs (held until both are shown).
    if (text === "queued one")
      await expect(page.getByTestId("queued-messages")).toContainText("runs after the current run ends (LangGraph's enqueue strategy)");
  }
  queueHeld.resolve();
  // Each queued run streams in turn; the turn runs until the last has answered.
  await expect(assistant.filter({ hasText: "Answer to queued one." })).toBeVisible({ timeout: 60_000 });
  await expect(assistant.filter({ hasText: "Answer to queued two." })).toBeVisible({ timeout: 60_000 });
  await idle(page, 60_000);
  await expect(page.getByTestId("queued-message")).toHaveCount(0);
  const shown = page.getByTestId("messages").locator('[data-testid="user-message"], [data-testid="assistant-message"]');
  await expect(shown).toHaveText([
    "[queue] begin",
    SLOW_WORDS.slice(0, 15).join("").trim(),
    "queued one",
    "Answer to queued one.",
    "queued two",
    "Answer to queued two.",
  ]);
  expect(errors).toEqual([]);
});

/** Settings → Runtime → This tab, "Use this tab"; the dialog closes. */
async function useTab(page: Page) {
  await page.getByRole("button", { name: "Settings" }).click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  const runtime = dialog.getByRole("form", { name: "Runtime" });
  await runtime.getByRole("radio", { name: /^This tab/ }).check();
  await runtime.getByRole("button", { name: "Use this tab" }).click();
  await expect(runtime.getByTestId("runtime-status")).toHaveText("Threads run in this tab.");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
}

test("⇄ copies a tab thread to the server (messages and files), and a server thread back into the tab", async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto("/");
  // A thread in the tab (the demo model writes /hello.md and answers).
  await turn(page, "hello");
  const answer = await page.getByTestId("assistant-message").last().textContent();
  // The server is kept in Settings, while the tab runs the threads: the list offers to copy a thread there.
  const { dialog } = await connectServer(page, server.url);
  await expect(dialog.getByTestId("runtime-status")).toHaveText(`Using deeptab on ${server.url}.`, { timeout: 60_000 });
  await page.keyboard.press("Escape");
  await useTab(page);
  const list = page.getByRole("navigation", { name: "Threads" });
  const tabThread = await list.getByTestId("thread-item").filter({ hasText: "hello" }).getAttribute("data-thread-id");
  await list.getByRole("button", { name: "Copy hello to the server" }).click();
  await expect(list.getByTestId("thread-copied")).toContainText(`Copied “hello” to the server at ${server.url}.`, { timeout: 60_000 });

  // On the server: the copy is listed, opens with the tab's messages and files, and runs on there.
  await connectServer(page, server.url);
  await expect(dialog.getByTestId("runtime-status")).toHaveText(`Using deeptab on ${server.url}.`, { timeout: 60_000 });
  await page.keyboard.press("Escape");
  // The list shows the server's threads: its "hello" is the copy (the server gave it its own id), not the tab's.
  const copied = list.getByTestId("thread-item").filter({ hasText: "hello" });
  await expect(copied).toHaveCount(1, { timeout: 60_000 });
  await expect(copied).not.toHaveAttribute("data-thread-id", tabThread!, { timeout: 60_000 });
  await copied.getByTestId("thread-open").click();
  await expect(page.getByTestId("user-message")).toHaveText(["hello"]);
  await expect(page.getByTestId("assistant-message").last()).toHaveText(answer!);
  await page.getByRole("tab", { name: "Files" }).click();
  await expect(page.getByTestId("files").locator('[data-testid="file"][data-path="/hello.md"]')).toBeVisible();

  // Back into the tab: a second "hello" thread there, with the same conversation.
  await list.getByRole("button", { name: "Copy hello into this tab" }).click();
  await expect(list.getByTestId("thread-copied")).toContainText("Copied “hello” into this tab.", { timeout: 60_000 });
  await useTab(page);
  await expect(list.getByTestId("thread-item").filter({ hasText: "hello" })).toHaveCount(2);
  await list.getByTestId("thread-item").filter({ hasText: "hello" }).first().getByTestId("thread-open").click();
  await expect(page.getByTestId("user-message")).toHaveText(["hello"]);
  await expect(page.getByTestId("assistant-message").last()).toHaveText(answer!);
  expect(errors).toEqual([]);
});

test("an async subagent's task goes on on its server while the tab reloads; its card opens the task's thread with its answer", async ({
  page,
}) => {
  const errors = watchErrors(page);
  const yaml = [
    "name: Survey lead",
    "description: Starts long surveys on a LangGraph server.",
    "async_subagents:",
    "  surveyor:",
    "    description: Runs long surveys on the team's server.",
    `    url: "${server.url}"`,
    "    graph_id: deeptab",
    "",
  ].join("\n");
  const enc = new TextEncoder();
  const bundle = agentBundle(
    new Map([
      ["AGENTS.md", enc.encode("Start long surveys on the team's server.")],
      ["agent.yaml", enc.encode(yaml)],
    ]),
  );
  const link = await putAgentFile(links.url, `${crypto.randomUUID()}/agent.json`, bundle);
  await page.goto("/");
  await connect(page, { provider: "openai-compatible", baseUrl: model.baseUrl(), model: "scripted" });
  await page.goto(`/?agent=${encodeURIComponent(link)}`);
  const review = page.getByRole("dialog", { name: "Use Survey lead?" });
  await expect(review.getByTestId("agent-async-subagents")).toContainText("surveyor");
  await review.getByRole("button", { name: "Use this agent" }).click();
  await expect(review).toBeHidden();
  await expect(page.getByRole("combobox", { name: "Agent" }).locator("option:checked")).toHaveText("Survey lead");
  await turn(page, "Run the survey");
  await expect(page.getByTestId("assistant-message").last()).toHaveText("Started the survey on the server.");
  // The task goes on on the server while the tab reloads; its card comes back with the thread.
  await page.reload();
  await expect(page.getByTestId("assistant-message").last()).toHaveText("Started the survey on the server.", { timeout: 60_000 });

  const host = new URL(server.url).host;
  await page.getByRole("button", { name: `Open the surveyor task's thread on ${host}` }).click();
  // The page is now the server's client, showing the task's own thread; the task's answer arrives there.
  await expect(page.getByTestId("agent-picker").locator("option:checked")).toHaveText("deeptab (on the server)", { timeout: 60_000 });
  await expect(page.getByTestId("user-message")).toHaveText(["[survey] count the answers"]);
  await expect(page.getByTestId("assistant-message").last()).toHaveText("Survey done: 42 answers.", { timeout: 60_000 });
  expect(errors).toEqual([]);
});

test("an unreachable server says so in Settings, and the tab keeps running the threads", async ({ page }) => {
  await page.goto("/");
  const url = `http://127.0.0.1:${await freePort()}`;
  const { runtime } = await connectServer(page, url);
  await expect(runtime.getByTestId("runtime-error")).toContainText(`Cannot reach the LangGraph server at ${url}`, { timeout: 60_000 });
  await expect(runtime.getByTestId("runtime-status")).toHaveText("Threads run in this tab.");
  // The tab is in use: choosing it again has nothing to apply, so no button; the server choice offers Connect again.
  await runtime.getByRole("radio", { name: /^This tab/ }).check();
  await expect(runtime.getByRole("button")).toHaveCount(0);
  await runtime.getByRole("radio", { name: /^LangGraph server/ }).check();
  await expect(runtime.getByRole("button", { name: "Connect" })).toBeVisible();
});

test("a server that does not allow the page's origin: Settings names the origin and the langgraph.json setting that allows it", async ({
  page,
  baseURL,
}) => {
  // The same page from another origin (localhost, not 127.0.0.1): the server allows only 127.0.0.1's.
  const other = new URL(baseURL!);
  other.hostname = "localhost";
  await page.goto(other.href);
  const { runtime } = await connectServer(page, server.url);
  const error = runtime.getByTestId("runtime-error");
  // The page is cross-origin isolated (as the app is after its first reload): a refused origin and a server that is
  // not running cannot be told apart (LangGraph's API sends no Cross-Origin-Resource-Policy), so both are named.
  await expect(error).toContainText(`does not allow this page's origin (${other.origin})`, { timeout: 60_000 });
  await expect(error).toContainText(
    `add "${other.origin}" to "http": { "cors": { "allow_origins": [...] } } in the server's langgraph.json`,
  );
  await expect(runtime.getByTestId("runtime-status")).toHaveText("Threads run in this tab.");
});

test("a page that is not cross-origin isolated tells a refused origin from a dead server: the server answered, and the setting", async ({
  browser,
}) => {
  // The built app on a plain static host with no service worker (a first visit to GitHub Pages): not isolated, so an
  // opaque request reaches the server and tells the two apart.
  const plain = await startStaticServer({ root: process.env.DEEPTAB_DIST ?? "dist", base: "/deeptab/" });
  const context = await browser.newContext({ serviceWorkers: "block" });
  try {
    const page = await context.newPage();
    await page.goto(plain.url);
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(false);
    const { runtime } = await connectServer(page, server.url);
    const error = runtime.getByTestId("runtime-error");
    await expect(error).toContainText(
      `The LangGraph server at ${server.url} answered, but does not allow this page's origin (${plain.origin})`,
      {
        timeout: 60_000,
      },
    );
    await expect(error).toContainText(
      `Add "${plain.origin}" to "http": { "cors": { "allow_origins": [...] } } in the server's langgraph.json`,
    );
    await expect(error).not.toContainText("Cannot reach");
  } finally {
    await context.close();
    await plain.close();
  }
});
