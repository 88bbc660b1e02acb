/**
 * A thread's export carries its agent (Node, fake-indexeddb): the agent's folder as a bundle with the hash the thread
 * ran with; an import validates it with the agent loader before anything is written (a bad agent, or files that do not
 * have the hash named, refuse the whole import and nothing is stored); a browser that already has the agent links the
 * thread to it; one that does not stores it unreviewed, unlisted, and the thread does not run until the person has
 * reviewed it and chosen Use this agent.
 */
import "fake-indexeddb/auto";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseAgentBundle, agentBundle } from "../../agent-folders/bundle.ts";
import { EXAMPLE_AGENTS, folderFiles } from "../../testing/agent-folders.ts";
import { collectRun, openWorkerApi } from "../../testing/worker-api.ts";
import type { AgentUpload } from "../../protocol/agents.ts";
import type { AgentWorkerApi } from "../../protocol/worker-api.ts";
import type { ThreadExport } from "../../protocol/threads.ts";

const asUpload = (files: Map<string, Uint8Array>): AgentUpload => ({ files: [...files].map(([path, content]) => ({ path, content })) });

async function threadWithAgent(api: AgentWorkerApi) {
  const preview = await api.previewAgentUpload(asUpload(folderFiles(join(EXAMPLE_AGENTS, "research"))));
  if (!preview.ok) throw new Error(preview.error.message);
  const used = await api.useAgent(preview.value.summary.hash!);
  if (!used.ok) throw new Error(used.error.message);
  expect(await api.setThreadAgent("src", used.value.id)).toEqual({ ok: true, value: null });
  const run = await collectRun((cb) => api.startRun("src", { text: "hello" }, cb));
  expect(await run.done).toMatchObject({ type: "done" });
  const exported = await api.exportThread("src");
  if (!exported.ok) throw new Error(exported.error.message);
  return { agent: used.value, exported: exported.value };
}

async function nothingStored(api: AgentWorkerApi, data: unknown, problem: RegExp) {
  const before = { threads: await api.listThreads(), agents: await api.listAgents() };
  const out = await api.importThread(data);
  expect(out).toMatchObject({ ok: false, error: { code: "invalid_export" } });
  expect(out.ok ? "" : out.error.message).toMatch(problem);
  expect(await api.listThreads()).toEqual(before.threads);
  expect(await api.listAgents()).toEqual(before.agents);
}

describe("a thread's agent in its export", () => {
  it("is carried as a bundle with its hash; the general agent's thread carries none", async () => {
    const { api } = openWorkerApi();
    const { agent, exported } = await threadWithAgent(api);
    expect(exported.agent).toMatchObject({ id: agent.id, name: "Research assistant", hash: agent.hash });
    const files = parseAgentBundle(exported.agent!.bundle!);
    expect(files.ok && [...files.value.keys()]).toEqual(expect.arrayContaining(["AGENTS.md", "agents/critic.md"]));
    const run = await collectRun((cb) => api.startRun("plain", { text: "hello" }, cb));
    await run.done;
    const plain = await api.exportThread("plain");
    expect(plain.ok && plain.value.agent).toBeUndefined();
  });

  it("imports into a browser that has the agent as a thread of that agent, ready to run", async () => {
    const { api } = openWorkerApi();
    const { agent, exported } = await threadWithAgent(api);
    const id = await api.importThread(JSON.parse(JSON.stringify(exported)));
    if (!id.ok) throw new Error(id.error.message);
    expect((await api.getThread(id.value)).agent).toEqual({ id: agent.id, name: "Research assistant", hash: agent.hash });
  });

  it("stores an agent this browser lacks unreviewed: not listed, the thread does not run until it is used from its review", async () => {
    const { exported } = await threadWithAgent(openWorkerApi().api);
    const { api } = openWorkerApi();
    const id = await api.importThread(JSON.parse(JSON.stringify(exported)));
    if (!id.ok) throw new Error(id.error.message);
    const view = (await api.getThread(id.value)).agent;
    expect(view).toMatchObject({ name: "Research assistant", hash: exported.agent!.hash, unreviewed: true });
    expect((await api.listAgents()).map((a) => a.id)).toEqual(["general"]);

    const refused = await api.startRun(id.value, { text: "go on" }, () => undefined);
    expect(refused.ok).toBe(false);
    expect(refused.ok ? "" : refused.error.message).toMatch(/has not been reviewed in this browser/);

    const review = await api.reviewAgent(view.id);
    expect(review).toMatchObject({ ok: true, value: { summary: { unreviewed: true }, subagents: [{ name: "critic" }] } });
    expect(review.ok && review.value.stored).toBeUndefined();
    expect(await api.useAgent(exported.agent!.hash!)).toMatchObject({ ok: true, value: { id: view.id } });
    expect((await api.getThread(id.value)).agent).toEqual({ id: view.id, name: "Research assistant", hash: exported.agent!.hash });
    expect((await api.listAgents()).map((a) => a.id)).toEqual(["general", view.id]);
    const ran = await collectRun((cb) => api.startRun(id.value, { text: "go on" }, cb));
    expect(await ran.done).toMatchObject({ type: "done" });
  });

  it("refuses the whole import when the agent is invalid or its files do not have the hash named; nothing is stored", async () => {
    const { exported } = await threadWithAgent(openWorkerApi().api);
    const { api } = openWorkerApi();
    const files = parseAgentBundle(exported.agent!.bundle!);
    if (!files.ok) throw new Error(files.error.message);
    const bad = new Map(files.value);
    bad.set("agent.yaml", new TextEncoder().encode("name: Research\ntools: [teleport]\n"));
    const invalid: ThreadExport = { ...exported, agent: { ...exported.agent!, bundle: agentBundle(bad) } };
    await nothingStored(api, invalid, /its agent \(Research assistant\) is not valid: .*agent\.yaml.*teleport/);
    const other = new Map(files.value);
    other.set("AGENTS.md", new TextEncoder().encode("Something else.\n"));
    const swapped: ThreadExport = { ...exported, agent: { ...exported.agent!, bundle: agentBundle(other) } };
    await nothingStored(api, swapped, /do not have the hash the export names/);
    await nothingStored(api, { ...exported, agent: { ...exported.agent!, bundle: "{" } }, /is not valid: .*not JSON/);
    await nothingStored(api, { ...exported, agent: { ...exported.agent!, hash: "nope" } }, /agent\.hash: is not an agent's content hash/);
  });
});
