/**
 * Hostile input in Chromium: the whole Node table (hostile-input.test.ts)
 * runs in the page, and the freeze and crash cases run again inside a Web
 * Worker on real IndexedDB (src/testing/hostile-worker.ts); a worker and the
 * page run one thread at once (src/testing/busy-thread-worker.ts).
 */
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { ScriptedChatModel } from "../models/scripted.ts";
import { IndexedDBSaver } from "../storage/indexeddb-saver.ts";
import type { BusyThreadMessage } from "../testing/busy-thread-worker.ts";
import type { HostileOutcome } from "../testing/hostile-worker.ts";
import { workerPool } from "../testing/worker-pool.ts";
import { createDeepAgent } from "./create-deep-agent.ts";
import "./hostile-input.test.ts";

const { track } = workerPool();

describe("hostile input in a Web Worker on IndexedDB", () => {
  it("every case finishes fast, answers every call with a result, and leaves the stored thread complete", async () => {
    const worker = track(new Worker(new URL("../testing/hostile-worker.ts", import.meta.url), { type: "module" }));
    const outcomes = await new Promise<HostileOutcome[]>((resolve, reject) => {
      worker.onmessage = (e: MessageEvent<HostileOutcome[]>) => resolve(e.data);
      worker.onerror = (e) => reject(new Error(e.message));
      worker.postMessage({ db: `hostile-${crypto.randomUUID()}` });
    });
    expect(outcomes.map((o) => o.name)).toHaveLength(3);
    for (const o of outcomes) {
      expect(o.error, o.name).toBeUndefined();
      expect(o.elapsedMs, o.name).toBeLessThan(5_000);
      expect(o.final, o.name).toBe("done");
      expect(o.unanswered, o.name).toBe(0);
    }
    const [globs, ids, nulls] = outcomes as [HostileOutcome, HostileOutcome, HostileOutcome];
    expect(globs.results.slice(1).map((r) => r.status)).toEqual(["success", "error", "error", "error", "success"]);
    expect(globs.results[5]!.content).toBe("No matches found");
    expect(globs.results[1]!.content).toBe("No files found matching pattern '**a**a**a**a**a**b'");
    expect(globs.results[2]!.content).toMatch(/^Error: invalid glob pattern '\[z-a\]'/);
    expect(ids.results).toHaveLength(5);
    const texts = ids.results.map((r) => r.content);
    expect(texts.filter((t) => /^Error: the arguments of your call to 'write_file' are not usable/.test(t))).toHaveLength(1);
    expect(texts).toEqual(expect.arrayContaining(["Updated file /b.md", "Updated file /c.md", "Updated file /d.md", "Updated file /e.md"]));
    expect(nulls.results.map((r) => r.status)).toEqual(["error", "error", "error", "error"]);
  });
});

describe("one thread run from a worker and from the page at once", () => {
  it(
    "the page's run is refused with thread_busy while the worker's holds the thread " + "(a Web Lock spans realms); both are kept",
    async () => {
      const db = `busy-realms-${crypto.randomUUID()}`;
      const thread = "shared";
      const worker = track(new Worker(new URL("../testing/busy-thread-worker.ts", import.meta.url), { type: "module" }));
      const received: BusyThreadMessage[] = [];
      const waiters: Array<() => void> = [];
      worker.onmessage = (e: MessageEvent<BusyThreadMessage>) => {
        received.push(e.data);
        for (const wake of waiters.splice(0)) wake();
      };
      const message = async (which: "started" | "done"): Promise<BusyThreadMessage> => {
        for (;;) {
          const found = received.find((m) => which in m);
          if (found) return found;
          await new Promise<void>((wake) => waiters.push(wake));
        }
      };
      worker.postMessage({ db, thread, delayMs: 1_500 });
      await message("started");
      const page = createDeepAgent({
        model: new ScriptedChatModel({ script: [{ text: "from the page" }] }),
        checkpointer: new IndexedDBSaver(db),
      });
      const config = { configurable: { thread_id: thread } };
      await expect(page.invoke({ messages: [new HumanMessage("page")] }, config)).rejects.toMatchObject({ code: "thread_busy" });
      expect(await message("done")).toEqual({ done: true, final: "from the worker" });
      const out = await page.invoke({ messages: [new HumanMessage("page")] }, config);
      expect(out.messages.map((m: BaseMessage) => m.text)).toEqual(["worker", "from the worker", "page", "from the page"]);
    },
  );
});
