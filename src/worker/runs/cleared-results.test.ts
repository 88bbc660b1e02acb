/**
 * Old tool results cleared from the model's context (context/clear-results.ts), as the page learns of them: the real
 * worker API over fake-indexeddb and a scripted OpenAI-compatible server on loopback with a 32,768-token window. The
 * thread view marks exactly the results the provider last got as notes, each with the file its note names, and that
 * file holds the whole result; the view itself still carries every result whole.
 */
import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import { serveScripted } from "../../testing/scripted-servers.ts";
import { collectRun, openWorkerApi } from "../../testing/worker-api.ts";
import type { ModelChoice } from "../../protocol/settings.ts";

const serve = serveScripted();

const FILES = 6;
/** A read of one (read_file's first 100 lines) is about 3,500 tokens: past half the window after a few reads. */
const body = (n: number) => `file ${n}\n` + `line of file ${n} with some text ${"and more text ".repeat(10)}\n`.repeat(400);

describe("results cleared from the model's context, in the thread view", () => {
  it("are marked on their cards with the file the model's note names, and stay whole in the view", async () => {
    let call = 0;
    // Usage as a provider reports it (about a token per 4 characters of the request), so the harness counts real sizes.
    const server = await serve("openai", (req) => {
      const input = Math.ceil(JSON.stringify(req.body.messages).length / 4);
      const n = ++call;
      return n <= FILES
        ? { toolCalls: [{ id: `call_${n}`, name: "read_file", args: { file_path: `/f${n}.txt` } }], usage: { input, output: 20 } }
        : { text: "All read.", usage: { input, output: 5 } };
    });
    const { api } = openWorkerApi();
    const thread = "cleared";
    for (let n = 1; n <= FILES; n++) expect(await api.writeFile(thread, `/f${n}.txt`, body(n))).toEqual({ ok: true, value: null });
    const choice: ModelChoice = { provider: "openai-compatible", baseUrl: server.baseUrl(), model: "m", contextWindow: 32_768 };
    await api.setThreadModel(thread, choice);
    const run = await collectRun((cb) => api.startRun(thread, { text: "Read every file." }, cb));
    expect(await run.done).toMatchObject({ type: "done", status: "complete" });

    // What the provider got last: some results as notes, each naming its file.
    const last = server.requests.filter((r) => r.path === "/v1/chat/completions").at(-1)!.body.messages as Array<{
      role: string;
      content: unknown;
      tool_call_id?: string;
    }>;
    const notes = new Map(
      last
        .filter((m) => m.role === "tool" && String(m.content).startsWith("[Tool result cleared"))
        .map((m) => [m.tool_call_id!, /its full text is in (\S+)\./.exec(String(m.content))![1]!]),
    );
    expect(notes.size).toBeGreaterThanOrEqual(2);

    const view = await api.getThread(thread);
    const results = view.messages.filter((m) => m.role === "tool");
    expect(results).toHaveLength(FILES);
    const marked = results.filter((m) => m.clearedTo !== undefined);
    expect(new Map(marked.map((m) => [m.toolCallId!, m.clearedTo!]))).toEqual(notes);
    for (const m of results) {
      // The page shows every result whole, cleared or not.
      expect(m.content).toContain("line of file");
      if (!m.clearedTo) continue;
      // The named file holds what the tool returned.
      const saved = await api.readFile(thread, m.clearedTo, 0, 1_000);
      expect(saved.ok && saved.value.lines.join("\n")).toBe(m.content);
    }
  });
});
