/**
 * The agents' state and components in Chromium over the real agent worker (its own IndexedDB) and the site's agents
 * the dev server serves: the gallery lists them and a starter prompt gives the shown thread its agent; the site's
 * default agent is the first thread's (only while there are no threads); a dropped
 * folder whose files hold markup is reviewed as text (no element of it reaches the DOM); **Use this agent** stores it
 * and the thread takes it; **Leave** on a link's review takes `?agent=` out of the address and stores nothing.
 */
import { flushSync } from "svelte";
import { afterEach, describe, expect, inject, it, vi } from "vitest";
import { cleanupRendered, render } from "../../testing/render.svelte.ts";
import { WAIT as WAIT_FOR } from "../../testing/wait.ts";
import { workerPool } from "../../testing/worker-pool.ts";
import { Chat } from "../chat/chat.svelte.ts";
import { Threads } from "../threads/threads.svelte.ts";
import AgentLanding from "./agent-landing.svelte";
import Gallery from "./gallery.svelte";
import ReviewDialog from "./review-dialog.svelte";
import { AgentsState, type AddressBar } from "./state.svelte.ts";

const { spawn } = workerPool();
const WAIT = { timeout: 30_000 } as const;
const cleanup: Array<() => void> = [];

afterEach(() => {
  cleanupRendered();
  for (const undo of cleanup.splice(0).reverse()) undo();
});

function address(start: string): AddressBar & { current: URL } {
  const bar = {
    current: new URL(start),
    get: () => new URL(bar.current.href),
    replace: (url: URL) => {
      bar.current = url;
    },
  };
  return bar;
}

async function setup(bar = address("http://127.0.0.1/app/"), site: { defaultAgent?: string } = {}) {
  const real = spawn();
  // A site built with DEEPTAB_DEFAULT_AGENT says so through defaultAgent; the rest is the real worker.
  const client = site.defaultAgent ? { ...real, defaultAgent: () => Promise.resolve(site.defaultAgent) } : real;
  const chat = new Chat(client, `thread-${crypto.randomUUID()}`);
  const threads = new Threads(client, chat);
  cleanup.push(() => {
    threads.dispose();
    chat.dispose();
  });
  const agents = new AgentsState(client, chat, threads, bar);
  await agents.start(chat.connect());
  return { client, chat, agents, bar };
}

const hostile = {
  "agent.yaml": 'name: "<b>Bold</b> agent"\ndescription: "<img src=x onerror=alert(1)> describes"\nsuggestions: ["<i>go</i>"]\n',
  "AGENTS.md": "<script>window.pwned = true</script> Be careful.",
  "agents/helper.md": "---\nname: helper\ndescription: <a href=javascript:alert(1)>helps</a>\n---\nHelp.",
};

describe("agents on the page", () => {
  it("lists the general agent and the site's; a starter prompt gives the thread its agent and fills the box (focused)", async () => {
    const { agents, chat } = await setup();
    expect(agents.list.map((a) => a.id).slice(0, 4)).toEqual(["general", "site:coding", "site:data", "site:research"]);
    expect(agents.settled).toBe(true);
    const prompts: string[] = [];
    const root = render(Gallery, { agents, onSuggest: (p: string) => prompts.push(p) });
    const card = root.querySelector<HTMLElement>('[data-agent="site:research"]')!;
    expect(card.querySelector("h3")?.textContent).toBe("Research assistant");
    const chip = card.querySelector<HTMLButtonElement>('[data-testid="suggestion"]')!;
    chip.click();
    await expect.poll(() => prompts, WAIT).toEqual([agents.list.find((a) => a.id === "site:research")!.suggestions[0]]);
    expect(chat.view?.agent.id).toBe("site:research");
    // The prompt goes into the message box, which keeps focus: the landing is announced, not focused.
    expect(agents.landed).toMatchObject({ text: "Now using Research assistant", focus: false });
    flushSync();
    expect(card.textContent).toContain("This thread's agent");
    // Every control names its agent.
    expect(card.querySelector('button[aria-label="About Research assistant"]')).not.toBeNull();
    expect(card.querySelector('button[aria-label="Remove Research assistant"]')).toBeNull();
  });

  it("Share: the outcome shows in the scrolled view (a status region), with how the download becomes a ?agent= link", async () => {
    const { agents } = await setup();
    // The gallery in a short scrolled view, as on a phone above the message box.
    const view = document.createElement("div");
    view.style.cssText = "height: 240px; overflow: auto; width: 360px";
    document.body.append(view);
    cleanup.push(() => view.remove());
    const root = render(Gallery, { agents, onSuggest: () => {} }, { into: view });
    root.querySelector<HTMLButtonElement>('button[aria-label="Share Research assistant"]')!.click();
    const status = root.querySelector<HTMLElement>('[data-testid="agent-status"]')!;
    expect(status.getAttribute("role")).toBe("status");
    await expect.poll(() => status.textContent, WAIT).toContain("Downloaded");
    expect(status.textContent).toContain("To share it as a link, put the zip on a web host that allows this site (CORS)");
    expect(status.textContent).toContain("http://127.0.0.1/app/?agent= followed by the zip's address");
    const seen = view.getBoundingClientRect();
    const box = status.getBoundingClientRect();
    expect(box.top).toBeGreaterThanOrEqual(seen.top);
    expect(box.bottom).toBeLessThanOrEqual(seen.bottom);
  });

  it("opens on the site's default agent when the person has no threads yet, and not once they have one", async () => {
    const { chat, client, agents: first } = await setup(undefined, { defaultAgent: "site:data" });
    expect(chat.view?.agent.id).toBe("site:data");
    // Not chosen by the person: nothing is announced, nothing takes focus.
    expect(first.landed).toBeNull();
    await chat.send({ text: "hello" });
    await expect.poll(async () => (await client.listThreads()).length, WAIT).toBe(1);
    await expect.poll(() => chat.running, WAIT).toBe(false);

    // The next page load in the same browser: a thread exists, so the new empty thread keeps the general agent.
    const later = new Chat(client, `thread-${crypto.randomUUID()}`);
    const threads = new Threads(client, later);
    cleanup.push(() => {
      threads.dispose();
      later.dispose();
    });
    const agents = new AgentsState(client, later, threads, address("http://127.0.0.1/app/"));
    await agents.start(later.connect());
    expect(agents.settled).toBe(true);
    expect(later.view?.agent.id ?? "general").toBe("general");
  });

  it("reviews a dropped folder as text, uses it, and the shown thread takes it", async () => {
    const { agents, chat, client } = await setup();
    const files = Object.entries(hostile).map(([path, text]) => ({ path: `mine/${path}`, file: new File([text], path.split("/").pop()!) }));
    await agents.openUpload(files, true);
    const shown = agents.shown;
    if (!shown || !("review" in shown)) throw new Error(`no review: ${JSON.stringify(shown)}`);
    const root = render(ReviewDialog, { agents });
    const dialog = root.ownerDocument.querySelector("dialog[open]")!;
    expect(dialog.querySelector("h2")?.textContent).toBe("Use <b>Bold</b> agent?");
    expect(dialog.textContent).toContain("<img src=x onerror=alert(1)> describes");
    expect(dialog.textContent).toContain("<a href=javascript:alert(1)>helps</a>");
    expect(dialog.querySelector("pre")?.textContent).toBe("<script>window.pwned = true</script> Be careful.");
    for (const tag of ["b", "img", "script", "i"]) expect(dialog.querySelector(tag), tag).toBeNull();
    expect(dialog.querySelector("a")).toBeNull();
    expect((window as { pwned?: boolean }).pwned).toBeUndefined();

    const stored = (await client.listAgents()).length;
    dialog.querySelector<HTMLButtonElement>("button.primary")!.click();
    await expect.poll(() => chat.view?.agent.name, WAIT).toBe("<b>Bold</b> agent");
    // The thread's view can show its agent (the worker's notice) before the use call returns and closes the review.
    await expect.poll(() => agents.shown, WAIT).toBeNull();
    expect((await client.listAgents()).length).toBe(stored + 1);
    expect(agents.list.at(-1)?.id).toBe(chat.view?.agent.id);
  });

  it("after Use this agent, the thread lands on it: its name focused, its description and starter prompts, 'Now using' it", async () => {
    const { agents, chat } = await setup();
    const folder = {
      "agent.yaml":
        'name: Tide tables\ndescription: Reads tide tables for a harbour.\nsuggestions: ["High tide at Brest today?", "Plot a week"]\n',
      "AGENTS.md": "Answer with times.",
    };
    const files = Object.entries(folder).map(([path, text]) => ({ path: `tides/${path}`, file: new File([text], path) }));
    await agents.openUpload(files, true);
    expect(agents.landed).toBeNull();
    const root = render(ReviewDialog, { agents });
    const dialog = root.ownerDocument.querySelector("dialog[open]")!;
    [...dialog.querySelectorAll("button")].find((b) => b.textContent === "Use this agent")!.click();
    await expect.poll(() => agents.current?.name, WAIT).toBe("Tide tables");
    expect(agents.landed).toMatchObject({ text: "Now using Tide tables", focus: true });

    const prompts: string[] = [];
    const landing = render(AgentLanding, {
      agent: agents.current!,
      focusKey: agents.landed!.seq,
      demo: true,
      disabled: false,
      onSuggest: (p: string) => prompts.push(p),
      onConnect: () => undefined,
    });
    const heading = landing.querySelector("h2")!;
    expect(heading.textContent).toBe("Tide tables");
    await vi.waitFor(() => expect(document.activeElement).toBe(heading), WAIT_FOR);
    expect(landing.textContent).toContain("Reads tide tables for a harbour.");
    expect(landing.textContent).not.toMatch(/research cats|Try “hello”/);
    const list = landing.querySelector('ul[aria-label="Try Tide tables with"]')!;
    const chips = [...list.querySelectorAll<HTMLButtonElement>("button")];
    // On the scripted demo model, prompts without a recorded demo say they need a model.
    expect(chips.map((c) => c.textContent)).toEqual(["High tide at Brest today? (needs a model)", "Plot a week (needs a model)"]);
    chips[1]!.click();
    expect(prompts).toEqual(["Plot a week"]);
    expect(landing.querySelector("button.link")?.textContent).toBe("connect a real model");

    // A message sent ends the landing: nothing more to announce.
    await chat.send({ text: "hello" });
    await expect.poll(() => agents.landed, WAIT).toBeNull();
  });

  it("names on the review each subagent host the person's key is not sent to", async () => {
    const { agents, client } = await setup();
    await client.setKey("openai-compatible", "person-key-1a2b3c4d", false, "http://127.0.0.1:9/v1");
    const sub = (name: string, baseUrl: string) =>
      `---\nname: ${name}\ndescription: Helps.\nmodel:\n  provider: openai-compatible\n  model: m\n  base_url: ${baseUrl}\n---\nHelp.`;
    const folder = {
      "AGENTS.md": "Delegate.",
      "agents/away.md": sub("away", "https://author.example/v1"),
      "agents/home.md": sub("home", "http://127.0.0.1:9/v1"),
    };
    const files = Object.entries(folder).map(([path, text]) => ({ path: `hosts/${path}`, file: new File([text], path.split("/").pop()!) }));
    await agents.openUpload(files, true);
    const root = render(ReviewDialog, { agents });
    const dialog = root.ownerDocument.querySelector("dialog[open]")!;
    const notes = [...dialog.querySelectorAll('[data-testid="key-not-sent"]')].map((p) => p.textContent);
    expect(notes).toEqual(["away calls https://author.example: your key is not sent there."]);
  });

  it("refuses a dropped folder that is no agent with every problem, and Leave on a link stores nothing", async () => {
    const bar = address("http://127.0.0.1/app/?agent=http%3A%2F%2F127.0.0.1%3A9%2Fnone.zip&x=1");
    const { agents, client } = await setup(bar);
    // The link's host does not answer: the review says why.
    const failed = agents.shown;
    expect(failed && "error" in failed && failed.error.code).toBe("fetch_failed");
    const before = (await client.listAgents()).length;
    agents.leave();
    expect(bar.current.search).toBe("?x=1");

    await agents.openUpload(
      [
        { path: "bad/AGENTS.md", file: new File(["Be brief."], "AGENTS.md") },
        { path: "bad/agents/helper.md", file: new File(["---\nname: helper\n---\nHelp."], "helper.md") },
      ],
      true,
    );
    const shown = agents.shown;
    expect(shown && "error" in shown && shown.error.code).toBe("invalid_agent");
    const root = render(ReviewDialog, { agents });
    const problems = [...root.ownerDocument.querySelectorAll('dialog[open] [data-testid="agent-problem"]')].map((p) => p.textContent);
    expect(problems.length).toBeGreaterThan(0);
    // The subagent without a description, named by its file and field.
    expect(problems.join("\n")).toMatch(/agents\/helper\.md.*description/s);
    expect((await client.listAgents()).length).toBe(before);
  });

  it("shows an agent's MCP servers, connects none unless ticked, and adds the ticked one under the agent's name on Use", async () => {
    const { agents, client, chat } = await setup();
    const url = inject("mcpServers").cors;
    const folder = (name: string) => ({
      [`${name}/AGENTS.md`]: "Use the docs.",
      [`${name}/agent.yaml`]: [
        `name: ${name}`,
        "mcp_servers:",
        `  - { name: docs-hub, url: "${url}", headers: [X-Api-Key] }`,
        `  - { name: other, url: "${url}?b" }`,
        "",
      ].join("\n"),
    });
    const open = async (name: string) => {
      const files = Object.entries(folder(name)).map(([path, text]) => ({ path, file: new File([text], path.split("/").pop()!) }));
      await agents.openUpload(files, true);
      const root = render(ReviewDialog, { agents });
      return root.ownerDocument.querySelector("dialog[open]")!;
    };
    const mcp = await client.mcpServers();
    const before = (await mcp.listMcpServers()).length;

    // Used without ticking: nothing is added.
    let dialog = await open("plain");
    expect(dialog.querySelector('[data-testid="agent-mcp-servers"]')?.textContent).toContain("docs-hub");
    expect(dialog.querySelector('[data-testid="agent-mcp-servers"]')?.textContent).toContain("asks you for: X-Api-Key");
    const boxes = () => [...dialog.querySelectorAll<HTMLInputElement>('[data-testid="agent-mcp-choices"] input[type="checkbox"]')];
    expect(boxes().map((b) => b.checked)).toEqual([false, false]);
    dialog.querySelector<HTMLButtonElement>("button.primary")!.click();
    await expect.poll(() => chat.view?.agent.name, WAIT).toBe("plain");
    expect((await mcp.listMcpServers()).length).toBe(before);
    cleanupRendered();

    // Ticked: the one ticked is added as docs-hub, asking for its header in Settings; the other is not.
    dialog = await open("ticked");
    boxes()[0]!.click();
    flushSync();
    expect(boxes().map((b) => b.checked)).toEqual([true, false]);
    dialog.querySelector<HTMLButtonElement>("button.primary")!.click();
    await expect.poll(() => agents.notice?.text ?? "", WAIT).toContain("Added MCP server docs-hub");
    const added = (await mcp.listMcpServers()).filter((s) => s.url.startsWith(url));
    expect(added.map((s) => s.name)).toEqual(["docs-hub"]);
    expect(added[0]!.header?.name).toBe("X-Api-Key");
    await mcp.removeMcpServer(added[0]!.id);
  });
});
