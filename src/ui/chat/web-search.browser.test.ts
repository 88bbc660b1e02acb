/**
 * Anthropic's web search in Chromium, from the real agent worker to the timeline: the thread's "Web search" switch
 * binds the server tool, the real client parses the loopback server's scripted search (server_tool_use,
 * web_search_tool_result, cited text, streamed), the timeline shows the search as a `web_search` card with its query
 * and result titles as links, and the answer's citations as links (a `javascript:` one never becomes a link). After a
 * reload (a new worker on the same database) the next turn sends the search's blocks back as they were.
 */
import { afterEach, describe, expect, inject, it } from "vitest";
import { page, userEvent } from "vitest/browser";
import type { WebSearchReply } from "../../testing/provider-servers.ts";
import { cleanupRendered, render } from "../../testing/render.svelte.ts";
import { serverScope } from "../../testing/server-scope.ts";
import { workerPool } from "../../testing/worker-pool.ts";
import type { AgentClient } from "../../page/client.ts";
import { Chat } from "./chat.svelte.ts";
import { buildTimeline } from "./timeline.ts";
import SettingsDialog from "../settings/settings-dialog.svelte";
import { SettingsState } from "../settings/settings.svelte.ts";
import Timeline from "./timeline.svelte";

const { spawn } = workerPool(`web-search-${crypto.randomUUID()}`);
const undo: Array<() => void> = [];
afterEach(() => {
  cleanupRendered();
  for (const end of undo.splice(0)) end();
});

const SEARCH: WebSearchReply = {
  query: "deeptab web search",
  results: [
    { url: "https://example.com/deep-agents", title: "Deep agents, explained" },
    { url: "javascript:alert(1)", title: "Not a link" },
    { url: "https://docs.example.org/tabs", title: "Agents in a tab" },
  ],
  cite: [0, 1, 2],
};

async function turn(client: AgentClient, thread: string, text: string): Promise<void> {
  const start = await client.run(thread, { text }, () => undefined);
  if (!start.ok) throw new Error(start.error.message);
  expect(await start.value.done).toMatchObject({ status: "complete" });
}

describe("the Web search switch in Settings", () => {
  it("is shown only where the provider runs a search of its own, and saved with the thread's model", async () => {
    const client = spawn();
    const chat = new Chat(client, `s-${crypto.randomUUID()}`);
    await chat.connect();
    const settings = new SettingsState(client);
    await settings.load();
    undo.push(
      () => settings.dispose(),
      () => chat.dispose(),
    );
    render(SettingsDialog, { open: true, onClose: () => undefined, settings, chat });
    const provider = page.getByRole("combobox", { name: "Provider", exact: true });
    const search = page.getByRole("checkbox", { name: "Web search", exact: true });
    await expect.element(provider).toHaveValue("demo");
    await expect.element(search).not.toBeInTheDocument();
    await userEvent.selectOptions(provider, "openai-compatible");
    await expect.element(search).not.toBeInTheDocument();
    await userEvent.selectOptions(provider, "openai");
    await expect.element(search).toBeVisible();
    await userEvent.selectOptions(provider, "anthropic");
    await expect.element(search).not.toBeChecked();
    await expect.element(search).toHaveAccessibleDescription(expect.stringContaining("searches the web on its own servers"));
    await userEvent.click(search);
    await userEvent.fill(page.getByLabelText("API key", { exact: true }), "sk-ant-test");
    await userEvent.click(page.getByRole("button", { name: "Save", exact: true }));
    await expect.element(page.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();
    expect(chat.view?.model).toMatchObject({ provider: "anthropic", webSearch: true });
    expect((await client.getThread(chat.threadId)).model.webSearch).toBe(true);
  }, 60_000);
});

describe("Anthropic's web search in the app", () => {
  it("shows the search as a card and the citations as links, and the next turn after a reload replays the blocks", async () => {
    const server = serverScope(inject("anthropicServer"));
    await server.script([
      { webSearch: SEARCH, chunks: ["Deep agents plan ", "and use files."] },
      { when: { lastUserIncludes: "again" }, text: "Still true." },
    ]);
    const thread = `w-${crypto.randomUUID()}`;
    const first = spawn();
    await first.setKey("anthropic", "sk-ant-test", false, server.root);
    await first.setThreadModel(thread, { provider: "anthropic", model: "claude-sonnet-4-5", baseUrl: server.root, webSearch: true });
    await turn(first, thread, "What are deep agents?");

    const sent = await server.requests();
    expect(sent[0]!.body.tools).toContainEqual(expect.objectContaining({ type: "web_search_20250305", name: "web_search" }));
    const view = await first.getThread(thread);
    const el = render(Timeline, { items: buildTimeline(view.messages) });

    const card = el.querySelector<HTMLElement>('[data-testid="tool-call"][data-tool="web_search"]')!;
    expect(card.dataset.status).toBe("done");
    expect(card.textContent).toContain(SEARCH.query);
    await userEvent.click(card.querySelector<HTMLButtonElement>("button.toggle")!);
    const results = [...card.querySelectorAll<HTMLAnchorElement>('ol[aria-label="Search results"] a')];
    expect(results.map((a) => [a.textContent, a.getAttribute("href")])).toEqual([
      ["Deep agents, explained", "https://example.com/deep-agents"],
      ["Agents in a tab", "https://docs.example.org/tabs"],
    ]);

    const answer = el.querySelector<HTMLElement>('[data-testid="assistant-message"]')!;
    expect(answer.textContent).toContain("Deep agents plan and use files.");
    const sources = [...el.querySelectorAll<HTMLAnchorElement>('ol[aria-label="Sources"] a')];
    expect(sources.map((a) => [a.textContent, a.href, a.rel])).toEqual([
      ["Deep agents, explained", "https://example.com/deep-agents", "noopener noreferrer nofollow"],
      ["Agents in a tab", "https://docs.example.org/tabs", "noopener noreferrer nofollow"],
    ]);
    expect(el.innerHTML).not.toContain("javascript:");
    first.close();

    // A reload: a new worker on the same database runs the next turn from the stored thread.
    const second = spawn();
    await second.setKey("anthropic", "sk-ant-test", false, server.root);
    await turn(second, thread, "Say it again.");
    const replayed = (await server.requests())[1]!.body.messages as Array<{ role: string; content: unknown }>;
    const blocks = replayed.find((m) => m.role === "assistant")!.content as Array<Record<string, unknown>>;
    expect(blocks.map((b) => b.type)).toEqual(["server_tool_use", "web_search_tool_result", "text"]);
    expect(blocks[0]).toMatchObject({ id: "srvtoolu_0", input: { query: SEARCH.query } });
    expect(blocks[1]).toMatchObject({ tool_use_id: "srvtoolu_0", content: [{ encrypted_content: "enc_0_0" }, {}, {}] });
    expect(blocks[2]!.citations).toHaveLength(3);
    expect((await second.getThread(thread)).messages.at(-1)?.content).toBe("Still true.");
  }, 120_000);
});

describe("OpenAI's web search in the app", () => {
  it("goes through the Responses API from the worker, and shows the search card and the citations", async () => {
    const server = serverScope(inject("providerServer"));
    await server.script([{ webSearch: SEARCH, chunks: ["Deep agents ", "plan."] }]);
    const thread = `o-${crypto.randomUUID()}`;
    const client = spawn();
    await client.setKey("openai", "sk-test", false, server.baseUrl);
    await client.setThreadModel(thread, { provider: "openai", model: "gpt-4.1", baseUrl: server.baseUrl, webSearch: true });
    await turn(client, thread, "What are deep agents?");

    const sent = await server.requests();
    expect(sent.map((r) => r.path)).toEqual(["/v1/responses"]);
    expect(sent[0]!.body.tools).toContainEqual({ type: "web_search" });
    const el = render(Timeline, { items: buildTimeline((await client.getThread(thread)).messages) });
    const card = el.querySelector<HTMLElement>('[data-testid="tool-call"][data-tool="web_search"]')!;
    expect(card.textContent).toContain(SEARCH.query);
    expect(el.querySelector('[data-testid="assistant-message"]')?.textContent).toContain("Deep agents plan.");
    const sources = [...el.querySelectorAll<HTMLAnchorElement>('ol[aria-label="Sources"] a')].map((a) => a.href);
    expect(sources).toEqual(["https://example.com/deep-agents", "https://docs.example.org/tabs"]);
  }, 120_000);
});
