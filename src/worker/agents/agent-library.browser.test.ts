/**
 * Agents in the real agent worker (Chromium, real IndexedDB): the site's agents as the dev server serves them, links
 * on a loopback host with and without CORS, tampered zips refused with nothing stored, an agent used and found again
 * by the next worker (a reload), a changed agent at the same URL, and a thread of a link's agent running against the
 * loopback provider: its instructions, subagent, skill and starter file reach the model.
 */
import { zipSync } from "fflate";
import { describe, expect, inject, it } from "vitest";
import { zipAgent } from "../../agent-folders/zip.ts";
import { putAgentFile } from "../../testing/agent-link-files.ts";
import { serverScope } from "../../testing/server-scope.ts";
import { workerPool } from "../../testing/worker-pool.ts";
import type { AgentClient } from "../../page/client.ts";

const db = `deeptab-test-${crypto.randomUUID()}`;
const { spawn } = workerPool(db);
const links = inject("agentLinkServer");
const encoder = new TextEncoder();

/** A small agent folder with a marker in each part, so a test can find each in the model's request. */
function linkAgent(marker = "v1"): Map<string, Uint8Array> {
  const files: Record<string, string> = {
    "agent.yaml": "name: Link agent\ndescription: An agent from a link.\nsuggestions:\n  - Read the notes\n",
    "AGENTS.md": `You are the link agent (instructions-${marker}).`,
    "agents/critic.md": "---\nname: critic\ndescription: Checks drafts (critic-marker).\n---\nYou critique drafts.",
    "skills/summary/SKILL.md": "---\nname: summary\ndescription: Summarizes notes (skill-marker).\n---\n# Summary\nSummarize.",
    "files/notes/a.md": `Starter note (file-marker-${marker}).`,
  };
  return new Map(Object.entries(files).map(([path, text]) => [path, encoder.encode(text)]));
}

async function put(bytes: Uint8Array, options: { cors?: boolean; name?: string } = {}): Promise<string> {
  return putAgentFile(links, options.name ?? `${crypto.randomUUID()}/agent.zip`, bytes, options);
}

async function storedIds(client: AgentClient): Promise<string[]> {
  return (await client.listAgents()).filter((a) => a.origin === "link" || a.origin === "local").map((a) => a.id);
}

describe("agents in the worker", () => {
  it("lists the general agent, then the site's agents as the dev server serves them", async () => {
    const client = spawn();
    const agents = await client.listAgents();
    expect(agents.slice(0, 4).map((a) => a.id)).toEqual(["general", "site:coding", "site:data", "site:research"]);
    expect(agents.find((a) => a.id === "site:research")).toMatchObject({ origin: "site", name: "Research assistant" });
    // Three agents and no DEEPTAB_DEFAULT_AGENT: the page opens on none of them.
    expect(await client.defaultAgent()).toBeUndefined();
    const review = await client.reviewAgent("site:research");
    expect(review.ok && review.value.subagents.map((s) => s.name)).toEqual(["critic"]);
    expect(review.ok && review.value.skills.map((s) => s.name)).toEqual(["report"]);
  });

  it("previews a link with CORS (in the request log, nothing stored); without CORS the error names CORS", async () => {
    const client = spawn();
    const before = await storedIds(client);
    const url = await put(zipAgent(linkAgent(), "link-agent"));
    const review = await client.previewAgentUrl(url);
    if (!review.ok) throw new Error(review.error.message);
    expect(review.value).toMatchObject({
      summary: { origin: "link", name: "Link agent", url, suggestions: ["Read the notes"] },
      instructions: "You are the link agent (instructions-v1).",
      subagents: [{ name: "critic", file: "agents/critic.md" }],
      skills: [{ name: "summary" }],
      files: [{ path: "/notes/a.md" }],
      hosts: [],
    });
    expect(review.value.changedFrom).toBeUndefined();
    expect(review.value.stored).toBeFalsy();
    const log = await client.requestLog();
    expect(log.some((e) => url.endsWith(e.path) && url.includes(e.host) && e.status === 200)).toBe(true);
    expect(await storedIds(client)).toEqual(before);

    const blocked = await client.previewAgentUrl(await put(zipAgent(linkAgent()), { cors: false }));
    expect(blocked).toMatchObject({ ok: false, error: { code: "fetch_failed" } });
    expect(!blocked.ok && blocked.error.message).toMatch(
      /did not allow this page \(http:\/\/[^)]+\) to read it.*Access-Control-Allow-Origin/,
    );
    const missing = await client.previewAgentUrl(`${links}/status/404`);
    expect(!missing.ok && missing.error.message).toContain("HTTP 404");
  });

  it("refuses tampered zips (a ../ path, 10,000 files, invalid YAML) with nothing stored", async () => {
    const client = spawn();
    const before = await storedIds(client);
    const traversal = new Map([...linkAgent(), ["../evil.md", encoder.encode("x")]]);
    const many = new Map([...linkAgent(), ...Array.from({ length: 10_000 }, (_, i) => [`files/f${i}.txt`, encoder.encode("x")] as const)]);
    const yaml = new Map([...linkAgent(), ["agent.yaml", encoder.encode("name: [unclosed\n")]]);
    const expected: Array<[Map<string, Uint8Array>, string]> = [
      [traversal, "unsafe_path"],
      [many, "too_large"],
      [yaml, "invalid_yaml"],
    ];
    for (const [files, code] of expected) {
      // Stored, not deflated: a zip of 10,000 entries is made in well under a second.
      const refused = await client.previewAgentUrl(await put(zipSync(Object.fromEntries(files), { level: 0 })));
      expect(refused).toMatchObject({ ok: false, error: { code: "invalid_agent" } });
      expect(!refused.ok && refused.error.problems?.map((p) => p.code)).toContain(code);
    }
    expect(await storedIds(client)).toEqual(before);
  }, 120_000);

  it("uses a previewed agent, which the next worker (a reload) still lists; a changed agent at the URL says so", async () => {
    const first = spawn();
    const name = `${crypto.randomUUID()}/agent.zip`;
    const url = await put(zipAgent(linkAgent("v1")), { name });
    const review = await first.previewAgentUrl(url);
    if (!review.ok) throw new Error(review.error.message);
    const hash = review.value.summary.hash!;
    expect(await first.useAgent("0".repeat(64))).toMatchObject({ ok: false, error: { code: "not_found" } });
    const used = await first.useAgent(hash);
    expect(used).toMatchObject({ ok: true, value: { id: `agent:${hash}`, origin: "link", url, hash } });
    first.close();

    const second = spawn();
    expect(await storedIds(second)).toContain(`agent:${hash}`);
    expect((await second.previewAgentUrl(url)).ok && (await second.previewAgentUrl(url))).toMatchObject({ value: { stored: true } });
    await put(zipAgent(linkAgent("v2")), { name });
    const changed = await second.previewAgentUrl(url);
    if (!changed.ok) throw new Error(changed.error.message);
    expect(changed.value.changedFrom).toBe(hash);
    expect(changed.value.summary.hash).not.toBe(hash);
    expect(changed.value.stored).toBeFalsy();
  });

  it("runs a thread of a link's agent: instructions, subagent, skill and starter file reach the model", async () => {
    const client = spawn();
    const review = await client.previewAgentUrl(await put(zipAgent(linkAgent("run"))));
    if (!review.ok) throw new Error(review.error.message);
    const used = await client.useAgent(review.value.summary.hash!);
    if (!used.ok) throw new Error(used.error.message);
    const threadId = `t-${crypto.randomUUID()}`;

    // Another agent first, then this one: the first one's unchanged starter files go.
    expect(await client.setThreadAgent(threadId, "site:data")).toEqual({ ok: true, value: null });
    expect((await client.listFiles(threadId)).map((f) => f.path)).toContain("/data/sales.csv");
    expect(await client.setThreadAgent(threadId, used.value.id)).toEqual({ ok: true, value: null });
    const paths = (await client.listFiles(threadId)).map((f) => f.path);
    expect(paths).toContain("/notes/a.md");
    expect(paths).toContain("/agent-skills/summary/SKILL.md");
    expect(paths).not.toContain("/data/sales.csv");
    expect((await client.getThread(threadId)).agent).toEqual({ id: used.value.id, name: "Link agent", hash: used.value.hash });
    expect((await client.listThreads()).find((t) => t.id === threadId)?.agent).toEqual({
      id: used.value.id,
      name: "Link agent",
      hash: used.value.hash,
    });
    expect(await client.removeAgent(used.value.id)).toMatchObject({ ok: false, error: { code: "in_use" } });

    const server = serverScope(inject("providerServer"));
    await server.script([{ toolCalls: [{ name: "read_file", args: { file_path: "/notes/a.md" } }] }, { text: "Read it." }]);
    await client.setThreadModel(threadId, { provider: "openai-compatible", model: "m", baseUrl: server.baseUrl, contextWindow: 200_000 });
    const start = await client.run(threadId, { text: "Read the notes" });
    if (!start.ok) throw new Error(start.error.message);
    expect(await start.value.done).toMatchObject({ type: "done", status: "complete" });

    const chats = (await server.requests()).filter((r) => r.path.endsWith("/chat/completions"));
    expect(chats.length).toBe(2);
    const body = chats[0]!.body as {
      messages: Array<{ role: string; content: unknown }>;
      tools: Array<{ function: { name: string; description: string } }>;
    };
    const system = JSON.stringify(body.messages.filter((m) => m.role === "system").map((m) => m.content));
    expect(system).toContain("You are deeptab");
    expect(system).toContain("instructions-run");
    expect(system).toContain("skill-marker");
    expect(system).toContain("/agent-skills/summary/SKILL.md");
    const task = body.tools.find((t) => t.function.name === "task");
    expect(task?.function.description).toContain("critic");
    expect(task?.function.description).toContain("critic-marker");
    const second = chats[1]!.body as { messages: Array<{ role: string; content: unknown }> };
    const result = second.messages.find((m) => m.role === "tool");
    expect(JSON.stringify(result?.content)).toContain("file-marker-run");

    // Its agent is fixed by the first message.
    expect(await client.setThreadAgent(threadId, "general")).toMatchObject({ ok: false, error: { code: "thread_started" } });
  });
});
