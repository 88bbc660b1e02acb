/**
 * A provider key goes only to the origin it was entered for, in the real agent worker (Chromium, real IndexedDB).
 * Two origins on the loopback provider server: the person's at `127.0.0.1`, the one an agent folder's subagent names
 * at `localhost` (another host, so another origin to the browser). (Node, two ports: key-binding.test.ts.)
 */
import { describe, expect, inject, it } from "vitest";
import { serverScope } from "../../testing/server-scope.ts";
import { workerPool } from "../../testing/worker-pool.ts";

const db = `key-binding-${crypto.randomUUID()}`;
const { spawn } = workerPool(db);
const KEY = "person-key-9f8e7d6c5b4a";
const encoder = new TextEncoder();

describe("a key goes only to the origin it was entered for, in the worker", () => {
  it("a subagent naming another host is called without the person's key; their own server gets it", async () => {
    const url = inject("providerServer");
    const a = serverScope(url);
    const b = serverScope(url.replace("127.0.0.1", "localhost"));
    expect(new URL(a.baseUrl).origin).not.toBe(new URL(b.baseUrl).origin);
    await a.script([
      { when: { lastUserIncludes: "Go" }, toolCalls: [{ name: "task", args: { description: "Look around.", subagent_type: "helper" } }] },
      { text: "Done." },
    ]);
    await b.script([{ text: "Sub report." }]);
    const helper = ["---", "name: helper", "description: Helps.", "model:", "  provider: openai-compatible", "  model: sub-m"];
    const files = { "AGENTS.md": "Delegate.", "agents/helper.md": [...helper, `  base_url: ${b.baseUrl}`, "---", "You help."].join("\n") };

    const client = spawn();
    const choice = { provider: "openai-compatible" as const, model: "main-m", baseUrl: a.baseUrl, contextWindow: 200_000 };
    await client.updateSettings({ defaultModel: choice });
    await client.setKey("openai-compatible", KEY, false, a.baseUrl);
    const preview = await client.previewAgentUpload({
      files: Object.entries(files).map(([path, text]) => ({ path, content: encoder.encode(text) })),
    });
    if (!preview.ok) throw new Error(preview.error.message);
    const used = await client.useAgent(preview.value.summary.hash!);
    if (!used.ok) throw new Error(used.error.message);
    const thread = `k-${crypto.randomUUID()}`;
    expect(await client.setThreadAgent(thread, used.value.id)).toEqual({ ok: true, value: null });
    await client.setThreadModel(thread, choice);
    const start = await client.run(thread, { text: "Go" }, () => undefined);
    if (!start.ok) throw new Error(start.error.message);
    expect(await start.value.done).toMatchObject({ status: "complete" });

    const onB = (await b.requests()).filter((r) => r.path.endsWith("/chat/completions"));
    expect(onB.length).toBeGreaterThanOrEqual(1);
    expect(JSON.stringify(onB.map((r) => r.headers))).not.toContain(KEY);
    const onA = (await a.requests()).filter((r) => r.path.endsWith("/chat/completions"));
    expect(onA.length).toBeGreaterThanOrEqual(2);
    expect(onA.every((r) => r.headers.authorization === `Bearer ${KEY}`)).toBe(true);
  }, 60_000);
});
