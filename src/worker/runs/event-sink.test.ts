import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { EventSink } from "./event-sink.ts";
import type { AgentEvent, TokenEvent } from "../../protocol/events.ts";

const token = (text: string, messageId = "m"): TokenEvent => ({ type: "token", runId: "r", messageId, text, chunks: 1 });
/** What the page has received, as short strings: a token's text and chunk count, else the event's type. */
const shown = (events: AgentEvent[]) => events.map((e) => (e.type === "token" ? `${e.messageId}:${e.text}/${e.chunks}` : e.type));

describe("EventSink", () => {
  let sent: AgentEvent[];
  let sink: EventSink;
  beforeEach(() => {
    vi.useFakeTimers();
    sent = [];
    sink = new EventSink((e) => void sent.push(e), 16);
  });
  afterEach(() => vi.useRealTimers());

  it("sends a first token at once, holds the tokens after it for the window, then sends them merged", async () => {
    sink.push(token("Hel"));
    await vi.advanceTimersByTimeAsync(0);
    expect(shown(sent)).toEqual(["m:Hel/1"]);
    sink.push(token("lo"));
    sink.push(token(" there"));
    await vi.advanceTimersByTimeAsync(15);
    expect(shown(sent)).toEqual(["m:Hel/1"]);
    await vi.advanceTimersByTimeAsync(1);
    expect(shown(sent)).toEqual(["m:Hel/1", "m:lo there/2"]);
    // A steady stream goes once per window; after a quiet window the next token goes at once again.
    sink.push(token("!"));
    await vi.advanceTimersByTimeAsync(16);
    expect(shown(sent)).toEqual(["m:Hel/1", "m:lo there/2", "m:!/1"]);
    await vi.advanceTimersByTimeAsync(16);
    sink.push(token(" Next"));
    await vi.advanceTimersByTimeAsync(0);
    expect(shown(sent)).toEqual(["m:Hel/1", "m:lo there/2", "m:!/1", "m: Next/1"]);
  });

  it("keeps the order: another message's token or any other event sends what waits first", async () => {
    sink.push(token("a"));
    sink.push(token("b"));
    sink.push(token("x", "n"));
    sink.push({ type: "status", runId: "r", phase: "waiting" });
    sink.push(token("c"));
    await sink.close();
    expect(shown(sent)).toEqual(["m:a/1", "m:b/1", "n:x/1", "status", "m:c/1"]);
  });

  it("sends what is held on close, and every token at once when batching is off", async () => {
    sink.push(token("a"));
    sink.push(token("b"));
    await sink.close();
    expect(shown(sent)).toEqual(["m:a/1", "m:b/1"]);
    const unbatched: AgentEvent[] = [];
    const plain = new EventSink((e) => void unbatched.push(e), 0);
    plain.push(token("a"));
    plain.push(token("b"));
    await plain.close();
    expect(shown(unbatched)).toEqual(["m:a/1", "m:b/1"]);
  });
});
