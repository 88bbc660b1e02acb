/**
 * The message box's replay mode: a recorded demo chosen from an agent's starter chips answers the next message sent
 * (its replies played back, its tools run here) at the pace the person chose. The pace is kept for the tab's session
 * (sessionStorage; refused storage keeps it for the page's life); the demo is the composer's until the person sends,
 * chooses another starter prompt or uses their own model instead.
 */
import type { AgentDemo } from "../../protocol/agents.ts";
import type { UserInput } from "../../protocol/worker-api.ts";
import { paceSpeed, parsePace, type ReplayPace } from "./replay-text.ts";

/** sessionStorage's key for the chosen pace. */
export const PACE_KEY = "deeptab:replay-pace";

type PaceStorage = Pick<Storage, "getItem" | "setItem">;

export class ReplayMode {
  readonly #storage: PaceStorage | undefined;
  /** The demo the next message replays, or null (the thread's model answers). */
  demo: AgentDemo | null = $state.raw(null);
  #pace: ReplayPace = $state("recorded");

  constructor(storage: PaceStorage | undefined = sessionStore()) {
    this.#storage = storage;
    try {
      this.#pace = parsePace(storage?.getItem(PACE_KEY));
    } catch {
      // Refused: the recorded pace.
    }
  }

  get pace(): ReplayPace {
    return this.#pace;
  }
  set pace(pace: ReplayPace) {
    this.#pace = pace;
    try {
      this.#storage?.setItem(PACE_KEY, pace);
    } catch {
      // Full or refused: kept for this page.
    }
  }

  /** The next message replays `demo`. */
  start(demo: AgentDemo): void {
    this.demo = demo;
  }

  /** "Use my model instead": the thread's model answers. */
  leave(): void {
    this.demo = null;
  }

  /** What a sent message carries (`UserInput.replay`), or undefined outside replay mode. */
  input(): UserInput["replay"] {
    return this.demo ? { file: this.demo.file, speed: paceSpeed(this.#pace) } : undefined;
  }
}

function sessionStore(): PaceStorage | undefined {
  try {
    return globalThis.sessionStorage;
  } catch {
    return undefined; // Access denied (storage blocked for the site).
  }
}
