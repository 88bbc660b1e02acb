/**
 * llama.cpp in the tab, end to end through the app's worker (Chromium): the
 * worker downloads the tiny GGUF the tests make (into OPFS, with progress),
 * a thread switches to it, and one agent turn runs through real llama.cpp:
 * a grammar-constrained tool call, its result, and the model's answer.
 */
import { describe, expect, inject, it } from "vitest";
import { messagesOf, workerPool } from "../testing/worker-pool.ts";
import type { AgentEvent, DownloadProgress } from "./protocol.ts";

const server = inject("modelServer");
const { spawn } = workerPool(`wllama-${crypto.randomUUID()}`);

describe("an agent turn on llama.cpp in the worker", () => {
  it("downloads the model, runs a tool call and answers, with usage", { timeout: 180_000 }, async () => {
    const client = spawn();
    const progress: DownloadProgress[] = [];
    const source = { id: "tiny-agent", name: "tiny agent", urls: [`${server}/files/agent.gguf`] };
    const downloaded = await client.downloadModel(source, (p) => progress.push(p));
    expect(downloaded).toMatchObject({ ok: true, value: { id: "tiny-agent", complete: true } });
    expect(progress.at(-1)?.loaded).toBeGreaterThan(0);
    expect((await client.listLocalModels()).map((m) => m.id)).toContain("tiny-agent");

    await client.setThreadModel("w1", { provider: "wllama", model: "tiny-agent", contextWindow: 12_288 });
    const events: AgentEvent[] = [];
    const start = await client.run("w1", { text: "hello" }, (e) => events.push(e));
    if (!start.ok) throw new Error(start.error.message);
    const end = await start.value.done;
    expect(end, JSON.stringify(end)).toMatchObject({ type: "done", status: "complete" });
    expect(events.some((e) => e.type === "token")).toBe(true);

    const messages = await messagesOf(client, "w1");
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    expect(messages[1]!.toolCalls).toHaveLength(1);
    expect(messages[2]!.toolCallId).toBe(messages[1]!.toolCalls![0]!.id);
    expect(messages[3]!.content).toBe("Done.");
    const view = await client.getThread("w1");
    expect(view.model).toMatchObject({ provider: "wllama", model: "tiny-agent" });
    expect(view.window).toBe(12_288);
    expect(view.usage.output).toBeGreaterThan(0);
  });
});
