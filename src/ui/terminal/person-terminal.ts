/**
 * The person's terminal, without xterm: the prompt and line editor (line-editor.ts), running a submitted command in
 * the thread's shell (the worker's `runCommand`), Ctrl+C, a rule's "Run it? [y/N]" question, and the list of the
 * person's commands (for "Share with the agent"). It draws through a `Screen` (xterm in the page, a string in tests).
 */
import type { CommandResult } from "../../protocol/terminal.ts";
import { emptyLine, feed, render, whileRunning, type Drawn, type LineState } from "./line-editor.ts";

/** Where the terminal draws: xterm's `write`, `clear` and width. */
export interface Screen {
  write(text: string): void;
  /** Clears the screen and the scrollback. */
  clear(): void;
  readonly cols: number;
}

/** Runs the person's commands in the thread (the worker's `runCommand` and `cancelCommand`). */
export interface CommandRunner {
  run(command: string, onOutput: (chunk: string) => void, approved: boolean): Promise<CommandResult>;
  cancel(): Promise<boolean>;
}

export type PersonCommandState = "running" | "succeeded" | "failed" | "timed_out" | "cancelled";

/** A command the person ran (what "Share with the agent" sends). */
export interface PersonCommand {
  key: number;
  command: string;
  output: string;
  state: PersonCommandState;
  exitCode: number | null;
  truncated: boolean;
}

const PROMPT = "$ ";
/** Characters of a command's output that Share puts in the message (its tail). */
export const SHARE_OUTPUT_CAP = 4_000;

const RED = "\x1b[31m";
const YELLOW = "\x1b[33m";
const RESET = "\x1b[0m";

/** Text for xterm: every line break as CR LF. */
function crlf(text: string): string {
  return text.replace(/\r?\n/g, "\r\n");
}

/** What "Share with the agent" adds to the message: the command, its output (the tail, capped) and how it ended. */
export function shareText(c: PersonCommand): string {
  const cut = c.output.length > SHARE_OUTPUT_CAP;
  const output = cut ? c.output.slice(-SHARE_OUTPUT_CAP) : c.output;
  const ended = c.state === "timed_out" ? "it timed out" : c.state === "cancelled" ? "I cancelled it" : `exit code ${c.exitCode ?? "?"}`;
  const fence = output.includes("```") ? "~~~~" : "```";
  return (
    `I ran this in the terminal (${ended}):\n${fence}\n$ ${c.command}\n` +
    (cut ? `[… the first ${(c.output.length - SHARE_OUTPUT_CAP).toLocaleString("en-US")} characters left out]\n` : "") +
    `${output.replace(/\n$/, "")}\n${fence}`
  );
}

function stateOf(result: Extract<CommandResult, { ok: true }>["value"]): PersonCommandState {
  if (result.cancelled) return "cancelled";
  if (result.timedOut) return "timed_out";
  return result.exitCode === 0 ? "succeeded" : "failed";
}

export class PersonTerminal {
  readonly #screen: Screen;
  readonly #runner: CommandRunner;
  readonly #onChange: (commands: readonly PersonCommand[]) => void;
  #line: LineState;
  readonly #onHistory: (history: readonly string[]) => void;
  #drawn: Drawn = { row: 0 };
  #mode: "prompt" | "running" | "confirm" = "prompt";
  #confirming = "";
  #commands: PersonCommand[] = [];

  /**
   * `history` is the line editor's to start with (kept from before a reload), and `onHistory` hears it each time a
   * command joins it (to keep it: the commands only, never their output).
   */
  constructor(
    screen: Screen,
    runner: CommandRunner,
    onChange: (commands: readonly PersonCommand[]) => void = () => undefined,
    { history = [], onHistory = () => undefined }: { history?: readonly string[]; onHistory?: (history: readonly string[]) => void } = {},
  ) {
    this.#screen = screen;
    this.#runner = runner;
    this.#onChange = onChange;
    this.#line = emptyLine(history);
    this.#onHistory = onHistory;
  }

  /** The person's commands, oldest first. */
  get commands(): readonly PersonCommand[] {
    return this.#commands;
  }

  /** A command runs (or waits for the person's yes or no). */
  get busy(): boolean {
    return this.#mode !== "prompt";
  }

  /** Writes the greeting and the first prompt. */
  start(greeting: string): void {
    this.#screen.write(crlf(`${greeting}\n`));
    this.#redraw();
  }

  /** The width changed: the prompt and line are drawn again. */
  resized(): void {
    if (this.#mode === "prompt") this.#redraw();
  }

  /** xterm's `onData`: keys and pastes. */
  input(data: string): void {
    if (this.#mode === "running") {
      if (whileRunning(data) === "cancel") void this.#runner.cancel();
      return;
    }
    if (this.#mode === "confirm") {
      const yes = /^y/i.test(data);
      this.#screen.write(`${yes ? "y" : "n"}\r\n`);
      const command = this.#confirming;
      if (yes) void this.#run(command, true);
      else this.#prompt("Not run.\r\n");
      return;
    }
    const { state, effects } = feed(this.#line, data);
    if (state.history !== this.#line.history) this.#onHistory(state.history);
    this.#line = state;
    for (const effect of effects) {
      if (effect.kind === "clear_screen") {
        this.#screen.clear();
        this.#drawn = { row: 0 };
      } else if (effect.kind === "interrupt") {
        this.#finishLine(effect.line, "^C\r\n");
      } else {
        this.#finishLine(effect.command, "\r\n");
        if (effect.command.trim()) {
          void this.#run(effect.command, false);
          return;
        }
      }
    }
    this.#redraw();
  }

  #redraw(): void {
    const { text, drawn } = render(PROMPT, this.#line, this.#drawn, this.#screen.cols);
    this.#screen.write(text);
    this.#drawn = drawn;
  }

  /** Draws a line that is done (submitted or dropped) whole, the cursor at its end, then `after`. */
  #finishLine(line: string, after: string): void {
    const whole = { ...emptyLine(), line, cursor: [...line].length };
    this.#screen.write(render(PROMPT, whole, this.#drawn, this.#screen.cols).text + after);
    this.#drawn = { row: 0 };
  }

  #prompt(before = ""): void {
    this.#mode = "prompt";
    if (before) this.#screen.write(before);
    this.#drawn = { row: 0 };
    this.#redraw();
  }

  #changed(): void {
    this.#onChange([...this.#commands]);
  }

  async #run(command: string, approved: boolean): Promise<void> {
    this.#mode = "running";
    let streamed = "";
    const onOutput = (chunk: string) => {
      streamed += chunk;
      this.#screen.write(crlf(chunk));
    };
    let result: CommandResult;
    try {
      result = await this.#runner.run(command, onOutput, approved);
    } catch (cause) {
      this.#prompt(`${RED}${crlf(cause instanceof Error ? cause.message : String(cause))}${RESET}\r\n`);
      return;
    }
    if (!result.ok) {
      if (result.error.code === "needs_approval") {
        this.#mode = "confirm";
        this.#confirming = command;
        this.#screen.write(`${YELLOW}${crlf(result.error.message)}${RESET} Run it? [y/N] `);
        return;
      }
      this.#prompt(`${RED}${crlf(result.error.message)}${RESET}\r\n`);
      return;
    }
    const run = result.value;
    if (run.output && !streamed.endsWith(run.output)) onOutput(run.output);
    const shown = streamed.endsWith(run.output) ? streamed : run.output;
    let tail = shown && !shown.endsWith("\n") ? "\r\n" : "";
    if (run.truncated) tail += "[output cut at the sandbox's limit]\r\n";
    if (run.timedOut) tail += `${RED}[timed out]${RESET}\r\n`;
    else if (!run.cancelled && run.exitCode !== 0) tail += `${RED}[exit code ${run.exitCode ?? "?"}]${RESET}\r\n`;
    this.#commands.push({
      key: this.#commands.length,
      command,
      output: run.output,
      state: stateOf(run),
      exitCode: run.exitCode,
      truncated: run.truncated,
    });
    this.#changed();
    this.#prompt(tail);
  }
}
