import { AIMessage, AIMessageChunk, HumanMessage, RemoveMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { REMOVE_ALL_MESSAGES, messagesStateReducer, type Messages } from "@langchain/langgraph/web";
import { describe, expect, it } from "vitest";
import { pick, seededRandom } from "../testing/random.ts";
import { appendMessages } from "./messages-reducer.ts";

/** What a history holds, message by message: class, id and content. */
const shape = (history: readonly BaseMessage[]) => history.map((m) => [m.getType(), m.id, m.content]);

const human = (id: string, text = id) => new HumanMessage({ id, content: text });
const ai = (id: string, text = id) => new AIMessage({ id, content: text });
const tool = (id: string, text = id) => new ToolMessage({ id, content: text, tool_call_id: `call-${id}` });

describe("appendMessages: messagesStateReducer's result, in O(new messages) on a history it returned", () => {
  it("appends, replaces by id and takes a repeated id within one write as messagesStateReducer does, step after step", () => {
    const writes: Messages[] = [
      [human("h1")],
      [ai("a1")],
      [tool("t1"), tool("t2")],
      [ai("a1", "a1, replaced")],
      [ai("a2"), ai("a2", "a2, again in the same write")],
      [],
      ai("a3"),
      [tool("t1", "t1, replaced"), human("h2")],
    ];
    let fast: BaseMessage[] = [];
    let slow: BaseMessage[] = [];
    for (const write of writes) {
      fast = appendMessages(fast, write);
      slow = messagesStateReducer(slow, write) as BaseMessage[];
      expect(shape(fast)).toEqual(shape(slow));
    }
    expect(shape(fast).map(([, , content]) => content)).toEqual([
      "h1",
      "a1, replaced",
      "t1, replaced",
      "t2",
      "a2, again in the same write",
      "a3",
      "h2",
    ]);
  });

  it("returns a new array each time and leaves the history it was given as it was", () => {
    const first = appendMessages([], [human("h1"), ai("a1")]);
    const second = appendMessages(first, [ai("a1", "replaced"), tool("t1")]);
    expect(second).not.toBe(first);
    expect(shape(first)).toEqual([
      ["human", "h1", "h1"],
      ["ai", "a1", "a1"],
    ]);
    expect(shape(second)).toEqual([
      ["human", "h1", "h1"],
      ["ai", "a1", "replaced"],
      ["tool", "t1", "t1"],
    ]);
  });

  it("gives a message without an id a new one, on the message and in its constructor fields", () => {
    const m = new AIMessage("no id yet");
    const history = appendMessages(appendMessages([], [human("h1")]), [m]);
    expect(history[1]).toBe(m);
    expect(m.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(m.lc_kwargs.id).toBe(m.id);
    // Written again (the same object, now with its id): replaced, not appended.
    expect(appendMessages(history, [m])).toHaveLength(2);
  });

  it("an older history used again (a fork) gets messagesStateReducer's result, and the newer history's line is not disturbed", () => {
    const base = appendMessages([], [human("h1"), ai("a1")]);
    const newer = appendMessages(base, [tool("t1"), ai("x")]);
    // From the older history, "x" is new: appended after a1, not taken as the newer line's message.
    const fork = appendMessages(base, [ai("x", "fork's x")]);
    expect(shape(fork)).toEqual(shape(messagesStateReducer(base, [ai("x", "fork's x")]) as BaseMessage[]));
    const next = appendMessages(newer, [ai("x", "newer's x, replaced"), human("h2")]);
    expect(shape(next)).toEqual([
      ["human", "h1", "h1"],
      ["ai", "a1", "a1"],
      ["tool", "t1", "t1"],
      ["ai", "x", "newer's x, replaced"],
      ["human", "h2", "h2"],
    ]);
  });

  it("one history reduced twice with different writes (LangGraph reads a step's writes before it applies them) gives each result", () => {
    const base = appendMessages([], [human("h1"), ai("a1")]);
    const read = appendMessages(base, [tool("t1"), ai("a2")]);
    const applied = appendMessages(base, [ai("a2", "applied"), tool("t1", "applied")]);
    expect(shape(read).map(([, id]) => id)).toEqual(["h1", "a1", "t1", "a2"]);
    expect(shape(applied)).toEqual(shape(messagesStateReducer(base, [ai("a2", "applied"), tool("t1", "applied")]) as BaseMessage[]));
    const next = appendMessages(applied, [tool("t1", "again"), human("h2")]);
    expect(shape(next).map(([, id, content]) => `${id}:${String(content)}`)).toEqual(["h1:h1", "a1:a1", "a2:applied", "t1:again", "h2:h2"]);
    expect(shape(appendMessages(read, [ai("a2", "read's")]))).toEqual(
      shape(messagesStateReducer(read, [ai("a2", "read's")]) as BaseMessage[]),
    );
  });

  it("a history that holds one id twice (written whole, as an Overwrite does) gets messagesStateReducer's result every time", () => {
    let fast: BaseMessage[] = [human("h1"), ai("a1"), human("h1", "again")];
    let slow = fast;
    for (const write of [[ai("a2")], [human("h1", "replaced")], [tool("t1")]]) {
      fast = appendMessages(fast, write);
      slow = messagesStateReducer(slow, write) as BaseMessage[];
      expect(shape(fast)).toEqual(shape(slow));
    }
  });

  it.each<[string, () => Messages]>([
    ["a removal by id", () => [new RemoveMessage({ id: "a1" })]],
    ["a removal of everything before the rest", () => [new RemoveMessage({ id: REMOVE_ALL_MESSAGES }), human("fresh")]],
    ["a plain message-like object", () => [{ role: "user", content: "plain", id: "p1" }] as unknown as Messages],
    ["a chunk (made a message of its own class)", () => [new AIMessageChunk({ id: "c1", content: "chunk" })]],
    ["a single message, not in a list", () => tool("t9")],
  ])("%s gives messagesStateReducer's result", (_what, write) => {
    const start = () => appendMessages(appendMessages([], [human("h1")]), [ai("a1"), tool("t1")]);
    const fast = appendMessages(start(), write());
    const slow = messagesStateReducer(start(), write()) as BaseMessage[];
    expect(shape(fast)).toEqual(shape(slow));
    expect(fast.every((m) => !AIMessageChunk.isInstance(m))).toBe(true);
    // And the next append after it is right too.
    expect(shape(appendMessages(fast, [ai("next")]))).toEqual(shape(messagesStateReducer(slow, [ai("next")]) as BaseMessage[]));
  });

  it("a removal of an id the history does not hold fails as messagesStateReducer fails", () => {
    const history = appendMessages([], [human("h1")]);
    expect(() => appendMessages(history, [new RemoveMessage({ id: "nope" })])).toThrow(
      "Attempting to delete a message with an ID that doesn't exist ('nope')",
    );
  });

  it("matches messagesStateReducer over 2,000 random writes: appends, replacements, removals, forks and message-likes", () => {
    const random = seededRandom(20261206);
    const ids = Array.from({ length: 40 }, (_, i) => `m${i}`);
    let fast: BaseMessage[] = [];
    let slow: BaseMessage[] = [];
    const older: Array<[BaseMessage[], BaseMessage[]]> = [];
    let n = 0;
    const message = (): BaseMessage => {
      const id = pick(random, ids);
      const text = `text ${n++}`;
      return pick(random, [human, ai, tool])(id, text);
    };
    for (let step = 0; step < 2_000; step++) {
      const kind = pick(random, ["append", "append", "append", "append", "remove", "fork", "plain", "chunk"] as const);
      if (kind === "fork" && older.length) {
        [fast, slow] = pick(random, older);
        continue;
      }
      let write: () => Messages;
      if (kind === "remove" && slow.length) {
        const id = pick(random, slow).id!;
        write = () => [new RemoveMessage({ id })];
      } else if (kind === "plain") {
        const [id, text] = [pick(random, ids), `plain ${n++}`];
        write = () => [{ role: "assistant", content: text, id }] as unknown as Messages;
      } else if (kind === "chunk") {
        const [id, text] = [pick(random, ids), `chunk ${n++}`];
        write = () => [new AIMessageChunk({ id, content: text })];
      } else {
        const batch = Array.from({ length: 1 + Math.floor(random() * 3) }, message);
        write = () => batch;
      }
      fast = appendMessages(fast, write());
      slow = messagesStateReducer(slow, write()) as BaseMessage[];
      expect(shape(fast), `step ${step} (${kind})`).toEqual(shape(slow));
      if (random() < 0.1) older.push([fast, slow]);
    }
  });
});
