/**
 * A crafted import whose messages are broken is refused before anything is
 * written, naming what is wrong, and a stored thread whose history is broken
 * opens with a coded error (corrupt_record; a run on it: broken_thread),
 * never a TypeError from inside LangChain (issue 21 #10). Node, over
 * fake-indexeddb; Chromium runs the import table through a real worker in
 * threads.browser.test.ts.
 */
import "fake-indexeddb/auto";
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { IndexedDBSaver } from "../../storage/indexeddb-saver.ts";
import { CRAFTED_EXPORTS, craftExport, craftExportV1 } from "../../testing/crafted-exports.ts";
import v1Export from "../../testing/fixtures/thread-export-v1.json" with { type: "json" };
import type { ThreadExportV1 } from "../../protocol/threads.ts";
import { openWorkerApi } from "../../testing/worker-api.ts";
import type { AgentEvent } from "../../protocol/events.ts";
import type { AgentWorkerApi } from "../../protocol/worker-api.ts";

async function hello(api: AgentWorkerApi, threadId: string): Promise<void> {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  const started = await api.startRun(threadId, { text: "hello" }, (e: AgentEvent) => {
    if (e.type === "done" || e.type === "error") finish();
  });
  if (!started.ok) throw new Error(started.error.message);
  await done;
}

describe("importing a crafted version 1 export (a file exported before December 2026)", () => {
  for (const crafted of CRAFTED_EXPORTS) {
    it(`with ${crafted.name} is refused, saying so, and stores nothing`, async () => {
      const { api } = openWorkerApi();
      const before = await api.listThreads();
      const out = await api.importThread(craftExportV1(v1Export as ThreadExportV1, crafted.craft));
      expect(out).toMatchObject({ ok: false, error: { code: "invalid_export" } });
      const message = out.ok ? "" : out.error.message;
      expect(message).toMatch(/^This file is not a valid deeptab thread export \(checkpoint [^:]+: /);
      expect(message).toMatch(crafted.problem);
      expect(await api.listThreads()).toEqual(before);
    });
  }
});

describe("importing a crafted thread", () => {
  for (const crafted of CRAFTED_EXPORTS) {
    it(`with ${crafted.name} is refused, saying so, and stores nothing`, async () => {
      const { api, db } = openWorkerApi();
      await hello(api, "source");
      const exported = await api.exportThread("source");
      if (!exported.ok) throw new Error(exported.error.message);
      const saver = new IndexedDBSaver(`${db}-checkpoints`);
      const before = { threads: await api.listThreads(), saved: await saver.listThreads() };

      const out = await api.importThread(craftExport(exported.value, crafted.craft));
      expect(out).toMatchObject({ ok: false, error: { code: "invalid_export" } });
      const message = out.ok ? "" : out.error.message;
      expect(message).toMatch(/^This file is not a valid deeptab thread export \(checkpoint [^:]+: /);
      expect(message).toMatch(crafted.problem);
      expect(await api.listThreads()).toEqual(before.threads);
      expect(await saver.listThreads()).toEqual(before.saved);
    });
  }
});

describe("opening a thread whose stored history is broken", () => {
  it("the view and a run give a coded error naming the problem, not a TypeError", async () => {
    const { api, db } = openWorkerApi();
    await hello(api, "good");
    const saver = new IndexedDBSaver(`${db}-checkpoints`);
    const tuple = (await saver.getTuple({ configurable: { thread_id: "good", checkpoint_ns: "" } }))!;
    // A record damaged after it was stored: an AI message whose tool calls are not a list.
    const broken = new AIMessage({ content: "", id: "ai-broken" });
    (broken as unknown as { tool_calls: unknown }).tool_calls = "x";
    const checkpoint = {
      ...tuple.checkpoint,
      channel_values: { ...tuple.checkpoint.channel_values, messages: [new HumanMessage("hi"), broken] },
    };
    await saver.put(
      { configurable: { thread_id: "damaged", checkpoint_ns: "" } },
      checkpoint,
      tuple.metadata!,
      checkpoint.channel_versions,
    );

    const problem = "message 2 (ai): its tool calls are not a list";
    await expect(api.getThread("damaged")).rejects.toMatchObject({
      name: "StorageError",
      code: "corrupt_record",
      message: `Thread damaged cannot be opened: its stored history is broken (${problem}). Export what you need and delete it.`,
    });
    const run = await api.startRun("damaged", { text: "go on" }, () => undefined);
    expect(run).toMatchObject({ ok: false, error: { code: "broken_thread", message: expect.stringContaining(problem) } });
    // Other threads are unaffected.
    expect((await api.getThread("good")).messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant"]);
  });
});
