/**
 * The terminal's line editor, pure: the line the person types, its cursor and the history of commands, fed with
 * what xterm's `onData` gives (keys as characters and escape sequences, a paste as one chunk), and the escape
 * sequences that draw it. xterm only renders; this decides what a key does:
 *
 * - printable text is inserted at the cursor; Left/Right (and Home/End, Ctrl+A/Ctrl+E) move it; Backspace and Delete
 *   remove a character; Ctrl+U clears the line;
 * - Up/Down walk the history (the line being typed is kept and comes back below the newest entry);
 * - Enter submits the line (a blank line just gives a new prompt); Ctrl+C clears the line (a running command is
 *   cancelled instead: `whileRunning`); Ctrl+L clears the screen;
 * - a paste of several lines is one command: its line breaks stay in the line (the shell runs it as a script), and a
 *   paste that ends with a line break runs at once, as in a shell.
 *
 * A character takes the cells xterm gives it with Unicode 11 widths (xterm-view.ts activates them): two for CJK,
 * Hangul, fullwidth forms and emoji, none for combining marks, one otherwise ({@link cellWidth}); the cursor is placed
 * by cells, and a wide character that does not fit at the end of a row goes to the next, as xterm draws it.
 */
import { cellWidth } from "./cell-width.ts";

/** The editor's state: the line, the cursor (in characters) and the history. */
export interface LineState {
  readonly line: string;
  readonly cursor: number;
  /** Submitted commands, oldest first (no blanks, no repeats in a row). */
  readonly history: readonly string[];
  /** The history entry shown (an index into `history`), or null while editing the person's own line. */
  readonly browsing: number | null;
  /** The person's own line, kept while the history is browsed. */
  readonly draft: string;
}

/** What the terminal does besides redrawing the line. */
export type LineEffect =
  | { kind: "submit"; command: string }
  /** Ctrl+C at the prompt: the line is dropped (drawn as `^C`, then a new prompt). */
  | { kind: "interrupt"; line: string }
  | { kind: "clear_screen" };

export interface FeedResult {
  state: LineState;
  effects: LineEffect[];
}

/** How many commands the history keeps. */
export const HISTORY_LIMIT = 500;

export function emptyLine(history: readonly string[] = []): LineState {
  return { line: "", cursor: 0, history, browsing: null, draft: "" };
}

/** The keys of a chunk: escape sequences (CSI and SS3) and single characters (code points). */
export function tokens(data: string): string[] {
  const out: string[] = [];
  // eslint-disable-next-line no-control-regex -- escape sequences are what it reads
  const csi = /^\x1b(\[[0-9;?]*[\x40-\x7e]|O[A-Za-z])/;
  let i = 0;
  while (i < data.length) {
    const seq = data[i] === "\x1b" ? csi.exec(data.slice(i)) : null;
    if (seq) {
      out.push(seq[0]);
      i += seq[0].length;
      continue;
    }
    const ch = String.fromCodePoint(data.codePointAt(i)!);
    out.push(ch);
    i += ch.length;
  }
  return out;
}

const chars = (text: string) => [...text];

function insert(s: LineState, text: string): LineState {
  const c = chars(s.line);
  const added = chars(text);
  c.splice(s.cursor, 0, ...added);
  return { ...s, line: c.join(""), cursor: s.cursor + added.length };
}

function withLine(s: LineState, line: string): LineState {
  return { ...s, line, cursor: chars(line).length };
}

function historyStep(s: LineState, step: -1 | 1): LineState {
  if (s.history.length === 0) return s;
  if (s.browsing === null) {
    if (step === 1) return s;
    const at = s.history.length - 1;
    return { ...withLine(s, s.history[at]!), browsing: at, draft: s.line };
  }
  const at = s.browsing + step;
  if (at < 0) return s;
  if (at >= s.history.length) return { ...withLine(s, s.draft), browsing: null, draft: "" };
  return { ...withLine(s, s.history[at]!), browsing: at };
}

/** The history with `command` added (unless blank or the same as the last one), at most HISTORY_LIMIT long. */
export function remember(history: readonly string[], command: string): readonly string[] {
  if (!command.trim() || history.at(-1) === command) return history;
  return [...history, command].slice(-HISTORY_LIMIT);
}

/** Feeds one chunk of input (a key, a few typed characters, or a paste) to the editor at the prompt. */
export function feed(state: LineState, data: string): FeedResult {
  let s = state;
  const effects: LineEffect[] = [];
  // A pasted CR LF is one line break.
  const keys = tokens(data.replace(/\r\n/g, "\r"));
  keys.forEach((key, i) => {
    const last = i === keys.length - 1;
    const length = chars(s.line).length;
    switch (key) {
      case "\r":
      case "\n":
        if (!last) {
          // A line break inside a paste: part of the command.
          s = insert(s, "\n");
          break;
        }
        effects.push({ kind: "submit", command: s.line });
        s = emptyLine(remember(s.history, s.line));
        break;
      case "\x7f": // Backspace
      case "\b":
        if (s.cursor > 0) {
          const c = chars(s.line);
          c.splice(s.cursor - 1, 1);
          s = { ...s, line: c.join(""), cursor: s.cursor - 1 };
        }
        break;
      case "\x1b[3~": // Delete
        if (s.cursor < length) {
          const c = chars(s.line);
          c.splice(s.cursor, 1);
          s = { ...s, line: c.join("") };
        }
        break;
      case "\x1b[D":
      case "\x1bOD":
        s = { ...s, cursor: Math.max(0, s.cursor - 1) };
        break;
      case "\x1b[C":
      case "\x1bOC":
        s = { ...s, cursor: Math.min(length, s.cursor + 1) };
        break;
      case "\x1b[H":
      case "\x1bOH":
      case "\x01":
        s = { ...s, cursor: 0 };
        break;
      case "\x1b[F":
      case "\x1bOF":
      case "\x05":
        s = { ...s, cursor: length };
        break;
      case "\x1b[A":
      case "\x1bOA":
        s = historyStep(s, -1);
        break;
      case "\x1b[B":
      case "\x1bOB":
        s = historyStep(s, 1);
        break;
      case "\x15": // Ctrl+U
        s = { ...s, line: "", cursor: 0 };
        break;
      case "\x03": // Ctrl+C
        effects.push({ kind: "interrupt", line: s.line });
        s = emptyLine(s.history);
        break;
      case "\x0c": // Ctrl+L
        effects.push({ kind: "clear_screen" });
        break;
      default:
        // Other control characters and escape sequences (function keys, Alt+…) do nothing.
        if (key.startsWith("\x1b") || (key.length === 1 && key.charCodeAt(0) < 0x20)) break;
        s = insert(s, key);
    }
  });
  return { state: s, effects };
}

/** While a command runs, what a chunk of input does: Ctrl+C cancels it; anything else is ignored. */
export function whileRunning(data: string): "cancel" | null {
  return data.includes("\x03") ? "cancel" : null;
}

/** Where the drawn input left the cursor: rows below the input's first row. */
export interface Drawn {
  readonly row: number;
}

/** The prompt of a continuation line (a line break in the command). */
export const CONTINUATION = "> ";

/**
 * Where character `i` of a drawn line starts (row and column in cells; `i` = the line's length: where it ends), as
 * xterm places it: a character that does not fit in what is left of a row goes to the next. The column may be `cols`
 * (a row filled exactly, the cursor waiting to wrap).
 */
function place(line: readonly string[], i: number, cols: number): { row: number; col: number } {
  let row = 0;
  let col = 0;
  for (let k = 0; k < i; k++) {
    const w = cellWidth(line[k]!);
    if (col + w > cols) {
      row++;
      col = 0;
    }
    col += w;
  }
  if (i < line.length && col + Math.max(1, cellWidth(line[i]!)) > cols) return { row: row + 1, col: 0 };
  return { row, col };
}

/** Row and column (in cells) of character offset `at` of the drawn text (lines broken at `\n`, wrapped at `cols`). */
function position(lines: readonly string[][], at: number, cols: number): { row: number; col: number } {
  let row = 0;
  let left = at;
  for (const line of lines) {
    if (left <= line.length) {
      const p = place(line, left, cols);
      return p.col >= cols ? { row: row + p.row + 1, col: 0 } : { row: row + p.row, col: p.col };
    }
    const end = place(line, line.length, cols);
    row += end.row + 1;
    left -= line.length + 1;
  }
  return { row, col: 0 };
}

/**
 * The escape sequences that redraw the prompt and the line in place (the input's first row is `drawn.row` rows
 * above the cursor), and where they leave the cursor. `cols` is the terminal's width.
 */
export function render(prompt: string, state: LineState, drawn: Drawn, cols: number): { text: string; drawn: Drawn } {
  const width = Math.max(1, cols);
  const parts = state.line.split("\n");
  const lines = parts.map((p, i) => chars((i === 0 ? prompt : CONTINUATION) + p));
  const shown = lines.map((l) => l.join("")).join("\r\n");
  // The cursor's offset in the drawn text: the prompts before it count, each line break one.
  const before = chars(state.line).slice(0, state.cursor);
  const breaks = before.filter((c) => c === "\n").length;
  const offset = chars(prompt).length + before.length + breaks * chars(CONTINUATION).length;
  const end = position(
    lines,
    lines.reduce((n, l) => n + l.length + 1, -1),
    width,
  );
  const cursor = position(lines, offset, width);
  let text = "\r" + (drawn.row > 0 ? `\x1b[${drawn.row}A` : "") + "\x1b[J" + shown;
  // A line that fills its last row exactly leaves xterm's cursor waiting to wrap: move it down for real.
  const last = lines.at(-1)!;
  if (last.length > 0 && place(last, last.length, width).col === width) text += "\r\n";
  const up = end.row - cursor.row;
  text += (up > 0 ? `\x1b[${up}A` : "") + "\r" + (cursor.col > 0 ? `\x1b[${cursor.col}C` : "");
  return { text, drawn: { row: cursor.row } };
}
