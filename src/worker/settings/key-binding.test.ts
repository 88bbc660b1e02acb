/**
 * A provider key is bound to the origin it was entered for (models/key-endpoint.ts, worker/settings/settings.ts), through the
 * worker API in Node (fake-indexeddb) against two loopback servers: two ports, two origins. Server A is the person's,
 * with their key; server B is one an agent folder's subagent names. B never receives the key, A still does.
 */
import "fake-indexeddb/auto";
import type { IncomingHttpHeaders } from "node:http";
import { describe, expect, it } from "vitest";
import type { RecordedRequest } from "../../testing/provider-servers.ts";
import { serveScripted } from "../../testing/scripted-servers.ts";
import { collectRun, openWorkerApi, storeFolderAgent } from "../../testing/worker-api.ts";
import { createLayout } from "../layout.ts";
import type { ModelChoice } from "../../protocol/settings.ts";

const serve = serveScripted();
const KEY = "person-key-0a1b2c3d4e5f";

const chatsOf = (requests: RecordedRequest[]) => requests.filter((r) => r.path.endsWith("/chat/completions"));
/** Every header value a request carried, as one text: the key must not be anywhere in it. */
const headerText = (headers: IncomingHttpHeaders) => JSON.stringify(headers);

/** A folder whose subagent `helper` names `provider` at `baseUrl`. */
const folder = (provider: string, baseUrl: string) => ({
  "AGENTS.md": "Delegate.",
  "agents/helper.md": [
    "---",
    "name: helper",
    "description: Helps.",
    "model:",
    `  provider: ${provider}`,
    "  model: sub-m",
    `  base_url: ${baseUrl}`,
    "---",
    "You help.",
  ].join("\n"),
});

/** The person's thread `t` on server A with their key for it, running the folder; A asks `helper` once, then answers. */
async function personOnA(provider: ModelChoice["provider"], files: Record<string, string>) {
  const a = await serve("openai", [
    { when: { lastUserIncludes: "Go" }, toolCalls: [{ name: "task", args: { description: "Look around.", subagent_type: "helper" } }] },
    { text: "Done." },
  ]);
  const { api } = openWorkerApi();
  const choice: ModelChoice = { provider, model: "main-m", baseUrl: a.baseUrl(), contextWindow: 200_000 };
  await api.updateSettings({ defaultModel: choice });
  await api.setKey(provider, KEY, false, a.baseUrl());
  const agentId = await storeFolderAgent(api, files);
  const set = await api.setThreadAgent("t", agentId);
  if (!set.ok) throw new Error(set.error.message);
  await api.setThreadModel("t", choice);
  return { api, a };
}

describe("a key goes only to the origin it was entered for", () => {
  it("a subagent naming another OpenAI-compatible host is called without the person's key; their own server gets it", async () => {
    const b = await serve("openai", [{ text: "Sub report." }]);
    const { api, a } = await personOnA("openai-compatible", folder("openai-compatible", b.baseUrl()));
    const run = await collectRun((cb) => api.startRun("t", { text: "Go" }, cb));
    expect(await run.done).toMatchObject({ type: "done", status: "complete" });

    const onB = chatsOf(b.requestsOf());
    expect(onB.length).toBeGreaterThanOrEqual(1);
    expect(onB.map((r) => headerText(r.headers)).join("\n")).not.toContain(KEY);
    const onA = chatsOf(a.requestsOf());
    expect(onA.length).toBeGreaterThanOrEqual(2);
    expect(onA.every((r) => r.headers.authorization === `Bearer ${KEY}`)).toBe(true);
  });

  it("a subagent naming OpenAI at another host gets no key and runs on the main model, saying why", async () => {
    const b = await serve("openai", [{ text: "Sub report." }]);
    const { api, a } = await personOnA("openai", folder("openai", b.baseUrl()));
    const run = await collectRun((cb) => api.startRun("t", { text: "Go" }, cb));
    expect(await run.done).toMatchObject({ type: "done", status: "complete" });

    expect(b.requestsOf()).toEqual([]);
    const onA = chatsOf(a.requestsOf());
    // The parent, the subagent on the main model, the parent again.
    expect(onA.length).toBeGreaterThanOrEqual(3);
    expect(onA.every((r) => r.headers.authorization === `Bearer ${KEY}`)).toBe(true);
    const tools = (onA[0]!.body as { tools: Array<{ function: { name: string; description: string } }> }).tools;
    const task = tools.find((t) => t.function.name === "task")!.function.description;
    const [onlyTo, calls] = [new URL(a.baseUrl()).origin, new URL(b.baseUrl()).origin];
    const why = `it calls ${calls}, and your OpenAI key is not sent there (it is sent only to ${onlyTo})`;
    expect(task).toContain(`- helper: Helps. (It runs on the main agent's model here: ${why}.)`);
  });

  it("a key entered for one base URL is not sent to another the thread is later pointed at", async () => {
    const a = await serve("openai", []);
    const b = await serve("openai", [{ text: "Hi." }]);
    const { api } = openWorkerApi();
    await api.setKey("openai-compatible", KEY, false, a.baseUrl());
    await api.setThreadModel("t", { provider: "openai-compatible", model: "m", baseUrl: b.baseUrl(), contextWindow: 200_000 });
    const run = await collectRun((cb) => api.startRun("t", { text: "Hello" }, cb));
    expect(await run.done).toMatchObject({ type: "done", status: "complete" });
    await api.listProviderModels({ provider: "openai-compatible", model: "", baseUrl: b.baseUrl() });
    expect(b.requestsOf().length).toBeGreaterThanOrEqual(2);
    expect(
      b
        .requestsOf()
        .map((r) => headerText(r.headers))
        .join("\n"),
    ).not.toContain(KEY);
    expect((await api.keyStatus()).find((s) => s.provider === "openai-compatible")).toMatchObject({
      set: true,
      origin: new URL(a.baseUrl()).origin,
    });
  });
});

describe("a thread whose model is at another base URL than its key", () => {
  it("asks for the key again and sends nothing, where the provider requires a key", async () => {
    const b = await serve("openai", [{ text: "Hi." }]);
    const { api } = openWorkerApi();
    await api.setKey("openai", KEY, false);
    await api.setThreadModel("t", { provider: "openai", model: "gpt-4.1", baseUrl: b.baseUrl(), contextWindow: 200_000 });
    const refused = await api.startRun("t", { text: "Hello" }, () => undefined);
    expect(refused).toMatchObject({ ok: false, error: { code: "key_missing" } });
    expect(!refused.ok && refused.error.message).toContain("was entered for https://api.openai.com");
    expect(b.requestsOf()).toEqual([]);
  });
});

describe("a key remembered before keys were bound", () => {
  it("is bound on load to the endpoint the stored Settings give, and stored so", async () => {
    const db = `t-${crypto.randomUUID()}`;
    const { store } = createLayout(db);
    await store.put(["settings"], "app", { defaultModel: { provider: "openai-compatible", model: "m", baseUrl: "http://127.0.0.1:9/v1" } });
    await store.put(["keys"], "openai-compatible", { key: KEY });
    await store.put(["keys"], "openai", { key: "sk-old-openai" });
    const { api } = openWorkerApi(db);
    const status = await api.keyStatus();
    expect(status.find((s) => s.provider === "openai-compatible")).toMatchObject({
      set: true,
      remembered: true,
      origin: "http://127.0.0.1:9",
    });
    expect(status.find((s) => s.provider === "openai")).toMatchObject({ set: true, origin: "https://api.openai.com" });
    expect((await store.get(["keys"], "openai-compatible"))?.value).toEqual({ key: KEY, origin: "http://127.0.0.1:9" });
  });
});

describe("the review of an agent whose subagents name hosts", () => {
  it("names each subagent host the person's key is not sent to, and not the one it was entered for", async () => {
    const { api } = openWorkerApi();
    const mine = "http://127.0.0.1:9/v1";
    await api.setKey("openai-compatible", KEY, false, mine);
    const other = (name: string, baseUrl: string) =>
      ["---", `name: ${name}`, "description: Helps.", "model:", "  provider: openai-compatible", "  model: m", `  base_url: ${baseUrl}`]
        .concat(["---", "You help."])
        .join("\n");
    const preview = await api.previewAgentUpload({
      files: Object.entries({
        "AGENTS.md": "Delegate.",
        "agents/away.md": other("away", "https://author.example/v1"),
        "agents/home.md": other("home", `${mine}/other-path`),
      }).map(([path, text]) => ({ path, content: new TextEncoder().encode(text) })),
    });
    if (!preview.ok) throw new Error(preview.error.message);
    const subs = Object.fromEntries(preview.value.subagents.map((s) => [s.name, s.keyNotSent]));
    expect(subs).toEqual({ away: "https://author.example", home: undefined });
  });
});
