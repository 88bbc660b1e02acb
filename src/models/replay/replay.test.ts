import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { createDeepAgent } from "../../agent/create-deep-agent.ts";
import { ScriptedChatModel, type ScriptContext, type ScriptedTurn } from "../scripted.ts";
import { DEMO_FORMAT, serializeDemo, summarizeDemo, demoFileName, type Demo } from "./format.ts";
import { parseDemo } from "./parse.ts";
import { conversationKey, maskVolatile, mismatch, replyIndex, requestParts } from "./match.ts";
import { DemoRecorder } from "./recorder.ts";
import { DemoDivergedError, ReplayChatModel } from "./replay-chat-model.ts";

/** A main agent that reads /data.txt, writes a note, asks a subagent, then answers; the subagent writes /sub.md. */
function script(ctx: ScriptContext): ScriptedTurn {
  const last = ctx.messages.at(-1);
  if (!ctx.tools.includes("task")) {
    if (last && HumanMessage.isInstance(last))
      return { toolCalls: [{ id: "sub_0", name: "write_file", args: { file_path: "/sub.md", content: "from the subagent" } }] };
    return { text: "The subagent wrote /sub.md.", chunks: ["The subagent ", "wrote /sub.md."] };
  }
  const replies = ctx.messages.filter((m) => AIMessage.isInstance(m)).length;
  if (replies === 0) return { toolCalls: [{ id: "call_0", name: "read_file", args: { file_path: "/data.txt" } }] };
  if (replies === 1)
    return {
      toolCalls: [
        { id: "call_0", name: "write_file", args: { file_path: "/note.md", content: "noted" } },
        { id: "call_1", name: "task", args: { description: "Write /sub.md", subagent_type: "general-purpose" } },
      ],
      usage: { input_tokens: 40, output_tokens: 12 },
    };
  return { text: "All done: /note.md and /sub.md are written.", chunks: ["All done: ", "/note.md and ", "/sub.md are written."] };
}

const prompt = "Read the data and delegate";
const seed = (text: string) => ({
  "/data.txt": { content: text, created_at: "2026-01-01T00:00:00Z", modified_at: "2026-01-01T00:00:00Z" },
});
const texts = (messages: readonly BaseMessage[]) => messages.map((m) => `${m.getType()}:${m.text}`);

async function record(): Promise<{ demo: Demo; messages: BaseMessage[]; files: Record<string, unknown> }> {
  const recorder = new DemoRecorder();
  const agent = createDeepAgent({ model: new ScriptedChatModel({ script }) });
  const out = await agent.invoke({ messages: [new HumanMessage(prompt)], files: seed("alpha beta") } as never, { callbacks: [recorder] });
  return {
    demo: recorder.demo({ model: "scripted:test", recordedBy: "Tester" }),
    messages: out.messages,
    files: out.files as Record<string, unknown>,
  };
}

describe("recorded demos: record, keep, replay", () => {
  it("records every agent's calls (the subagent's too), round-trips through its file, and replays the same run", async () => {
    const recorded = await record();
    const { demo } = recorded;
    expect(demo.format).toBe(DEMO_FORMAT);
    expect(demo.prompts).toEqual([prompt]);
    // main ×3, subagent ×2
    expect(demo.calls).toHaveLength(5);
    expect(new Set(demo.calls.map((c) => c.conversation)).size).toBe(2);
    expect(demo.calls[1]!.reply.usage).toEqual({ input_tokens: 40, output_tokens: 12 });
    const last = demo.calls.at(-1)!;
    expect(last.timing.chunks.map(([, n]) => n)).toEqual([10, 13, 20]);
    expect(summarizeDemo(demo)).toEqual({
      title: prompt,
      prompt,
      replies: 5,
      tools: ["read_file", "write_file", "task"],
      model: "scripted:test",
      recordedBy: "Tester",
      scripted: false,
    });

    const file = serializeDemo(demo);
    const parsed = parseDemo(file);
    expect(parsed).toEqual({ ok: true, value: demo });

    const replay = new ReplayChatModel({ demo: (parsed as { value: Demo }).value, speed: Infinity });
    const out = await createDeepAgent({ model: replay }).invoke({
      messages: [new HumanMessage(prompt)],
      files: seed("alpha beta"),
    } as never);
    expect(texts(out.messages)).toEqual(texts(recorded.messages));
    expect(Object.keys(out.files as object).sort()).toEqual(Object.keys(recorded.files).sort());
    expect(replay.played).toBe(5);
    expect(out.messages.at(-1)!.response_metadata).toMatchObject({ model_name: "scripted:test", deeptab_replay: true });
  });

  it("stops with the reason when the person's message differs, and invents nothing", async () => {
    const { demo } = await record();
    const replay = new ReplayChatModel({ demo, speed: Infinity });
    const run = createDeepAgent({ model: replay }).invoke({
      messages: [new HumanMessage("Something else")],
      files: seed("alpha beta"),
    } as never);
    await expect(run).rejects.toThrow(DemoDivergedError);
    await expect(
      createDeepAgent({ model: new ReplayChatModel({ demo, speed: Infinity }) }).invoke({ messages: [new HumanMessage("Something else")] }),
    ).rejects.toThrow(`this message is not one the demo recorded (its prompt is “${prompt}”)`);
  });

  it("stops where a tool result differs (a file with other content), naming the tool and both texts", async () => {
    const { demo } = await record();
    const replay = new ReplayChatModel({ demo, speed: Infinity });
    const error = await createDeepAgent({ model: replay })
      .invoke({ messages: [new HumanMessage(prompt)], files: seed("gamma delta") } as never)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DemoDivergedError);
    expect((error as DemoDivergedError).code).toBe("demo_diverged");
    expect((error as Error).message).toMatch(
      /the result of read_file differs from the recording \(recorded “.*alpha beta.*”, here “.*gamma delta.*”\)/,
    );
    expect(replay.played).toBe(1);
  });

  it("stops when a recorded answer calls a tool the agent does not offer here", async () => {
    const { demo } = await record();
    const replay = new ReplayChatModel({ demo, speed: Infinity });
    const agent = createDeepAgent({ model: replay, disallowedTools: ["task"] });
    await expect(agent.invoke({ messages: [new HumanMessage(prompt)], files: seed("alpha beta") } as never)).rejects.toThrow(
      "the recorded answer calls task, which this agent does not offer here",
    );
  });

  it("says the recording ended when the conversation goes on past it", async () => {
    const { demo } = await record();
    const replay = new ReplayChatModel({ demo, speed: Infinity });
    const agent = createDeepAgent({ model: replay });
    const first = await agent.invoke({ messages: [new HumanMessage(prompt)], files: seed("alpha beta") } as never);
    await expect(agent.invoke({ messages: [...first.messages, new HumanMessage("And now?")] })).rejects.toThrow(
      "the recording ends here (it holds 5 answers)",
    );
  });

  it("gives two identical subagents one recorded answer each", async () => {
    const twin: (ctx: ScriptContext) => ScriptedTurn = (ctx) => {
      if (!ctx.tools.includes("task")) return { text: "twin done" };
      const replies = ctx.messages.filter((m) => AIMessage.isInstance(m)).length;
      if (replies === 0)
        return {
          toolCalls: [
            { id: "a", name: "task", args: { description: "same", subagent_type: "general-purpose" } },
            { id: "b", name: "task", args: { description: "same", subagent_type: "general-purpose" } },
          ],
        };
      return { text: "both done" };
    };
    const recorder = new DemoRecorder();
    await createDeepAgent({ model: new ScriptedChatModel({ script: twin }) }).invoke(
      { messages: [new HumanMessage("twice")] },
      { callbacks: [recorder] },
    );
    const demo = recorder.demo({ model: "m" });
    expect(demo.calls).toHaveLength(4);
    const replay = new ReplayChatModel({ demo, speed: Infinity });
    const out = await createDeepAgent({ model: replay }).invoke({ messages: [new HumanMessage("twice")] });
    expect(out.messages.at(-1)!.text).toBe("both done");
    expect(replay.played).toBe(4);
  });

  it("streams at the recorded pace, and faster on request", async () => {
    const demo: Demo = {
      format: DEMO_FORMAT,
      model: "m",
      prompts: ["hi"],
      calls: [
        {
          conversation: conversationKey([new HumanMessage("hi")]),
          index: 0,
          request: [{ kind: "human", text: "hi" }],
          reply: { text: "one two" },
          timing: {
            firstMs: 120,
            chunks: [
              [120, 4],
              [240, 3],
            ],
            endMs: 300,
          },
        },
      ],
    };
    const timed = async (speed: number) => {
      const started = performance.now();
      const pieces: Array<[number, string]> = [];
      for await (const chunk of await new ReplayChatModel({ demo, speed }).stream([new HumanMessage("hi")]))
        if (chunk.text) pieces.push([performance.now() - started, chunk.text]);
      return { pieces, total: performance.now() - started };
    };
    const recordedPace = await timed(1);
    expect(recordedPace.pieces.map(([, t]) => t)).toEqual(["one ", "two"]);
    expect(recordedPace.pieces[0]![0]).toBeGreaterThanOrEqual(115);
    expect(recordedPace.pieces[1]![0]).toBeGreaterThanOrEqual(235);
    expect(recordedPace.total).toBeGreaterThanOrEqual(295);
    const fast = await timed(4);
    expect(fast.pieces.map(([, t]) => t)).toEqual(["one ", "two"]);
    expect(fast.pieces[1]![0]).toBeGreaterThanOrEqual(55);
    expect(() => new ReplayChatModel({ demo, speed: 0 })).toThrow("speed must be above 0");
  });
});

describe("the matching rules", () => {
  it("finds a call by its conversation (the first human message) and its index (replies so far)", () => {
    const messages = [new SystemMessage("s"), new HumanMessage("  task   text "), new AIMessage("a"), new HumanMessage("more")];
    expect(conversationKey(messages)).toBe(conversationKey([new HumanMessage("task text")]));
    expect(replyIndex(messages)).toBe(1);
    expect(requestParts(messages)).toEqual([{ kind: "human", text: "more" }]);
  });

  it("keeps a tool result's name, failure, masked digest and start; masks times, durations and ids only", () => {
    const call = new AIMessage({ content: "", tool_calls: [{ id: "c1", name: "execute", args: {} }] });
    const result = (text: string, status?: "error") =>
      new ToolMessage({ content: text, tool_call_id: "c1", ...(status ? { status } : {}) });
    const [part] = requestParts([new HumanMessage("x"), call, result("ok in 1.2s")]);
    expect(part).toMatchObject({ kind: "tool", name: "execute", callId: "c1", excerpt: "ok in 1.2s" });
    expect(requestParts([new HumanMessage("x"), call, result("x", "error")])[0]).toMatchObject({ error: true });
    expect(maskVolatile("took 1.2s at 2026-12-07T10:00:00Z, id 3f2c1a9e-1111-2222-3333-444455556666")).toBe(
      maskVolatile("took 35 ms at 2027-01-01T23:59:59Z, id 00000000-aaaa-bbbb-cccc-dddddddddddd"),
    );
    expect(maskVolatile("3 files")).not.toBe(maskVolatile("4 files"));
    const recorded = {
      conversation: "0",
      index: 1,
      request: requestParts([new HumanMessage("x"), call, result("Duration 1.20s")]),
      reply: { text: "" },
      timing: { firstMs: 0, chunks: [], endMs: 0 },
    };
    expect(mismatch(recorded, requestParts([new HumanMessage("x"), call, result("Duration 0.98s")]))).toBeUndefined();
    expect(mismatch(recorded, requestParts([new HumanMessage("x"), call, result("FAIL", "error")]))).toBe(
      "execute failed here (“FAIL”); in the recording it succeeded",
    );
    expect(mismatch(recorded, [])).toBe("this run's request lacks the result of execute that the recording had");
  });
});

describe("the demo file", () => {
  const minimal = (over: Record<string, unknown> = {}) =>
    JSON.stringify({
      format: DEMO_FORMAT,
      model: "m",
      prompts: ["hi"],
      calls: [{ conversation: "ab", index: 0, request: [], reply: { text: "hey" }, timing: { firstMs: 5, chunks: [[5, 3]], endMs: 9 } }],
      ...over,
    });

  it("lists every problem at once, each with where it is", () => {
    expect(parseDemo("{")).toMatchObject({ ok: false });
    const bad = parseDemo(minimal({ format: "other", prompts: [], extra: 1 }));
    expect(bad.ok).toBe(false);
    const problems = (bad as { error: string[] }).error;
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringContaining(`format: must be "${DEMO_FORMAT}"`),
        "prompts: a demo needs its prompt",
        expect.stringContaining("extra"),
      ]),
    );
    const uneven = parseDemo(
      minimal({
        calls: [
          {
            conversation: "ab",
            index: 0,
            request: [],
            reply: { text: "hey" },
            timing: {
              firstMs: 5,
              chunks: [
                [9, 1],
                [6, 1],
              ],
              endMs: 4,
            },
          },
        ],
      }),
    );
    expect((uneven as { error: string[] }).error).toEqual([
      "calls[0].timing.chunks: they add up to 2 characters, the reply has 3",
      "calls[0].timing.chunks: a time runs backwards (6 ms after 9 ms)",
      "calls[0].timing.endMs: before the last chunk",
    ]);
    expect(parseDemo(minimal()).ok).toBe(true);
  });

  it("names a demo's file from its title, never over another", () => {
    expect(demoFileName("Summarize the CSV!", new Set())).toBe("demos/summarize-the-csv.json");
    expect(demoFileName("Summarize the CSV", new Set(["demos/summarize-the-csv.json"]))).toBe("demos/summarize-the-csv-2.json");
    expect(demoFileName("???", new Set())).toBe("demos/demo.json");
  });
});
