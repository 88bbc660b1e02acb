/**
 * Storage faults never leave files without a matching history (issue 21 #7):
 * after a quota error on a sibling's write, or a checkpoint that failed to
 * save after the tools ran, Continue (from a fresh agent over the same
 * databases, as after a reload) re-runs the step and every call that had
 * finished recognizes its own completed effect: it answers as it did and
 * changes nothing twice. Runs in Node (fake-indexeddb) and, through
 * storage-faults.browser.test.ts, in Chromium.
 */
import { HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { describe, expect, it, vi } from "vitest";
import { compositeBackend } from "../backends/composite.ts";
import { indexedDBBackend } from "../backends/indexeddb.ts";
import { callIdentity, createBackendRuntime, type BackendRuntime } from "../backends/runtime.ts";
import { deleteStoreEffects, StoreBackend } from "../backends/store.ts";
import { ScriptedChatModel, type ScriptContext, type ScriptedTurn } from "../models/scripted.ts";
import { IndexedDBSaver } from "../storage/indexeddb-saver.ts";
import { IndexedDBStore } from "../storage/indexeddb-store.ts";
import { injectQuotaErrors, isSaverStore } from "../testing/storage-faults.ts";
import { createDeepAgent } from "./create-deep-agent.ts";

// Node has no IndexedDB; Chromium has the real one.
const FAKE_INDEXEDDB = "fake-indexeddb/auto";
if (typeof indexedDB === "undefined") await import(/* @vite-ignore */ FAKE_INDEXEDDB);

const config = { configurable: { thread_id: "faults" } };

/** Three calls in one message: two writes and an edit that is not idempotent (replace_all c → cc), `/a.md` and `/c.md` under `dir`. */
const scriptIn =
  (dir: string) =>
  (ctx: ScriptContext): ScriptedTurn => {
    if (ctx.messages.some((m) => ToolMessage.isInstance(m))) return { text: "done" };
    return {
      toolCalls: [
        { name: "write_file", args: { file_path: `${dir}/a.md`, content: "a" }, id: "write_a" },
        { name: "edit_file", args: { file_path: `${dir}/c.md`, old_string: "c", new_string: "cc", replace_all: true }, id: "edit_c" },
        { name: "write_file", args: { file_path: "/b.md", content: "b" }, id: "write_b" },
      ],
    };
  };
const script = scriptIn("");

/** The thread's databases; `agent()` is a fresh agent over them each time (a reload between runs). */
async function setup() {
  const names = { files: `faults-files-${crypto.randomUUID()}`, saver: `faults-saver-${crypto.randomUUID()}` };
  const agent = () => {
    const backend = indexedDBBackend({ dbName: names.files });
    return {
      backend,
      agent: createDeepAgent({ model: new ScriptedChatModel({ script }), checkpointer: new IndexedDBSaver(names.saver), backend }),
    };
  };
  const first = agent();
  await first.backend(createBackendRuntime({}, config)).write("/c.md", "c");
  const files = async () => {
    const index = await indexedDBBackend({ dbName: names.files }).files.index("faults");
    return Object.fromEntries([...index].map(([path, f]) => [path, f.data.content]));
  };
  return { first, agent, files };
}

const results = (messages: readonly BaseMessage[]) =>
  messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m)).map((m) => [m.tool_call_id, m.content]);

const AS_FIRST_RUN = [
  ["write_a", "Updated file /a.md"],
  ["edit_c", "Successfully replaced 1 instance(s) of the string in '/c.md'"],
  ["write_b", "Updated file /b.md"],
];

describe("storage faults: tool effects and the history agree", () => {
  it("a quota error on a sibling's write ends the run; Continue finds the finished calls done, not 'already exists'", async () => {
    const { first, agent, files } = await setup();
    let failed = false;
    injectQuotaErrors((store, value) => {
      if (failed || store !== "files" || (value as { path?: unknown }).path !== "/b.md") return false;
      return (failed = true);
    });
    await expect(first.agent.invoke({ messages: [new HumanMessage("go")] }, config)).rejects.toMatchObject({
      name: "StorageError",
      code: "quota_exceeded",
    });
    expect(await files()).toEqual({ "/a.md": "a", "/c.md": "cc" });

    const out = await agent().agent.invoke(null, config);
    expect(results(out.messages)).toEqual(AS_FIRST_RUN);
    expect(await files()).toEqual({ "/a.md": "a", "/b.md": "b", "/c.md": "cc" });
    expect(out.messages.at(-1)!.text).toBe("done");
  });

  it("the same over a store route (/memories/ in IndexedDBStore): Continue finds its finished calls done", async () => {
    const names = { files: `faults-files-${crypto.randomUUID()}`, saver: `faults-saver-${crypto.randomUUID()}` };
    const store = new IndexedDBStore({ dbName: `faults-store-${crypto.randomUUID()}` });
    const memories = (rt: BackendRuntime) => new StoreBackend(store, ["memories"], rt.now, callIdentity(rt.config));
    const agent = () =>
      createDeepAgent({
        model: new ScriptedChatModel({ script: scriptIn("/memories") }),
        checkpointer: new IndexedDBSaver(names.saver),
        backend: compositeBackend(indexedDBBackend({ dbName: names.files }), { "/memories/": memories }),
      });
    await new StoreBackend(store, ["memories"]).write("/c.md", "c");
    const memoryFiles = async () => Object.fromEntries((await store.search(["memories"])).map((i) => [i.key, i.value.content]));
    let failed = false;
    injectQuotaErrors((name, value) => {
      if (failed || name !== "files" || (value as { path?: unknown }).path !== "/b.md") return false;
      return (failed = true);
    });
    await expect(agent().invoke({ messages: [new HumanMessage("go")] }, config)).rejects.toMatchObject({ code: "quota_exceeded" });
    expect(await memoryFiles()).toEqual({ "/a.md": "a", "/c.md": "cc" });

    const out = await agent().invoke(null, config);
    expect(results(out.messages)).toEqual([
      ["write_a", "Updated file /memories/a.md"],
      ["edit_c", "Successfully replaced 1 instance(s) of the string in '/memories/c.md'"],
      ["write_b", "Updated file /b.md"],
    ]);
    expect(await memoryFiles()).toEqual({ "/a.md": "a", "/c.md": "cc" });
    // The thread's one record of its latest step goes with the thread (the app's delete).
    expect((await store.search(["deeptab_effects", "memories"])).map((i) => i.key)).toEqual(["faults"]);
    await deleteStoreEffects(store, ["memories"], (id) => id === "faults");
    expect(await store.search(["deeptab_effects"])).toEqual([]);
  });

  it("a checkpoint that fails to save after the tools ran: Continue answers every call as it ran, changing nothing twice", async () => {
    const { first, agent, files } = await setup();
    let writes = 0;
    let failures = 0;
    // Once the three calls wrote, every save of the saver fails: the step's writes (putWrites), then its checkpoint (put).
    const restore = injectQuotaErrors((store) => {
      if (store === "files") writes++;
      const fail = writes >= 3 && isSaverStore(store);
      if (fail) failures++;
      return fail;
    });
    await expect(first.agent.invoke({ messages: [new HumanMessage("go")] }, config)).rejects.toMatchObject({ code: "quota_exceeded" });
    // The step's checkpoint is put after the run already failed on its writes: wait for that second failure.
    await vi.waitFor(() => expect(failures).toBeGreaterThanOrEqual(2), { timeout: 10_000 });
    restore();
    expect(await files()).toEqual({ "/a.md": "a", "/b.md": "b", "/c.md": "cc" });
    const saved = (await agent().agent.getState(config)).values as { messages: BaseMessage[] };
    expect(results(saved.messages)).toEqual([]);

    const out = await agent().agent.invoke(null, config);
    expect(results(out.messages)).toEqual(AS_FIRST_RUN);
    expect(await files()).toEqual({ "/a.md": "a", "/b.md": "b", "/c.md": "cc" });
  });
});
