/**
 * Editing agents and a thread's agent on the page, in Chromium over the real agent worker (its own IndexedDB) and the
 * site's agents the dev server serves: the agent editor (the folder in the side panel, the file viewer's Edit and
 * Save, a refused save that keeps the text and lists its problems, a saved one the empty thread takes, a subagent
 * added and a file deleted); the banner of a thread whose agent changed since it ran, and of an imported thread whose
 * agent this browser has not reviewed (Review agent, Use this agent, and the banner goes); Remove refused while a
 * thread uses the agent, with the notice the person reads.
 */
import { flushSync } from "svelte";
import { afterEach, describe, expect, it } from "vitest";
import { cleanupRendered, render } from "../../testing/render.svelte.ts";
import { workerPool } from "../../testing/worker-pool.ts";
import type { AgentClient } from "../../page/client.ts";
import { Chat } from "../chat/chat.svelte.ts";
import { Threads } from "../threads/threads.svelte.ts";
import AgentEditor from "./agent-editor.svelte";
import Gallery from "./gallery.svelte";
import ReviewDialog from "./review-dialog.svelte";
import { AgentsState } from "./state.svelte.ts";
import ThreadAgentBanner from "./thread-agent-banner.svelte";

const { spawn } = workerPool();
const WAIT = { timeout: 30_000 } as const;
const cleanup: Array<() => void> = [];

afterEach(() => {
  cleanupRendered();
  for (const undo of cleanup.splice(0).reverse()) undo();
});

async function open(client: AgentClient = spawn(), threadId = `thread-${crypto.randomUUID()}`) {
  const chat = new Chat(client, threadId);
  const threads = new Threads(client, chat);
  cleanup.push(() => {
    threads.dispose();
    chat.dispose();
  });
  const agents = new AgentsState(client, chat, threads, { get: () => new URL("http://127.0.0.1/app/"), replace: () => undefined });
  await agents.start(chat.connect());
  return { client, chat, agents };
}

function button(root: ParentNode, name: string | RegExp): HTMLButtonElement {
  const found = [...root.querySelectorAll("button")].find((b) =>
    typeof name === "string" ? (b.getAttribute("aria-label") ?? b.textContent?.trim()) === name : name.test(b.textContent ?? ""),
  );
  if (!found) throw new Error(`no button ${String(name)}`);
  return found;
}

async function typeInto(root: HTMLElement, text: string): Promise<HTMLTextAreaElement> {
  await expect.poll(() => root.querySelector("textarea"), WAIT).not.toBeNull();
  const area = root.querySelector("textarea")!;
  area.value = text;
  area.dispatchEvent(new Event("input", { bubbles: true }));
  flushSync();
  return area;
}

async function ranThread(chat: Chat): Promise<void> {
  await chat.send({ text: "hello" });
  await expect.poll(() => chat.running, WAIT).toBe(false);
  await expect.poll(() => chat.live.messages.length, WAIT).toBeGreaterThan(0);
}

describe("the agent editor", () => {
  it("refuses an invalid agent.yaml keeping the text, saves AGENTS.md as a new version, adds a subagent, deletes a file", async () => {
    const { agents, chat, client } = await open();
    await agents.edit("site:research");
    let done = 0;
    const root = render(AgentEditor, { editor: agents.editor, onDone: () => done++ });
    expect(root.querySelector("h2")?.textContent).toBe("Editing Research assistant");
    const viewer = () => root.querySelector<HTMLElement>('[data-testid="file-viewer"]');
    expect(viewer()?.dataset.path).toBe("AGENTS.md");
    button(viewer()!, "Close file").click();
    flushSync();
    button(root, /^agent\.yaml/).click();
    flushSync();
    button(viewer()!, "Edit").click();
    const typed = "name: Research assistant\ntools: [read_file, teleport]\n";
    const area = await typeInto(root, typed);
    const before = (await client.listAgents()).map((a) => a.id);
    button(viewer()!, "Save").click();
    await expect.poll(() => viewer()?.querySelector('[role="alert"]')?.textContent ?? "", WAIT).toMatch(/^Not saved/);
    const alert = viewer()!.querySelector('[role="alert"]')!.textContent!;
    expect(alert).toContain("agent.yaml");
    expect(alert).toContain("tools.1");
    expect(alert).toContain("teleport");
    expect(area.value).toBe(typed);
    expect((await client.listAgents()).map((a) => a.id)).toEqual(before);
    expect(agents.editor.agent?.id).toBe("site:research");
    button(viewer()!, "Cancel").click();
    flushSync();

    button(viewer()!, "Close file").click();
    flushSync();
    button(root, /^AGENTS\.md/).click();
    flushSync();
    button(viewer()!, "Edit").click();
    await typeInto(root, "You are a careful researcher who cites every claim.\n");
    button(viewer()!, "Save").click();
    await expect.poll(() => viewer()?.querySelector('[role="status"]')?.textContent ?? "", WAIT).toMatch(/Saved as a new version/);
    // The empty thread shown took the edit; the list shows it after the site's agents.
    await expect.poll(() => chat.view?.agent.name, WAIT).toBe("Research assistant (edited)");
    const edited = chat.view!.agent.id;
    expect(agents.list.map((a) => a.id)).toEqual([...before, edited]);
    expect(agents.editor.agent?.id).toBe(edited);

    // A new subagent, saved at once as a valid file; then a starter file deleted: each a new version.
    button(viewer()!, "Close file").click();
    flushSync();
    const name = root.querySelector<HTMLInputElement>('input[placeholder="name"]')!;
    name.value = "checker";
    name.dispatchEvent(new Event("input", { bubbles: true }));
    flushSync();
    button(root, "Add").click();
    await expect.poll(() => viewer()?.dataset.path, WAIT).toBe("agents/checker.md");
    const withChecker = agents.editor.agent!.id;
    const review = await client.reviewAgent(withChecker);
    expect(review.ok && review.value.subagents.map((s) => s.name).sort()).toEqual(["checker", "critic"]);
    button(viewer()!, "Close file").click();
    flushSync();
    button(root, /^files\/notes\/README\.md/).click();
    flushSync();
    button(viewer()!, "Delete").click();
    flushSync();
    button(document.querySelector("dialog[open]")!, "Delete").click();
    await expect.poll(() => agents.editor.files.map((f) => f.path).includes("files/notes/README.md"), WAIT).toBe(false);
    await expect.poll(() => chat.view?.agent.id, WAIT).toBe(agents.editor.agent!.id);
    // Versions no thread ran with were replaced: the list holds the newest edit only.
    expect(agents.list.filter((a) => a.origin === "local").map((a) => a.id)).toEqual([agents.editor.agent!.id]);
    button(root, "Done").click();
    expect(done).toBe(1);
  });
});

describe("a thread's agent on the page", () => {
  it("wraps a file's long lines (no sideways scrolling), and Wrap lines turns it off", async () => {
    const { agents } = await open();
    await agents.edit("site:research");
    const narrow = document.createElement("div");
    narrow.style.cssText = "width: 320px; height: 600px";
    document.body.append(narrow);
    cleanup.push(() => narrow.remove());
    const root = render(AgentEditor, { editor: agents.editor, onDone: () => {} }, { into: narrow });
    const code = () => root.querySelector<HTMLElement>('[data-testid="file-viewer"] [role="region"]');
    await expect.poll(code, WAIT).not.toBeNull();
    expect(Math.max(...[...code()!.querySelectorAll(".text")].map((t) => t.textContent!.length))).toBeGreaterThan(60);
    expect(code()!.scrollWidth).toBeLessThanOrEqual(code()!.clientWidth);
    const wrap = button(root, "Wrap lines");
    expect(wrap.getAttribute("aria-pressed")).toBe("true");
    wrap.click();
    flushSync();
    expect(wrap.getAttribute("aria-pressed")).toBe("false");
    expect(code()!.scrollWidth).toBeGreaterThan(code()!.clientWidth);
  });

  it("says so when the thread's agent changed since it ran (a thread exported where the site's agent was older)", async () => {
    const first = await open();
    await ranThread(first.chat);
    const exported = await first.client.exportThread(first.chat.threadId);
    if (!exported.ok) throw new Error(exported.error.message);
    const older = { id: "site:research", name: "Research assistant", hash: "0".repeat(64) };
    const imported = await first.client.importThread({ ...exported.value, agent: older });
    if (!imported.ok) throw new Error(imported.error.message);
    const { chat, agents } = await open(first.client, imported.value);
    expect(chat.view?.agent).toMatchObject({ ...older, changed: true });
    const root = render(ThreadAgentBanner, { agents, agent: chat.view?.agent });
    expect(root.querySelector('[data-testid="agent-changed"]')?.textContent).toMatch(
      /This thread's agent, Research assistant, has changed or was removed since the thread started/,
    );
    const same = render(ThreadAgentBanner, { agents, agent: first.chat.view?.agent });
    expect(same.textContent?.trim()).toBe("");
  });

  it("asks for a review of an imported thread's agent this browser lacks; Use this agent lets the thread run", async () => {
    const source = await open();
    await source.agents.edit("general");
    expect((await source.agents.editor.save("AGENTS.md", "Answer in one short sentence.\n")).ok).toBe(true);
    await ranThread(source.chat);
    const exported = await source.client.exportThread(source.chat.threadId);
    if (!exported.ok || !exported.value.agent?.bundle) throw new Error("no agent in the export");

    const here = spawn();
    const imported = await here.importThread(JSON.parse(JSON.stringify(exported.value)));
    if (!imported.ok) throw new Error(imported.error.message);
    const { chat, agents } = await open(here, imported.value);
    expect(chat.view?.agent).toMatchObject({ name: "deeptab (edited)", unreviewed: true });
    const root = render(ThreadAgentBanner, { agents, agent: chat.view?.agent });
    expect(root.textContent).toContain("which this browser has not used yet");
    button(root, "Review agent").click();
    await expect.poll(() => agents.shown, WAIT).not.toBeNull();
    const dialog = render(ReviewDialog, { agents }).ownerDocument.querySelector("dialog[open]")!;
    expect(dialog.querySelector("h2")?.textContent).toBe("Use deeptab (edited)?");
    expect(dialog.querySelector("pre")?.textContent).toBe("Answer in one short sentence.");
    button(dialog, "Use this agent").click();
    await expect.poll(() => chat.view?.agent.unreviewed, WAIT).toBeUndefined();
    expect(agents.shown).toBeNull();
    expect(chat.threadId).toBe(imported.value);
    expect(agents.list.map((a) => a.name)).toContain("deeptab (edited)");
  });

  it("refuses Remove while a thread uses the agent, with the notice the person reads", async () => {
    const { agents, chat, client } = await open();
    await agents.openUpload(
      [
        { path: "mine/agent.yaml", file: new File(["name: mine\n"], "agent.yaml") },
        { path: "mine/AGENTS.md", file: new File(["Be brief."], "AGENTS.md") },
      ],
      true,
    );
    await agents.accept();
    await expect.poll(() => chat.view?.agent.name, WAIT).toBe("mine");
    await ranThread(chat);
    const root = render(Gallery, { agents, onSuggest: () => undefined });
    button(root, "Remove mine").click();
    await expect
      .poll(() => root.querySelector('[data-testid="agent-status"]')?.textContent ?? "", WAIT)
      .toContain("1 thread uses this agent; delete it first.");
    expect(root.querySelector('[data-testid="agent-status"] .error')).not.toBeNull();
    expect((await client.listAgents()).map((a) => a.name)).toContain("mine");
  });
});
