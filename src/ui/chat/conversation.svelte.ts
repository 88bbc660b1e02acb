/**
 * The shown thread as the conversation draws it, over the Chat: the timeline (the newest `shown` items, "Show
 * earlier" for more), whether the last message went unanswered or was cut off, the retry notice, the model chip's
 * text, the todos' progress, what the live region announces once a run ends, and a starter prompt for the message
 * box. The app shell draws it; nothing here touches the DOM.
 */
import type { LiveThread } from "./live.ts";
import type { Chat } from "./chat.svelte.ts";
import { markdownToText } from "../shared/markdown.ts";
import { SERVER_AGENT_PREFIX } from "../../page/langgraph-runtime.ts";
import type { AgentDemo } from "../../protocol/agents.ts";
import type { ThreadView } from "../../protocol/threads.ts";
import { modelLabel, retryNotice } from "./notices.ts";
import { buildTimeline, waitingCalls } from "./timeline.ts";

/** How many more timeline items "Show earlier" renders (and how many are rendered at first). */
export const EARLIER_STEP = 120;

/** A starter prompt for the message box; `seq` tells the same text chosen twice apart. */
export interface Prefill {
  text: string;
  seq: number;
  /** Added after the draft (a command shared from the terminal), not in its place. */
  append?: boolean;
  /** A recorded demo's prompt: the message box replays the demo (replay mode). */
  demo?: AgentDemo;
}

/** What the conversation reads of the Chat. */
export type ConversationSource = Pick<Chat, "live" | "view" | "running">;

export class Conversation {
  readonly #chat: ConversationSource;
  /** How many timeline items are rendered (the newest). */
  shown = $state(EARLIER_STEP);
  /** An agent's starter prompt for the message box (a gallery chip). */
  prefill: Prefill | null = $state.raw(null);

  constructor(chat: ConversationSource) {
    this.#chat = chat;
  }

  get live(): LiveThread {
    return this.#chat.live;
  }
  get view(): ThreadView | null {
    return this.#chat.view;
  }
  get running(): boolean {
    return this.#chat.running;
  }

  /** The shown thread is a LangGraph server's (no edits or retries: the server runtime does not branch). */
  readonly onServer = $derived(this.view?.agent?.id.startsWith(SERVER_AGENT_PREFIX) ?? false);
  readonly #waiting = $derived(
    waitingCalls(
      this.live.messages,
      this.live.approval?.actions.map((a) => a.name),
    ),
  );
  /** Every item of the timeline. */
  readonly items = $derived(
    buildTimeline(this.live.messages, {
      running: this.running,
      waiting: this.#waiting,
      ...(this.live.summary ? { summary: this.live.summary } : {}),
      ...(this.live.streaming ? { streamingText: this.live.streaming } : {}),
      ...(!this.running && this.view?.interrupted?.partial ? { interruptedText: this.view.interrupted.partial } : {}),
      outputs: this.live.outputs,
      children: this.live.children,
    }),
  );
  /** The items rendered: the newest `shown`. */
  readonly visible = $derived(this.items.length > this.shown ? this.items.slice(this.items.length - this.shown) : this.items);
  /** How many older items are not rendered. */
  readonly earlier = $derived(Math.max(0, this.items.length - this.shown));
  /** The model chip's text, or "" before the thread's view arrives. */
  readonly modelLabel = $derived(this.view ? modelLabel(this.view.model) : "");
  /** The thread ends with the user's message and nothing runs: there is no answer to it (yet). */
  readonly unanswered = $derived(!this.running && this.live.messages.at(-1)?.role === "user");
  /** The last answer was cut off by a failure: worth asking again. */
  readonly cutOff = $derived(!this.running && this.live.messages.at(-1)?.cutOff === true);
  /** The notice while a provider call waits to be retried, or "". */
  readonly retryText = $derived(this.live.retry ? retryNotice(this.live.retry) : "");
  /** The todos tab's label: "Todos", with done/all once there are any. */
  readonly todosLabel = $derived.by(() => {
    const todos = this.live.todos;
    if (!todos.length) return "Todos";
    return `Todos ${todos.filter((t) => t.status === "completed").length}/${todos.length}`;
  });
  /** The live region: the finished answer as the words it shows (not its Markdown), once the run ends. */
  readonly announced = $derived(this.running || !this.live.finished ? "" : markdownToText(this.live.finished));

  /** "Show earlier": renders EARLIER_STEP more of the older items. */
  showEarlier(): void {
    this.shown += EARLIER_STEP;
  }

  /** A terminal command the person shares goes at the end of the message box: it is sent with their next message. */
  share(text: string): void {
    this.prefill = { text, seq: (this.prefill?.seq ?? 0) + 1, append: true };
  }

  /** A starter prompt goes into the message box (nothing is sent until the person does); a demo's, in replay mode. */
  suggest(text: string, demo?: AgentDemo): void {
    this.prefill = { text, seq: (this.prefill?.seq ?? 0) + 1, ...(demo ? { demo } : {}) };
  }
}
