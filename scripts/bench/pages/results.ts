/**
 * What the browser bench pages hand back to scripts/bench/browser.ts: plain
 * data (it crosses `page.evaluate`), and the `window` functions that run them.
 * Not a page itself.
 */

/** One generation: wall time and what the server reported. */
export interface GenerationRun {
  ms: number;
  completionTokens: number;
  finishReason: string;
}

/** chat-wllama.html: ChatWllama against wllama's createChatCompletion, alternating. */
export interface WllamaBenchResult {
  modelBytes: number;
  loadMs: number;
  threads: number;
  maxTokens: number;
  promptTokens: number;
  /** Both paths produced the same text (greedy, same prompt). */
  sameText: boolean;
  direct: GenerationRun[];
  chatWllama: GenerationRun[];
}

/** One agent turn, seen from the page. */
export interface TurnRun {
  /** From `client.run` to the terminal event. */
  wallMs: number;
  /** The demo model's DEMO_CHUNK_DELAY_MS pauses in the worker: one between each two streamed chunks of an answer. */
  pauses: number;
  /** The tool result's `durationMs` (the harness rounds it to whole ms). */
  toolMs: number;
}

/** execute-worker.html: execute in the agent worker against ShellBackend in the page. */
export interface ExecuteBenchResult {
  command: string;
  chunkDelayMs: number;
  /** How long a `setTimeout(chunkDelayMs)` really takes on this page, per wait (timers run late). */
  timerMs: number[];
  /** "$ <command>" turns: execute, then the answer. */
  execute: TurnRun[];
  /** Plain demo turns: write_file, then the answer. */
  plain: TurnRun[];
  /** `ShellBackend.execute(command)` over a MemoryFileStore on this page, per call. */
  memoryMs: number[];
  /** The same over an IndexedDB workspace on this page, a new ShellBackend per call (as the worker builds it). */
  indexedDBMs: number[];
}

/** runaway-stop.html: Stop on "$ while true; do :; done" in the agent worker, per round (ms). */
export interface RunawayStopResult {
  /** A call to the worker (`sandboxStatus`) while it is idle. */
  idleCallMs: number[];
  /** The same call while the loop spins. */
  spinningCallMs: number[];
  /** From Stop (`cancel`) to the worker answering that call. */
  stopToAnswerMs: number[];
  /** From Stop to the run's `done`. */
  stopToDoneMs: number[];
  /** The next "$ true" turn on the thread (a fresh shell worker). */
  nextCommandMs: number[];
}

/** Stop while the slowest tools work (scripts/bench/stop.ts): ms from Stop (`cancel`) to the run's `done`, per round. */
export interface StopLatencyResult {
  /** fetch_url converting a flat 1.95 MB page to Markdown. */
  fetchUrlMs: number[];
  /** js_eval running `while (true) {}`. */
  jsEvalMs: number[];
  /** python3 in the offline shell running `while True: pass`. */
  python3Ms: number[];
}

declare global {
  interface Window {
    benchChatWllama?: () => Promise<WllamaBenchResult>;
    benchExecuteWorker?: () => Promise<ExecuteBenchResult>;
    benchRunawayStop?: () => Promise<RunawayStopResult>;
    benchStop?: (servers: { provider: string; web: string }) => Promise<StopLatencyResult>;
  }
}
