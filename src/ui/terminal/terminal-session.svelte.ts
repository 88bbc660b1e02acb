/**
 * The person's terminals, one per thread, kept while the page lives: the side panel shows one panel at a time, so
 * xterm comes and goes with the Terminal tab, while the terminal's line, history, running command and what it drew
 * (its transcript, replayed into a new xterm) stay here. The history also outlives a reload (history-store.ts).
 * xterm's code loads with the first terminal shown.
 */
import type { AgentClient } from "../../page/client.ts";
import { loadHistory, saveHistory } from "./history-store.ts";
import { PersonTerminal, type PersonCommand, type Screen } from "./person-terminal.ts";
import type { XtermView } from "./xterm-view.ts";

/** The worker calls a terminal needs. */
export type ShellClient = Pick<AgentClient, "runCommand" | "cancelCommand">;

/** How much of what a terminal drew is kept for a new xterm (characters, its tail). */
const TRANSCRIPT_CAP = 200_000;

const GREETING =
  "Your terminal: this thread's shell, over the files the agent sees. " +
  "What you run here is not sent to the agent unless you press Share with the agent.";

/** One thread's terminal. */
export class TerminalSession {
  /** The person's commands, oldest first (for Share). */
  commands: readonly PersonCommand[] = $state.raw([]);
  readonly terminal: PersonTerminal;
  #transcript = "";
  #view: XtermView | undefined;

  constructor(client: ShellClient, threadId: string) {
    const screen: Screen = {
      write: (text) => {
        this.#transcript += text;
        if (this.#transcript.length > TRANSCRIPT_CAP) {
          const cut = this.#transcript.indexOf("\r\n", this.#transcript.length - TRANSCRIPT_CAP);
          this.#transcript = this.#transcript.slice(cut === -1 ? -TRANSCRIPT_CAP : cut + 2);
        }
        this.#view?.screen.write(text);
      },
      clear: () => {
        this.#transcript = "";
        this.#view?.screen.clear();
      },
      get cols() {
        return view()?.screen.cols ?? 80;
      },
    };
    const view = () => this.#view;
    this.terminal = new PersonTerminal(
      screen,
      {
        run: (command, onOutput, approved) => client.runCommand(threadId, command, onOutput, { approved }),
        cancel: () => client.cancelCommand(threadId),
      },
      (commands) => (this.commands = commands),
      // The history (commands only) outlives a reload of this tab: sessionStorage, per thread.
      { history: loadHistory(sessionStorage, threadId), onHistory: (history) => saveHistory(sessionStorage, threadId, history) },
    );
    this.terminal.start(GREETING);
  }

  /** Shows the terminal in `el` (loading xterm on first use); returns the view, or undefined when `el` left meanwhile. */
  async mount(el: HTMLElement, screenReader: boolean): Promise<XtermView> {
    const { mountXterm } = await import("./xterm-view.ts");
    this.#view?.dispose();
    const view = mountXterm(el, (data) => this.terminal.input(data), screenReader);
    view.screen.write(this.#transcript);
    this.#view = view;
    return view;
  }

  /** xterm left the page (the tab changed): the session stays. */
  unmount(view: XtermView): void {
    if (this.#view !== view) return;
    view.dispose();
    this.#view = undefined;
  }
}

/** Every thread's terminal, and the screen-reader mode they share. */
export class TerminalSessions {
  /** xterm's screen-reader mode, on for every terminal (the person's choice, kept on this device). */
  screenReader = $state(readScreenReader());
  readonly #client: ShellClient;
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- not state: nothing renders from the map itself
  readonly #sessions = new Map<string, TerminalSession>();

  constructor(client: ShellClient) {
    this.#client = client;
  }

  of(threadId: string): TerminalSession {
    let session = this.#sessions.get(threadId);
    if (!session) this.#sessions.set(threadId, (session = new TerminalSession(this.#client, threadId)));
    return session;
  }

  setScreenReader(on: boolean): void {
    this.screenReader = on;
    try {
      localStorage.setItem(SCREEN_READER_KEY, on ? "1" : "0");
    } catch {
      // Storage refused (a private window): the choice holds for this page.
    }
  }
}

const SCREEN_READER_KEY = "deeptab.terminal.screenReader";

function readScreenReader(): boolean {
  try {
    return localStorage.getItem(SCREEN_READER_KEY) === "1";
  } catch {
    return false;
  }
}
