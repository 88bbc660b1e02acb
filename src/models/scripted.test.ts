import { HumanMessage } from "@langchain/core/messages";
import { describe, expect, it, vi } from "vitest";
import { ScriptedChatModel } from "./scripted.ts";

describe("ScriptedChatModel", () => {
  it("plays text and tool calls in order and records requests", async () => {
    const model = new ScriptedChatModel({ script: [{ toolCalls: [{ name: "ls", args: { path: "/" } }] }, { text: "done" }] });
    const bound = model.bindTools([{ type: "function", function: { name: "ls", description: "", parameters: {} } }]);
    const first = await bound.invoke([new HumanMessage("a")]);
    expect(first.tool_calls).toEqual([{ name: "ls", args: { path: "/" }, id: "call_0_0", type: "tool_call" }]);
    const second = await model.invoke([new HumanMessage("b")]);
    expect(second.content).toBe("done");
    expect(model.calls.map((c) => [c.messages[0]!.content, c.tools])).toEqual([
      ["a", ["ls"]],
      ["b", []],
    ]);
    await expect(model.invoke([new HumanMessage("c")])).rejects.toThrow("script exhausted after 2 calls");
  });

  it("streams the given chunks, then tool-call chunks", async () => {
    const model = new ScriptedChatModel({
      script: [{ text: "hello world", chunks: ["hel", "lo ", "world"], toolCalls: [{ name: "x", args: { a: 1 } }] }],
    });
    const parts: string[] = [];
    let final;
    for await (const chunk of await model.stream([new HumanMessage("a")])) {
      parts.push(String(chunk.content));
      final = final ? final.concat(chunk) : chunk;
    }
    expect(parts).toEqual(["hel", "lo ", "world", ""]);
    expect(final!.content).toBe("hello world");
    expect(final!.tool_calls).toEqual([{ name: "x", args: { a: 1 }, id: "call_0_0", type: "tool_call" }]);
  });

  it("raises scripted errors with name, status and code", async () => {
    const model = new ScriptedChatModel({
      script: [{ error: { message: "too long", name: "ContextOverflowError", status: 400, code: "context_length_exceeded" } }],
    });
    await expect(model.invoke([new HumanMessage("a")])).rejects.toMatchObject({
      name: "ContextOverflowError",
      status: 400,
      code: "context_length_exceeded",
      message: "too long",
    });
  });

  it("waits for delays and aborts with the signal", async () => {
    const model = new ScriptedChatModel({ script: ({ call }) => ({ text: `t${call}`, delayMs: 5_000 }) });
    const controller = new AbortController();
    const pending = model.invoke([new HumanMessage("a")], { signal: controller.signal });
    setTimeout(() => controller.abort(new Error("stopped by user")), 10);
    await expect(pending).rejects.toThrow("stopped by user");
  });

  it("pauses between streamed chunks, not before the first (a provider's first token comes as soon as it can)", async () => {
    vi.useFakeTimers();
    try {
      const model = new ScriptedChatModel({ script: [{ text: "a b c", chunkDelayMs: 1_000 }] });
      const stream = (await model.stream([new HumanMessage("x")]))[Symbol.asyncIterator]();
      expect(String((await stream.next()).value.content)).toBe("a ");
      let second = false;
      const next = stream.next().then((r) => ((second = true), r));
      await vi.advanceTimersByTimeAsync(999);
      expect(second).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(String((await next).value.content)).toBe("b ");
    } finally {
      vi.useRealTimers();
    }
  });
});
