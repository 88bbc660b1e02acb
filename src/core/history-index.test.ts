import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { historyIndex } from "./history-index.ts";

/** An index that lists the messages' contents and counts how many messages it looked at. */
function listing() {
  let added = 0;
  const index = historyIndex<string[]>({
    empty: () => [],
    add(ledger, m, i) {
      added++;
      expect(ledger).toHaveLength(i);
      ledger.push(String(m.content));
    },
    truncate: (ledger, length) => ledger.slice(0, length),
  });
  return { index, added: () => added };
}

const human = (text: string) => new HumanMessage(text);
const contents = (history: readonly BaseMessage[]) => history.map((m) => String(m.content));

describe("historyIndex", () => {
  it("looks only at the new messages of a history that grows step by step", () => {
    const { index, added } = listing();
    let history: BaseMessage[] = [];
    for (let step = 0; step < 200; step++) {
      history = [...history, human(`m${step}`), new ToolMessage({ content: `r${step}`, tool_call_id: `c${step}` })];
      expect(index(history)).toEqual(contents(history));
      expect(index(history)).toEqual(contents(history)); // asked twice in a step
    }
    expect(added()).toBe(400);
  });

  it("answers for exactly the history asked about: forks, rewrites in the middle, shorter histories", () => {
    const { index } = listing();
    const base = Array.from({ length: 10 }, (_, i) => human(`b${i}`));
    const a = [...base, human("a1"), human("a2")];
    const b = [...base, human("b1")];
    expect(index(a)).toEqual(contents(a));
    expect(index(b)).toEqual(contents(b)); // forked from base after a grew it
    expect(index([...a, human("a3")])).toEqual([...contents(a), "a3"]);
    // Same last message and same length, one message replaced in the middle (as a history repair does).
    const rewritten: BaseMessage[] = [...a];
    rewritten[4] = new AIMessage("patched");
    expect(index(rewritten)).toEqual(contents(rewritten));
    // A message inserted in the middle: same last object, at another position.
    const inserted: BaseMessage[] = [...a.slice(0, 5), human("inserted"), ...a.slice(5)];
    expect(index(inserted)).toEqual(contents(inserted));
    expect(index(base.slice(0, 3))).toEqual(contents(base.slice(0, 3)));
    expect(index([])).toEqual([]);
    // One array changed in place between two questions about it.
    const grown: BaseMessage[] = [...base];
    expect(index(grown)).toEqual(contents(base));
    grown.push(human("pushed"));
    expect(index(grown)).toEqual([...contents(base), "pushed"]);
  });

  it("does not mix up two threads that share no messages", () => {
    const { index } = listing();
    const one = [human("x"), human("y")];
    const two = [human("p"), human("q"), human("r")];
    for (let i = 0; i < 3; i++) {
      expect(index(one)).toEqual(["x", "y"]);
      expect(index(two)).toEqual(["p", "q", "r"]);
    }
  });
});
