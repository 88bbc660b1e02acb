import { HumanMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { SteerQueues } from "./steering.ts";

describe("SteerQueues", () => {
  it("queues per thread in order; edit and withdraw change only what is still queued", () => {
    const q = new SteerQueues();
    const a = q.add("t", " first ");
    const b = q.add("t", "second");
    q.add("u", "elsewhere");
    if (!a.ok || !b.ok) throw new Error("refused");
    expect(a.value.text).toBe("first");
    expect(q.edit("t", a.value.id, "first, edited")).toEqual({ ok: true, value: { id: a.value.id, text: "first, edited" } });
    expect(q.withdraw("t", b.value.id)).toEqual({ ok: true, value: null });
    expect(q.list("t").map((m) => m.text)).toEqual(["first, edited"]);
    expect(q.list("u").map((m) => m.text)).toEqual(["elsewhere"]);
  });

  it("refuses empty text, and says already_taken once the run took a message", () => {
    const q = new SteerQueues();
    expect(q.add("t", "  ")).toMatchObject({ ok: false, error: { code: "empty_input" } });
    const a = q.add("t", "go left");
    if (!a.ok) throw new Error("refused");
    expect(q.edit("t", a.value.id, "")).toMatchObject({ ok: false, error: { code: "empty_input" } });
    expect(q.take("t")).toEqual([a.value]);
    expect(q.take("t")).toEqual([]);
    expect(q.edit("t", a.value.id, "go right")).toMatchObject({ ok: false, error: { code: "already_taken" } });
    expect(q.withdraw("t", a.value.id)).toMatchObject({ ok: false, error: { code: "already_taken" } });
  });

  it("steers only a run of this worker: none here is not_running", async () => {
    const q = new SteerQueues();
    expect(await q.steer("t", "go", false)).toMatchObject({ ok: false, error: { code: "not_running" } });
    expect(q.list("t")).toEqual([]);
    expect(await q.steer("t", "go", true)).toMatchObject({ ok: true, value: { text: "go" } });
  });

  it("gives the loop user messages carrying the queued ids", () => {
    const q = new SteerQueues();
    const a = q.add("t", "one");
    q.add("t", "two");
    const taken = q.inbox().take("t");
    expect(taken.every((m) => HumanMessage.isInstance(m))).toBe(true);
    expect(taken.map((m) => m.text)).toEqual(["one", "two"]);
    expect(taken[0]!.id).toBe(a.ok ? a.value.id : "");
    expect(q.list("t")).toEqual([]);
  });
});
