/**
 * An agent's recorded demos on the page (Chromium, the real agent worker): a folder with a demo, dropped and used,
 * shows the demo as a starter chip marked "Recorded demo" (its prompt in replay mode when chosen) on its landing and
 * its gallery card, its prompts without a demo say they need a model while the person's model is the scripted demo
 * model, and its review lists each demo (title, prompt, replies, tools, model, who recorded it). Save as demo lists
 * what a thread's demo keeps, saves it as a new version of the agent (named in the confirmation, with Share) and
 * shows the worker's refusals as text. All of it as text.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { AgentDemo } from "../../protocol/agents.ts";
import { cleanupRendered, render } from "../../testing/render.svelte.ts";
import { workerPool } from "../../testing/worker-pool.ts";
import { Chat } from "../chat/chat.svelte.ts";
import { Threads } from "../threads/threads.svelte.ts";
import AgentLanding from "./agent-landing.svelte";
import Gallery from "./gallery.svelte";
import ReviewDialog from "./review-dialog.svelte";
import SaveDemoDialog from "./save-demo-dialog.svelte";
import { saveDemoFor, type SaveDemoHost } from "./save-demo.svelte.ts";
import { AgentsState } from "./state.svelte.ts";

const { spawn } = workerPool();
const WAIT = { timeout: 30_000 } as const;
const cleanup: Array<() => void> = [];
afterEach(() => {
  cleanupRendered();
  for (const undo of cleanup.splice(0).reverse()) undo();
});

/** A demo file as the format has it (models/replay/format.ts): a prompt, a reply calling write_file, then an answer. */
function demoFile(prompt: string, over: Record<string, unknown> = {}): string {
  return JSON.stringify({
    format: "deeptab-demo/1",
    title: "<b>Greeting</b> demo",
    model: "openai:gpt-4.1-mini",
    recordedBy: "Ada <i>L</i>",
    recordedAt: "2026-12-07T10:00:00.000Z",
    prompts: [prompt],
    calls: [
      {
        conversation: "ab",
        index: 0,
        request: [{ kind: "human", text: prompt }],
        reply: { text: "", toolCalls: [{ id: "c0", name: "write_file", args: { file_path: "/hi.md", content: "hi" } }] },
        timing: { firstMs: 300, chunks: [], endMs: 420 },
      },
      { conversation: "ab", index: 1, request: [], reply: { text: "Hi!" }, timing: { firstMs: 200, chunks: [[200, 3]], endMs: 210 } },
    ],
    ...over,
  });
}

async function setup() {
  const client = spawn();
  const chat = new Chat(client, `thread-${crypto.randomUUID()}`);
  const threads = new Threads(client, chat);
  cleanup.push(() => {
    threads.dispose();
    chat.dispose();
  });
  const agents = new AgentsState(client, chat, threads, { get: () => new URL("http://127.0.0.1/"), replace: () => undefined });
  await agents.start(chat.connect());
  return { client, chat, agents };
}

async function withDemoAgent() {
  const { client, chat, agents } = await setup();
  const folder = {
    "agent.yaml": 'name: Greeter\ndescription: Greets.\nsuggestions: ["Say hi", "Say bye"]\n',
    "AGENTS.md": "Greet people.",
    "demos/say-hi.json": demoFile("Say hi"),
  };
  const files = Object.entries(folder).map(([path, text]) => ({ path: `greeter/${path}`, file: new File([text], path.split("/").pop()!) }));
  await agents.openUpload(files, true);
  const shown = agents.shown;
  if (!shown || !("review" in shown)) throw new Error(`no review: ${JSON.stringify(shown)}`);
  await agents.accept();
  await expect.poll(() => chat.view?.agent.name, WAIT).toBe("Greeter");
  return { client, chat, agents, agent: agents.current! };
}

describe("an agent's recorded demos", () => {
  it("show as chips marked Recorded demo; on the scripted model its other prompts say they need a model", async () => {
    const { agent } = await withDemoAgent();
    expect(agent.demos?.map((d) => d.file)).toEqual(["demos/say-hi.json"]);
    const chosen: Array<[string, AgentDemo | undefined]> = [];
    const root = render(AgentLanding, {
      agent,
      focusKey: null,
      demo: true,
      disabled: false,
      onSuggest: (prompt: string, demo?: AgentDemo) => chosen.push([prompt, demo]),
      onConnect: () => undefined,
    });
    const chips = [...root.querySelectorAll<HTMLButtonElement>('ul[aria-label="Try Greeter with"] button')];
    expect(chips.map((c) => c.textContent?.replace(/\s+/g, " ").trim())).toEqual([
      "Recorded demo <b>Greeting</b> demo",
      "Say bye (needs a model)",
    ]);
    expect(root.querySelector("b")).toBeNull();
    expect(chips[0]!.dataset.testid).toBe("demo-chip");
    expect(chips[0]!.title).toBe("Say hi");
    chips[0]!.click();
    chips[1]!.click();
    expect(chosen).toEqual([
      ["Say hi", agent.demos![0]],
      ["Say bye", undefined],
    ]);
  });

  it("with a model of the person's own the prompts need nothing; a gallery card shows the demo chip too", async () => {
    const { agents, agent } = await withDemoAgent();
    const landing = render(AgentLanding, {
      agent,
      focusKey: null,
      demo: false,
      disabled: false,
      onSuggest: () => undefined,
      onConnect: () => undefined,
    });
    expect(landing.textContent).not.toContain("needs a model");
    // The demo's prompt is offered to run with the person's model as well.
    expect([...landing.querySelectorAll('[data-testid="landing-suggestion"]')].map((c) => c.textContent)).toEqual(["Say hi", "Say bye"]);
    const chosen: Array<[string, AgentDemo | undefined]> = [];
    const gallery = render(Gallery, { agents, scriptedModel: true, onSuggest: (p: string, d?: AgentDemo) => chosen.push([p, d]) });
    const card = gallery.querySelector<HTMLElement>(`[data-agent="${agent.id}"]`)!;
    const chip = card.querySelector<HTMLButtonElement>('[data-testid="demo-chip"]')!;
    expect(chip.textContent).toContain("Recorded demo");
    expect(card.querySelector('[data-testid="suggestion"]')?.textContent).toContain("(needs a model)");
    // The general agent's prompts are the scripted model's own: they need nothing.
    expect(gallery.querySelector('[data-agent="general"]')?.textContent).not.toContain("needs a model");
    chip.click();
    await expect.poll(() => chosen, WAIT).toEqual([["Say hi", agent.demos![0]]]);
  });

  it("are listed by the review: title, prompt, replies, tools, model, who recorded it", async () => {
    const { agents, agent } = await withDemoAgent();
    await agents.about(agent.id);
    const root = render(ReviewDialog, { agents });
    const dialog = root.ownerDocument.querySelector("dialog[open]")!;
    const item = dialog.querySelector<HTMLElement>('[data-testid="agent-demo"]')!;
    const text = item.textContent!.replace(/\s+/g, " ");
    expect(text).toContain("<b>Greeting</b> demo demos/say-hi.json");
    expect(text).toContain("Prompt: Say hi");
    expect(text).toContain("2 model replies · tools: write_file · model openai:gpt-4.1-mini · recorded by Ada <i>L</i>");
    expect(dialog.querySelector("b, i")).toBeNull();
  });
});

/** The Save dialog over the shown thread, as the app wires it. */
const dialogOf = () => document.querySelector<HTMLDialogElement>("dialog[open]")!;

describe("Save as demo", () => {
  it("lists what the demo keeps, saves a new version of the agent and names it, with Share", async () => {
    const { chat, agents } = await withDemoAgent();
    // The scripted demo model: "research" starts the general-purpose subagent, which writes a file.
    expect(await chat.send({ text: "research <b>tides</b>" })).toBe(true);
    await chat.idle();
    const save = saveDemoFor(chat, agents);
    render(SaveDemoDialog, { save, agents });
    save.show();
    await expect.poll(() => dialogOf()?.textContent ?? "", WAIT).toContain("What the demo keeps");
    const dialog = dialogOf();
    expect(dialog.querySelector<HTMLInputElement>('[data-testid="demo-title"]')!.value).toBe("research <b>tides</b>");
    const keeps = dialog.querySelector<HTMLElement>('[data-testid="save-demo-keeps"]')!.textContent!.replace(/\s+/g, " ");
    expect(keeps).toContain("Prompt research <b>tides</b>");
    expect(keeps).toContain("4 model replies");
    expect(keeps).toContain("Tools called task, write_file");
    expect(dialog.textContent).toContain("new version of Greeter");
    expect(dialog.textContent).toContain("no key");
    expect(dialog.querySelector("b")).toBeNull();
    const by = dialog.querySelector<HTMLInputElement>('[data-testid="demo-by"]')!;
    by.value = "Ada";
    by.dispatchEvent(new Event("input", { bubbles: true }));
    dialog.querySelector<HTMLButtonElement>('[data-testid="save-demo"]')!.click();
    await expect.poll(() => save.saved ?? save.error, WAIT).not.toBeNull();
    expect(save.error).toBeNull();
    const saved = save.saved!;
    expect(saved.file).toMatch(/^demos\/.+\.json$/);
    expect(saved.agent.demos?.map((d) => [d.file, d.recordedBy])).toContainEqual([saved.file, "Ada"]);
    await expect
      .poll(() => dialogOf().querySelector('[data-testid="save-demo-saved"]')?.textContent ?? "", WAIT)
      .toContain(`${saved.agent.name}, version ${saved.agent.hash!.replace(/^sha256[:-]/, "").slice(0, 12)}`);
    expect(dialogOf().textContent).toContain(saved.file);
    expect([...dialogOf().querySelectorAll("button")].map((b) => b.textContent?.trim())).toContain(`Share ${saved.agent.name}`);
    // The list shows the new version.
    await expect.poll(() => agents.list.some((a) => a.id === saved.agent.id), WAIT).toBe(true);
  });

  it("shows the worker's refusals as text: a thread not recorded, a run going on, an agent's problems with their places", async () => {
    const { chat, agents } = await setup();
    expect(await chat.send({ text: "hello" })).toBe(true);
    await chat.idle();
    // The worker's answers as the protocol gives them, one per save (each refusal cannot be brought about on demand).
    const answers = [
      {
        ok: false,
        error: { name: "AgentError", code: "not_recorded", message: "The turn “hello” was run before recording: <i>run it again</i>." },
      },
      {
        ok: false,
        error: { name: "AgentError", code: "thread_busy", message: "A run is going on in this thread: save the demo when it ends." },
      },
      {
        ok: false,
        error: {
          name: "AgentError",
          code: "invalid_agent",
          message: "This agent cannot be opened: a key in a demo.",
          problems: [{ code: "secret", message: "This looks like an API key.", file: "demos/hello.json", field: "calls" }],
        },
      },
    ] as const;
    let n = 0;
    const save = saveDemoFor(chat, agents, { saveDemo: () => Promise.resolve(answers[n++]!) } as unknown as SaveDemoHost["client"]);
    render(SaveDemoDialog, { save, agents });
    save.show();
    await expect.poll(() => dialogOf()?.querySelector('[data-testid="save-demo"]'), WAIT).not.toBeNull();
    const error = () => dialogOf().querySelector<HTMLElement>('[data-testid="save-demo-error"]');
    const expected = [
      ["not_recorded", "run before recording: <i>run it again</i>."],
      ["thread_busy", "save the demo when it ends."],
      ["invalid_agent", "demos/hello.json, field calls: This looks like an API key."],
    ];
    for (const [code, text] of expected) {
      dialogOf().querySelector<HTMLButtonElement>('[data-testid="save-demo"]')!.click();
      await expect.poll(() => error()?.dataset.code, WAIT).toBe(code);
      expect(error()!.getAttribute("role")).toBe("alert");
      expect(error()!.textContent!.replace(/\s+/g, " ")).toContain(text);
    }
    expect(dialogOf().querySelector("i")).toBeNull();
    expect(save.saved).toBeNull();
  });
});
