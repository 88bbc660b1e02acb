/**
 * A key never leaves for anywhere but its provider (issue 21 #3), in the
 * library: a provider error echoing a key, inside a subagent or in the main
 * agent, is hidden from the tool result, the stored checkpoints (a failed
 * step's error is stored) and the error the caller gets. Runs in Node and,
 * through hostile-guarantees.browser.test.ts, in Chromium on real IndexedDB.
 * (The worker's events, export and request log: worker/settings/key-redaction.test.ts.)
 */
import { HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { ScriptedChatModel } from "../models/scripted.ts";
import { IndexedDBSaver } from "../storage/indexeddb-saver.ts";
import { databaseText, PLAIN_KEY, SHAPED_KEY } from "../testing/key-leaks.ts";
import { createDeepAgent } from "./create-deep-agent.ts";

// Node has no IndexedDB; Chromium has the real one.
const FAKE_INDEXEDDB = "fake-indexeddb/auto";
if (typeof indexedDB === "undefined") await import(/* @vite-ignore */ FAKE_INDEXEDDB);

const echo = (key: string) => ({
  message: `401 Incorrect API key provided: ${key}. Sent: Bearer ${key}`,
  name: "AuthenticationError",
  status: 401,
});

describe("a key echoed in a provider's error", () => {
  for (const [kind, key, secrets] of [
    ["a key-shaped key", SHAPED_KEY, undefined],
    ["a key given in `secrets`", PLAIN_KEY, [PLAIN_KEY]],
    ["a key given as a `secrets` function", PLAIN_KEY, () => [PLAIN_KEY]],
  ] as const) {
    it(`inside a subagent, ${kind} is hidden from the task result and from every stored checkpoint`, async () => {
      const db = `secrets-${crypto.randomUUID()}`;
      const child = new ScriptedChatModel({ script: [{ error: echo(key) }] });
      const parent = new ScriptedChatModel({
        script: [{ toolCalls: [{ name: "task", args: { description: "look", subagent_type: "c" }, id: "t1" }] }, { text: "done" }],
      });
      const agent = createDeepAgent({
        model: parent,
        checkpointer: new IndexedDBSaver(db),
        subagents: [{ name: "c", description: "c", systemPrompt: "c", model: child }],
        ...(secrets ? { secrets } : {}),
      });
      const out = await agent.invoke({ messages: [new HumanMessage("go")] }, { configurable: { thread_id: "s" } });
      const result = (out.messages as BaseMessage[]).find((m): m is ToolMessage => ToolMessage.isInstance(m))!;
      expect(result.status).toBe("error");
      expect(result.content).toBe("Error: AuthenticationError: 401 Incorrect API key provided: [key hidden]. Sent: Bearer [key hidden]");
      // The parent's next request carried the hidden text, not the key.
      expect(JSON.stringify(parent.calls[1]!.messages)).not.toContain(key);
      expect(await databaseText(db)).not.toContain(key);
    });
  }

  it("in the main agent, the error the caller gets and the failed step the checkpointer stores hide the key", async () => {
    const db = `secrets-${crypto.randomUUID()}`;
    const model = new ScriptedChatModel({ script: [{ error: echo(SHAPED_KEY) }] });
    const agent = createDeepAgent({ model, checkpointer: new IndexedDBSaver(db) });
    const failure = agent.invoke({ messages: [new HumanMessage("go")] }, { configurable: { thread_id: "m" } });
    await expect(failure).rejects.toMatchObject({
      status: 401,
      message: "401 Incorrect API key provided: [key hidden]. Sent: Bearer [key hidden]",
    });
    expect(await databaseText(db)).not.toContain(SHAPED_KEY);
  });

  it("a model's own apiKey is hidden whatever its shape", async () => {
    const model = new ScriptedChatModel({ script: [{ toolCalls: [{ name: "boom", args: {} }] }, { text: "done" }] });
    Object.assign(model, { apiKey: PLAIN_KEY });
    const boom = {
      name: "boom",
      description: "fails",
      schema: { type: "object", properties: {} },
      run: async () => {
        throw new Error(`upstream said: ${PLAIN_KEY} is not valid`);
      },
    };
    const out = await createDeepAgent({ model, tools: [boom] }).invoke({ messages: [new HumanMessage("go")] });
    const result = (out.messages as BaseMessage[]).find((m): m is ToolMessage => ToolMessage.isInstance(m))!;
    expect(result.content).toBe("Error: upstream said: [key hidden] is not valid");
  });
});
