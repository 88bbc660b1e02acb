/**
 * The page as the UI of a graph made with upstream npm `deepagents` (src/testing/upstream-deepagents-graph.ts), served
 * by `langgraph dev` on loopback beside deeptab's own graph, with a scripted OpenAI-compatible model (issue 19: the
 * page works against any deepagents deployment). Through the UI: choose the upstream assistant in Settings → Runtime;
 * a run writes a file and todos, delegates to its `researcher` subagent, whose words show nested under the task card
 * while it runs, then pauses at deepagents' own approval for `edit_file`, answered in the page's dialog; the todos
 * show and the file as edited opens from the thread's channels; a reload mid-run rejoins it; Stop ends a run on the
 * server and keeps what was shown.
 */
import { expect, type Page } from "@playwright/test";
import { idle, send, watchErrors } from "./app.ts";
import { freePort, startLangGraphServer, type LangGraphServer } from "../src/testing/langgraph-server.ts";
import { startScriptedServer, type RecordedRequest, type ScriptedServer, type ServerReply } from "../src/testing/provider-servers.ts";
import { test } from "./fixtures.ts";

type Message = { role?: string; content?: unknown };
const textOf = (content: unknown): string =>
  typeof content === "string" ? content : Array.isArray(content) ? content.map((p: { text?: string }) => p.text ?? "").join("") : "";

/** The parent's turns by step (tool results so far). */
const PARENT: ServerReply[] = [
  { toolCalls: [{ name: "write_file", args: { file_path: "/plan.md", content: "# Plan\n\ndraft\n" } }] },
  {
    toolCalls: [
      {
        name: "write_todos",
        args: {
          todos: [
            { content: "ask the researcher", status: "in_progress" },
            { content: "update the plan", status: "pending" },
          ],
        },
      },
    ],
  },
  { toolCalls: [{ name: "task", args: { description: "[research] What is in the box?", subagent_type: "researcher" } }] },
  { toolCalls: [{ name: "edit_file", args: { file_path: "/plan.md", old_string: "draft", new_string: "a cat, says the researcher" } }] },
  { text: "The plan says what is in the box." },
];

/** The subagent's answer: slow enough to be seen streaming under its card. */
const RESEARCH = ["The box ", "holds ", "a cat, ", "asleep ", "on a ", "blanket."];

const SLOW = Array.from({ length: 40 }, (_, i) => `word${i + 1} `);

function script(req: RecordedRequest): ServerReply | undefined {
  const messages = (req.body.messages ?? []) as Message[];
  const user = textOf(messages.findLast((m) => m.role === "user")?.content);
  if (user.includes("[research]")) return { chunks: RESEARCH, delayMs: 700 };
  if (user.includes("[slow]")) return { chunks: SLOW, delayMs: 400 };
  if (user.includes("[upstream]")) return PARENT[messages.filter((m) => m.role === "tool").length];
  return undefined;
}

test.describe.configure({ mode: "serial", timeout: 240_000 });

let model: ScriptedServer;
let server: LangGraphServer;

test.beforeAll(async ({ baseURL }) => {
  model = await startScriptedServer("openai", script);
  server = await startLangGraphServer({
    kind: "dev",
    port: await freePort(),
    corsOrigins: [new URL(baseURL!).origin],
    graphs: { upstream: "./src/testing/upstream-deepagents-graph.ts:graph" },
    env: { DEEPTAB_MODEL: "openai-compatible:scripted", OPENAI_BASE_URL: model.baseUrl() },
  });
});
test.afterAll(async () => {
  await server?.stop();
  await model?.close();
});

/** Settings → Runtime → LangGraph server at the test's server, with the upstream graph's assistant chosen. */
async function useUpstream(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Settings" }).click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  const runtime = dialog.getByRole("form", { name: "Runtime" });
  await runtime.getByRole("radio", { name: /^LangGraph server/ }).check();
  await runtime.getByLabel("Server URL").fill(server.url);
  await runtime.getByRole("button", { name: "Connect" }).click();
  await expect(runtime.getByTestId("runtime-status")).toContainText(`on ${server.url}.`, { timeout: 60_000 });
  const assistant = runtime.getByLabel("Assistant");
  const upstream = await assistant.locator("option", { hasText: "upstream" }).getAttribute("value");
  await assistant.selectOption(upstream!);
  await expect(runtime.getByTestId("runtime-status")).toHaveText(`Using upstream on ${server.url}.`);
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
}

test("an upstream deepagents graph: a subagent streams under its card, its approval is answered, its todos show, its file opens", async ({
  page,
}) => {
  const errors = watchErrors(page);
  await page.goto("/");
  await useUpstream(page);

  await send(page, "[upstream] find out what is in the box and update the plan");
  const task = page.getByTestId("tool-call").and(page.locator('[data-tool="task"]'));
  await expect(task).toHaveAttribute("data-status", "running", { timeout: 60_000 });
  await expect(task.getByRole("button", { name: /task/ })).toContainText("researcher: [research] What is in the box?");
  // The researcher's words stream in under its card while it runs (the server names it by namespace, not call id).
  const nested = task.getByRole("group", { name: "Subagent activity" });
  await expect(nested.getByTestId("assistant-live")).toContainText("The box holds", { timeout: 60_000 });
  await expect(task).toHaveAttribute("data-status", "running");

  // deepagents' own interrupt for edit_file is the page's approval dialog.
  const approval = page.getByTestId("approval");
  await expect(page.getByRole("dialog", { name: "Approve edit_file?" })).toBeVisible({ timeout: 60_000 });
  await expect(task).toHaveAttribute("data-status", "done");
  await approval.getByTestId("approve").click();
  await expect(approval).toHaveCount(0);
  await idle(page, 60_000);
  await expect(page.getByTestId("assistant-message").last()).toHaveText("The plan says what is in the box.");

  // The todos come from the `todos` channel of LangChain's todo-list middleware on the server.
  await expect(page.getByRole("tab", { name: /^Todos/ })).toHaveText("Todos 0/2");
  await page.getByRole("tab", { name: /^Todos/ }).click();
  await expect(page.getByText("ask the researcher")).toBeVisible();

  // The file comes from deepagents' `files` channel of the thread on the server, as edited.
  await page.getByRole("tab", { name: "Files" }).click();
  await page.getByTestId("files").locator('[data-testid="file"][data-path="/plan.md"]').click();
  await expect(page.getByTestId("file-viewer")).toContainText("a cat, says the researcher");
  expect(errors).toEqual([]);
});

test("a reload while the upstream graph streams rejoins its run: the whole answer arrives without Continue", async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto("/");
  await useUpstream(page);
  await page.getByRole("button", { name: "New thread", exact: true }).click();
  await send(page, "[slow] talk through a reload");
  await expect(page.getByTestId("assistant-live")).toContainText("word3", { timeout: 60_000 });
  await page.reload();
  await expect(page.getByTestId("user-message")).toHaveText("[slow] talk through a reload", { timeout: 60_000 });
  await expect(page.getByTestId("assistant-message").last()).toHaveText(SLOW.join("").trim(), { timeout: 60_000 });
  await idle(page, 60_000);
  await expect(page.getByTestId("interrupted")).toHaveCount(0);
  expect(errors).toEqual([]);
});

test("Stop ends a run of the upstream graph on the server, keeps what was shown, and the same thread takes the next message", async ({
  page,
}) => {
  const errors = watchErrors(page);
  await page.goto("/");
  await useUpstream(page);
  await page.getByRole("button", { name: "New thread", exact: true }).click();
  await send(page, "[slow] talk for a while");
  await expect(page.getByTestId("assistant-live")).toContainText("word3", { timeout: 60_000 });
  await page.getByRole("button", { name: "Stop" }).click();
  await idle(page, 60_000);
  await expect(page.getByRole("button", { name: "Stop" })).toHaveCount(0);
  // The user's message stays (read from the thread's checkpoint: the API forgets a stopped thread's values), and so
  // does the answer as far as it had come, written back into the thread.
  await expect(page.getByTestId("user-message")).toHaveText("[slow] talk for a while");
  await expect(page.getByTestId("assistant-message").last()).toContainText("word3");
  // (The server tier checks that the server's run ends cancelled; see langgraph-client-upstream.server.test.ts.)
  // The same thread takes the next message.
  await send(page, "[upstream] find out what is in the box and update the plan");
  await expect(page.getByTestId("tool-call").first()).toBeVisible({ timeout: 60_000 });
  expect(errors).toEqual([]);
});
