import { cellWidth } from "./cell-width.ts";
import { describe, expect, it } from "vitest";
import { CONTINUATION, emptyLine, feed, HISTORY_LIMIT, remember, render, tokens, whileRunning, type LineState } from "./line-editor.ts";

const UP = "\x1b[A";
const DOWN = "\x1b[B";
const LEFT = "\x1b[D";
const RIGHT = "\x1b[C";

/** Feeds keys one by one; returns the last state and every effect. */
function keys(state: LineState, ...input: string[]) {
  const effects = [];
  let s = state;
  for (const data of input) {
    const fed = feed(s, data);
    s = fed.state;
    effects.push(...fed.effects);
  }
  return { state: s, effects };
}

describe("tokens", () => {
  it("splits escape sequences, characters and emoji", () => {
    expect(tokens(`a${UP}b\x1b[3~😀\x1bOD`)).toEqual(["a", UP, "b", "\x1b[3~", "😀", "\x1bOD"]);
  });
});

describe("the line editor", () => {
  it("inserts at the cursor, moves left and right, deletes both ways", () => {
    let { state } = keys(emptyLine(), "e", "c", "o", LEFT, "h");
    expect(state).toMatchObject({ line: "echo", cursor: 3 });
    ({ state } = keys(state, "\x7f"));
    expect(state).toMatchObject({ line: "eco", cursor: 2 });
    ({ state } = keys(state, "\x1b[3~"));
    expect(state).toMatchObject({ line: "ec", cursor: 2 });
    ({ state } = keys(state, LEFT, LEFT, LEFT, "\x7f", RIGHT, RIGHT, RIGHT));
    expect(state).toMatchObject({ line: "ec", cursor: 2 });
    ({ state } = keys(state, "\x01", "x", "\x05", "y"));
    expect(state).toMatchObject({ line: "xecy", cursor: 4 });
    ({ state } = keys(state, "\x15"));
    expect(state).toMatchObject({ line: "", cursor: 0 });
  });

  it("submits on Enter, remembers the command, and gives blanks a new prompt without history", () => {
    const { state, effects } = keys(emptyLine(), "ls", "\r", "\r");
    expect(effects).toEqual([
      { kind: "submit", command: "ls" },
      { kind: "submit", command: "" },
    ]);
    expect(state).toEqual(emptyLine(["ls"]));
  });

  it("walks the history up and down, keeping the line being typed", () => {
    let { state } = keys(emptyLine(), "one", "\r", "two", "\r", "thr");
    ({ state } = keys(state, UP));
    expect(state.line).toBe("two");
    ({ state } = keys(state, UP, UP, UP));
    expect(state).toMatchObject({ line: "one", cursor: 3 });
    ({ state } = keys(state, DOWN));
    expect(state.line).toBe("two");
    ({ state } = keys(state, DOWN));
    expect(state).toMatchObject({ line: "thr", browsing: null });
    ({ state } = keys(state, DOWN));
    expect(state.line).toBe("thr");
  });

  it("drops the line on Ctrl+C and asks for a clear screen on Ctrl+L", () => {
    const { state, effects } = keys(emptyLine(["a"]), "half", "\x03", "\x0c");
    expect(effects).toEqual([{ kind: "interrupt", line: "half" }, { kind: "clear_screen" }]);
    expect(state).toEqual(emptyLine(["a"]));
  });

  it("keeps a multi-line paste as one command, and runs a paste that ends with a line break", () => {
    let fed = feed(emptyLine(), "echo a\r\necho b");
    expect(fed.effects).toEqual([]);
    expect(fed.state).toMatchObject({ line: "echo a\necho b", cursor: 13 });
    fed = feed(emptyLine(), "echo a\necho b\n");
    expect(fed.effects).toEqual([{ kind: "submit", command: "echo a\necho b" }]);
    fed = feed(emptyLine(), "echo a\r\n");
    expect(fed.effects).toEqual([{ kind: "submit", command: "echo a" }]);
  });

  it("ignores other control characters and function keys", () => {
    const { state } = keys(emptyLine(), "a", "\x1b[15~", "\x07", "\x1bOP", "b");
    expect(state.line).toBe("ab");
  });

  it("cancels a running command on Ctrl+C only", () => {
    expect(whileRunning("\x03")).toBe("cancel");
    expect(whileRunning("ls\r")).toBeNull();
  });

  it("keeps the history bounded and free of repeats", () => {
    let history: readonly string[] = [];
    for (let i = 0; i < HISTORY_LIMIT + 10; i++) history = remember(history, `c${i}`);
    expect(history).toHaveLength(HISTORY_LIMIT);
    expect(history[0]).toBe("c10");
    expect(remember(["x"], "x")).toEqual(["x"]);
    expect(remember(["x"], "  ")).toEqual(["x"]);
  });
});

describe("drawing the line", () => {
  it("redraws from the input's first row and puts the cursor back", () => {
    const state = { ...emptyLine(), line: "echo hi", cursor: 2 };
    const { text, drawn } = render("$ ", state, { row: 0 }, 80);
    expect(text).toBe("\r\x1b[J$ echo hi\r\x1b[4C");
    expect(drawn).toEqual({ row: 0 });
  });

  it("follows wrapped rows and continuation lines", () => {
    // "$ " + 10 characters in 8 columns: two rows; the cursor at the start is on the first.
    const wrapped = render("$ ", { ...emptyLine(), line: "0123456789", cursor: 0 }, { row: 1 }, 8);
    expect(wrapped.text).toBe("\r\x1b[1A\x1b[J$ 0123456789\x1b[1A\r\x1b[2C");
    expect(wrapped.drawn).toEqual({ row: 0 });
    const multi = render("$ ", { ...emptyLine(), line: "a\nbc", cursor: 4 }, { row: 0 }, 80);
    expect(multi.text).toBe(`\r\x1b[J$ a\r\n${CONTINUATION}bc\r\x1b[4C`);
    expect(multi.drawn).toEqual({ row: 1 });
  });

  it("moves past a row filled exactly, where xterm would wait to wrap", () => {
    const { text, drawn } = render("$ ", { ...emptyLine(), line: "123456", cursor: 6 }, { row: 0 }, 8);
    expect(text).toBe("\r\x1b[J$ 123456\r\n\r");
    expect(drawn).toEqual({ row: 1 });
  });

  it("counts wide characters (CJK, emoji) two cells and combining marks none, as xterm with Unicode 11 draws them", () => {
    expect(["a", "你", "😀", "\u0301", "한", "Ａ"].map(cellWidth)).toEqual([1, 2, 2, 0, 2, 2]);
    // "$ 你好" and the cursor between the two: column 2 + 2.
    const cjk = render("$ ", { ...emptyLine(), line: "你好", cursor: 1 }, { row: 0 }, 80);
    expect(cjk.text).toBe("\r\x1b[J$ 你好\r\x1b[4C");
    // In 7 columns, "$ 你好吗": the third character does not fit in the one cell left and starts the next row.
    const wrapped = render("$ ", { ...emptyLine(), line: "你好吗", cursor: 3 }, { row: 0 }, 7);
    expect(wrapped.text).toBe("\r\x1b[J$ 你好吗\r\x1b[2C");
    expect(wrapped.drawn).toEqual({ row: 1 });
    const before = render("$ ", { ...emptyLine(), line: "你好吗", cursor: 2 }, { row: 0 }, 7);
    // The cursor before it is there too (row 1, column 0), not in the cell left empty.
    expect(before.text).toBe("\r\x1b[J$ 你好吗\r");
    expect(before.drawn).toEqual({ row: 1 });
    // A row filled exactly by wide characters: xterm waits to wrap, so the cursor is moved down for real.
    const full = render("$ ", { ...emptyLine(), line: "你好", cursor: 2 }, { row: 0 }, 6);
    expect(full.text).toBe("\r\x1b[J$ 你好\r\n\r");
    expect(full.drawn).toEqual({ row: 1 });
  });
});
