/**
 * Replaying a recorded demo, as the page shows it (Chromium, the real agent worker): the message box in replay mode
 * (the notice says who recorded the answers and with which model, the pace is kept for the session, "Use my model
 * instead" leaves it, a message sent carries the demo and its speed), the note under a replayed message, and the card
 * of a replay that stopped (Go on with the thread's model, or Settings first when it has none).
 */
import { flushSync } from "svelte";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentDemo } from "../../protocol/agents.ts";
import type { UserInput } from "../../protocol/worker-api.ts";
import { cleanupRendered, reactiveProps, render } from "../../testing/render.svelte.ts";
import { workerPool } from "../../testing/worker-pool.ts";
import { WAIT } from "../../testing/wait.ts";
import { Chat } from "./chat.svelte.ts";
import Composer from "./composer.svelte";
import DivergenceCard from "./divergence-card.svelte";
import { PACE_KEY } from "./replay.svelte.ts";
import Timeline from "./timeline.svelte";

const pool = workerPool();
const cleanup: Array<() => void> = [];
afterEach(() => {
  cleanupRendered();
  for (const undo of cleanup.splice(0).reverse()) undo();
  sessionStorage.clear();
});

const demo: AgentDemo = {
  file: "demos/summarize.json",
  title: "Summarize the CSV",
  prompt: "Summarize data/sales.csv",
  replies: 3,
  tools: ["read_file", "write_file"],
  model: "openai:gpt-4.1-mini",
  recordedBy: "Ada <b>L</b>",
  scripted: false,
};

type Prefill = { text: string; seq: number; demo?: AgentDemo } | null;

async function composer() {
  const real = pool.spawn();
  const sent: UserInput[] = [];
  // The real worker answers; the test reads what the composer sent it.
  const client = { ...real, run: (...args: Parameters<typeof real.run>) => (sent.push(args[1]), real.run(...args)) };
  const chat = new Chat(client, `thread-${crypto.randomUUID()}`);
  cleanup.push(() => chat.dispose());
  await chat.connect();
  const props = reactiveProps<{ chat: Chat; prefill: Prefill }>({ chat, prefill: null });
  const root = render(Composer, props);
  return { chat, props, root, sent };
}

const notice = (root: HTMLElement) => root.querySelector<HTMLElement>('[data-testid="replay-notice"]');
const radio = (root: HTMLElement, label: string) =>
  [...root.querySelectorAll("label")].find((l) => l.textContent?.trim() === label)!.querySelector("input")!;

describe("the message box in replay mode", () => {
  it("says where the answers come from (as text), keeps the pace for the session and leaves on Use my model instead", async () => {
    const { props, root } = await composer();
    expect(notice(root)).toBeNull();
    props.prefill = { text: demo.prompt, seq: 1, demo };
    flushSync();
    expect(root.querySelector("textarea")!.value).toBe(demo.prompt);
    const shown = notice(root)!;
    expect(shown.textContent).toContain(
      "Replays a recorded demo: the answers were recorded by Ada <b>L</b> with model openai:gpt-4.1-mini; the tools run here.",
    );
    expect(shown.querySelector("b")).toBeNull();
    expect(shown.getAttribute("role")).toBe("group");
    expect(radio(root, "Recorded pace").checked).toBe(true);
    radio(root, "4×").click();
    flushSync();
    expect(sessionStorage.getItem(PACE_KEY)).toBe("fast");

    // Another composer this session (a reload) starts at the pace chosen.
    cleanupRendered();
    const again = render(Composer, props);
    expect(radio(again, "4×").checked).toBe(true);

    const leave = again.querySelector<HTMLButtonElement>('[data-testid="replay-leave"]')!;
    expect(leave.textContent).toBe("Use my model instead");
    leave.click();
    flushSync();
    expect(notice(again)).toBeNull();
    // The prompt stays in the box: only the mode is left.
    expect(again.querySelector("textarea")!.value).toBe(demo.prompt);
  });

  it("another starter prompt leaves replay mode; an edited prompt keeps it", async () => {
    const { props, root } = await composer();
    props.prefill = { text: demo.prompt, seq: 1, demo };
    flushSync();
    const box = root.querySelector("textarea")!;
    box.value = `${demo.prompt} please`;
    box.dispatchEvent(new Event("input", { bubbles: true }));
    flushSync();
    expect(notice(root)).not.toBeNull();
    props.prefill = { text: "Plot it", seq: 2 };
    flushSync();
    expect(notice(root)).toBeNull();
  });

  it("a message sent carries the demo's file and the pace's speed; refused, it keeps the text and replay mode", async () => {
    const { chat, props, root, sent } = await composer();
    props.prefill = { text: demo.prompt, seq: 1, demo };
    flushSync();
    radio(root, "At once").click();
    flushSync();
    root.querySelector<HTMLButtonElement>('[data-testid="send"]')!.click();
    await expect.poll(() => sent.length, WAIT).toBe(1);
    expect(sent[0]).toEqual({ text: demo.prompt, replay: { file: demo.file, speed: Number.POSITIVE_INFINITY } });
    // This thread's agent (the general one) has no such demo: the worker refuses, and nothing typed or chosen is lost.
    await expect.poll(() => chat.error, WAIT).not.toBeNull();
    await chat.idle();
    flushSync();
    expect(notice(root)).not.toBeNull();
    expect(root.querySelector("textarea")!.value).toBe(demo.prompt);
  });
});

describe("a replayed turn in the timeline", () => {
  it("shows a note under the message: recorded answers, by whom, with what, when, scripted (text only)", () => {
    const replay = {
      file: "demos/a.json",
      title: "A",
      model: "script",
      recordedBy: "<i>Bo</i>",
      recordedAt: "2026-12-07T10:00:00Z",
      scripted: true,
    };
    const root = render(Timeline, {
      items: [
        { kind: "user", index: 0, text: "go", replay },
        { kind: "assistant", index: 1, text: "done" },
        { kind: "user", index: 2, text: "again" },
      ],
    });
    const notes = root.querySelectorAll('[data-testid="replay-note"]');
    expect(notes).toHaveLength(1);
    expect(notes[0]!.textContent).toBe("Recorded answers · recorded by <i>Bo</i> with script · 7 Dec 2026 · scripted");
    expect(root.querySelector("i")).toBeNull();
  });
});

describe("a replay that stopped", () => {
  it("says why, goes on with the thread's model, or opens Settings first when the thread has only the scripted model", () => {
    const calls: string[] = [];
    const props = reactiveProps({
      message: "The recorded demo stops here: your message differs from the recorded one. Go on with a model of your own.",
      hasModel: false,
      onGoOn: () => calls.push("go on"),
      onSettings: () => calls.push("settings"),
      onDismiss: () => calls.push("dismiss"),
    });
    const root = render(DivergenceCard, props);
    const card = root.querySelector<HTMLElement>('[data-testid="demo-diverged"]')!;
    expect(card.getAttribute("role")).toBe("alert");
    expect(card.textContent).toContain("your message differs from the recorded one");
    const buttons = [...card.querySelectorAll("button")].map((b) => b.textContent);
    expect(buttons).toEqual(["Go on with my model", "Open Settings", "Dismiss"]);
    card.querySelector<HTMLButtonElement>('[data-testid="demo-go-on"]')!.click();
    props.hasModel = true;
    flushSync();
    card.querySelector<HTMLButtonElement>('[data-testid="demo-go-on"]')!.click();
    [...card.querySelectorAll("button")].find((b) => b.textContent === "Open Settings")!.click();
    expect(calls).toEqual(["settings", "go on", "settings"]);
  });
});
