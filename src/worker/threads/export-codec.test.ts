/**
 * Thread exports of version 2 (export-codec.ts) in Node over fake-indexeddb, with the demo model: each message once,
 * linear in the thread's length and within 3× the raw bytes of its messages and files; an export imports to the same
 * thread, which runs on; a version 1 export (a file exported before December 2026) still imports; a history whose
 * references do not hold is refused, naming them, with nothing stored.
 */
import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import { measureExports, type ExportSize } from "../../testing/export-size.ts";
import { collectRun, openWorkerApi } from "../../testing/worker-api.ts";
import v1Export from "../../testing/fixtures/thread-export-v1.json" with { type: "json" };
import type { ThreadExport } from "../../protocol/threads.ts";
import type { AgentWorkerApi } from "../../protocol/worker-api.ts";

type Api = AgentWorkerApi;

async function turns(api: Api, threadId: string, texts: string[]): Promise<void> {
  for (const text of texts) await (await collectRun((cb) => api.startRun(threadId, { text }, cb))).done;
}

async function exported(api: Api, threadId: string): Promise<ThreadExport> {
  const out = await api.exportThread(threadId);
  if (!out.ok) throw new Error(out.error.message);
  return JSON.parse(JSON.stringify(out.value)) as ThreadExport;
}

describe("thread exports, version 2", () => {
  it("hold each message once, grow linearly with the thread, and stay within 3× the raw bytes of its messages and files", async () => {
    const sizes = await measureExports([3, 6, 12]);
    for (const { turns, bytes, raw, exported } of sizes) {
      expect(bytes, `${turns} turns`).toBeLessThanOrEqual(3 * raw);
      // Each message of the thread is in the table once.
      const texts = exported.messages.map((m) => JSON.stringify(m));
      expect(new Set(texts).size).toBe(texts.length);
    }
    // Linear: each of turns 7–12 adds about what each of turns 4–6 did (were it quadratic, twice as much).
    const [three, six, twelve] = sizes as [ExportSize, ExportSize, ExportSize];
    const early = (six.bytes - three.bytes) / 3;
    const late = (twelve.bytes - six.bytes) / 6;
    expect(late / early).toBeLessThan(1.3);
  }, 240_000);

  it("imports to the same thread (messages, files, the pending approval, a subagent's thread), which runs on", async () => {
    const { api } = openWorkerApi();
    await turns(api, "x", ["write a note", "research birds", "now delete it"]);
    const exp = await exported(api, "x");
    expect(exp).toMatchObject({ format: "deeptab-thread", version: 2 });
    expect(exp.checkpoints.some((c) => (c.threadSuffix ?? "").startsWith("::task::"))).toBe(true);
    // No base64 for what the serde writes as JSON: the file reads as text.
    expect(JSON.stringify(exp)).toContain('"research birds"');
    const imported = await api.importThread(exp);
    if (!imported.ok) throw new Error(imported.error.message);
    const [from, to] = [await api.getThread("x"), await api.getThread(imported.value)];
    expect(to.messages).toEqual(from.messages);
    expect(to.approval).toEqual(from.approval);
    expect(to.approval).not.toBeNull();
    expect(await api.listFiles(imported.value)).toEqual(await api.listFiles("x"));
    const resumed = await collectRun((cb) => api.resume(imported.value, [{ type: "approve" }], cb));
    expect(await resumed.done).toMatchObject({ type: "done", status: "complete" });
  }, 60_000);

  it("imports a version 1 export, as exported before December 2026: its messages, files and pending approval", async () => {
    const { api } = openWorkerApi();
    const imported = await api.importThread(v1Export);
    if (!imported.ok) throw new Error(imported.error.message);
    const thread = await api.getThread(imported.value);
    expect(thread.messages.filter((m) => m.role === "user").map((m) => m.content)).toEqual(["hello", "research birds", "now delete it"]);
    expect(thread.approval).not.toBeNull();
    expect((await api.listFiles(imported.value)).map((f) => f.path)).toEqual(["/hello.md", "/research.md"]);
    const resumed = await collectRun((cb) => api.resume(imported.value, [{ type: "approve" }], cb));
    expect(await resumed.done).toMatchObject({ type: "done", status: "complete" });
  }, 60_000);

  it("refuses a history whose references do not hold, naming them, and stores nothing", async () => {
    const { api } = openWorkerApi();
    await turns(api, "src", ["hello", "hello again"]);
    const exp = await exported(api, "src");
    const delta = exp.values.findIndex((v) => "base" in v && v.base !== undefined);
    expect(delta).toBeGreaterThan(0);
    const other = exp.values.findIndex((v) => v.channel !== "messages" && !("messages" in v));
    const before = await api.listThreads();
    const cases: Array<[string, ThreadExport, RegExp]> = [
      [
        "a message that is not there",
        { ...exp, values: exp.values.map((v, i) => (i === delta ? { ...v, messages: [exp.messages.length] } : v)) },
        new RegExp(`value ${delta}: message ${exp.messages.length} is not in the export`),
      ],
      [
        "a delta on another channel's value",
        { ...exp, values: exp.values.map((v, i) => (i === delta ? { ...v, base: other } : v)) },
        new RegExp(`value ${delta}: its base is not an earlier list of the same channel`),
      ],
      [
        "a delta keeping more than its base holds",
        { ...exp, values: exp.values.map((v, i) => (i === delta ? { ...v, keep: 10_000 } : v)) },
        new RegExp(`value ${delta}: it keeps 10000 of \\d+ messages`),
      ],
      [
        "a checkpoint that is not one",
        { ...exp, checkpoints: exp.checkpoints.map((c, i) => (i === 0 ? { ...c, checkpoint: { type: "json", json: 5 } } : c)) },
        new RegExp(`checkpoint ${exp.checkpoints[0]!.checkpointId}: it is not a checkpoint`),
      ],
    ];
    for (const [name, crafted, problem] of cases) {
      const out = await api.importThread(crafted);
      expect(out, name).toMatchObject({ ok: false, error: { code: "invalid_export" } });
      expect(out.ok ? "" : out.error.message, name).toMatch(/^This file is not a valid deeptab thread export \(/);
      expect(out.ok ? "" : out.error.message, name).toMatch(problem);
    }
    expect(await api.listThreads()).toEqual(before);
  }, 60_000);
});
