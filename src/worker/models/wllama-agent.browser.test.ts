/**
 * llama.cpp in the tab, end to end through the app's worker (Chromium): the
 * worker downloads the tiny GGUF the tests make (into OPFS, with progress),
 * a thread switches to it, and one agent turn runs through real llama.cpp:
 * a grammar-constrained tool call, its result, and the model's answer; what
 * the turn says before its first token (the model loading with the share of
 * its file read, then llama.cpp reading the prompt) comes in order.
 */
import { describe, expect, inject, it } from "vitest";
import { messagesOf, workerPool } from "../../testing/worker-pool.ts";
import type { AgentEvent, StatusEvent } from "../../protocol/events.ts";
import type { DownloadProgress } from "../../protocol/settings.ts";

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
    let end = await start.value.done;
    // llama.cpp samples (temperature 0.7, a new seed per call), so the tiny model may pick a tool that asks first
    // (fetch_url always does, execute by default): approve it, as a person would, and the turn goes on.
    for (let i = 0; i < 3 && end.type === "done" && end.status === "interrupted"; i++) {
      const approval = (await client.getThread("w1")).approval;
      if (!approval) break;
      const resumed = await client.resume(
        "w1",
        approval.actions.map(() => ({ type: "approve" as const })),
        (e) => events.push(e),
        approval.id,
      );
      if (!resumed.ok) throw new Error(resumed.error.message);
      end = await resumed.value.done;
    }
    expect(end, JSON.stringify(end)).toMatchObject({ type: "done", status: "complete" });
    expect(events.some((e) => e.type === "token")).toBe(true);

    // Before the first token: the model loads (the share of its file read, rising to all of it), then the prompt is read.
    const status = (e: AgentEvent): e is StatusEvent => e.type === "status";
    const loading = events.filter(status).filter((e) => e.phase === "loading_model");
    expect(loading[0]?.progress).toBe(0);
    expect(loading.at(-1)?.progress).toBe(1);
    expect(loading.every((e, i) => i === 0 || e.progress! >= loading[i - 1]!.progress!)).toBe(true);
    const firstReading = events.findIndex((e) => status(e) && e.phase === "reading_prompt");
    expect(firstReading).toBeGreaterThan(events.lastIndexOf(loading.at(-1)!));
    expect(firstReading).toBeLessThan(events.findIndex((e) => e.type === "messages" || e.type === "token"));
    // llama.cpp says how far it read each prompt (its tokens, and all of them before it answers).
    const reading = events.filter(status).filter((e) => e.phase === "reading_prompt" && e.tokens !== undefined);
    expect(reading.length).toBeGreaterThan(0);
    expect(reading.every((e) => e.tokens! > 0 && e.progress! >= 0 && e.progress! <= 1)).toBe(true);
    expect(reading.some((e) => e.progress === 1)).toBe(true);
    // No status once the answer streams.
    const lastToken = events.findLastIndex((e) => e.type === "token");
    expect(
      events
        .slice(
          events.findIndex((e) => e.type === "token"),
          lastToken,
        )
        .some(status),
    ).toBe(false);

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
