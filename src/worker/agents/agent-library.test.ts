/**
 * The agent calls of the worker API in Node (fake-indexeddb; no site: Node serves none): uploads as files, a zip or a
 * bundle, pinned by one hash; nothing stored before `useAgent`; stored agents newest first, kept by IndexedDB or, with
 * no storage, for the session; removal refused while a thread uses it; exports (the general agent as a folder); a
 * thread's agent fixed by its first message; and runs of the example agents against a loopback provider with the
 * agent's sandbox, tools and approval rules.
 */
import "fake-indexeddb/auto";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseAgentBundle } from "../../agent-folders/bundle.ts";
import { hashAgentFiles } from "../../agent-folders/hash.ts";
import { loadAgent } from "../../agent-folders/load.ts";
import { zipAgent } from "../../agent-folders/zip.ts";
import { EXAMPLE_AGENTS, folderFiles } from "../../testing/agent-folders.ts";
import { serveScripted } from "../../testing/scripted-servers.ts";
import { collectRun, openWorkerApi } from "../../testing/worker-api.ts";
import { createAgentLibrary } from "./agent-library.ts";
import { memoryAgents } from "./agent-store.ts";
import type { AgentUpload } from "../../protocol/agents.ts";

const serve = serveScripted();
const example = (name: string) => folderFiles(join(EXAMPLE_AGENTS, name));
const asUpload = (files: Map<string, Uint8Array>): AgentUpload => ({ files: [...files].map(([path, content]) => ({ path, content })) });
const bundleOf = async (files: Map<string, Uint8Array>) => {
  const { agentBundle } = await import("../../agent-folders/bundle.ts");
  return new TextEncoder().encode(agentBundle(files, "x"));
};

describe("the agent library (worker API, Node)", () => {
  it("previews a folder, its zip and its bundle as one hash, stores only on use, and lists stored agents newest first", async () => {
    const { api, db } = openWorkerApi();
    const files = example("research");
    const loaded = loadAgent({ files });
    if (!loaded.ok) throw new Error(loaded.error.message);
    const want = await hashAgentFiles(loaded.value.files);
    const previews = await Promise.all([
      api.previewAgentUpload(asUpload(files)),
      api.previewAgentUpload({ zip: zipAgent(files, "research") }),
      api.previewAgentUpload({ bundle: await bundleOf(files) }),
    ]);
    expect(previews.map((p) => p.ok && p.value.summary.hash)).toEqual([want, want, want]);
    expect((await api.listAgents()).map((a) => a.id)).toEqual(["general"]);

    const research = await api.useAgent(want);
    expect(research).toMatchObject({ ok: true, value: { id: `agent:${want}`, origin: "local", name: "Research assistant" } });
    const data = await api.previewAgentUpload(asUpload(example("data")));
    if (!data.ok) throw new Error(data.error.message);
    await new Promise((r) => setTimeout(r, 5));
    await api.useAgent(data.value.summary.hash!);
    const listed = (await api.listAgents()).map((a) => a.name);
    expect(listed).toEqual(["deeptab", "Data cleaner", "Research assistant"]);
    // A new worker over the same database (a reload) lists them; a preview of a stored agent says so.
    const again = openWorkerApi(db).api;
    expect((await again.listAgents()).map((a) => a.name)).toEqual(listed);
    expect(await again.previewAgentUpload(asUpload(files))).toMatchObject({ ok: true, value: { stored: true } });
    expect(await again.reviewAgent(`agent:${want}`)).toMatchObject({ ok: true, value: { stored: true, skills: [{ name: "report" }] } });
  });

  it("its review marks a pinned skill (agent.yaml pinned_skills): in every request, not read when needed", async () => {
    const { api } = openWorkerApi();
    const skill = (name: string) => `---\nname: ${name}\ndescription: The ${name} skill.\n---\n\nDo ${name}.\n`;
    const files = new Map(
      Object.entries({
        "agent.yaml": "name: Pinner\npinned_skills: [report]\n",
        "AGENTS.md": "Lead.",
        "skills/report/SKILL.md": skill("report"),
        "skills/notes/SKILL.md": skill("notes"),
      }).map(([path, text]) => [path, new TextEncoder().encode(text)]),
    );
    const preview = await api.previewAgentUpload(asUpload(files));
    if (!preview.ok) throw new Error(preview.error.message);
    const skills = Object.fromEntries(preview.value.skills.map((s) => [s.name, s.pinned ?? false]));
    expect(skills).toEqual({ report: true, notes: false });
  });

  it("shows every host an agent names, and refuses one that carries a key", async () => {
    const { api } = openWorkerApi();
    const text = (files: Record<string, string>) =>
      asUpload(new Map(Object.entries(files).map(([p, t]) => [p, new TextEncoder().encode(t)])));
    const helper =
      "---\nname: helper\ndescription: Helps.\nmodel:\n  provider: openai-compatible\n  base_url: https://llm.example.org/v1\n---\nHelp.";
    const review = await api.previewAgentUpload(text({ "AGENTS.md": "Hi.", "agents/helper.md": helper }));
    expect(review.ok && review.value.hosts).toEqual([{ origin: "https://llm.example.org", by: ["agents/helper.md model"] }]);
    const keyed = await api.previewAgentUpload(
      text({ "AGENTS.md": "Hi.", "agent.yaml": "model:\n  api_key: sk-abcdefghijklmnopqrstuvwxyz123456\n" }),
    );
    expect(keyed).toMatchObject({ ok: false, error: { code: "invalid_agent" } });
    expect(!keyed.ok && keyed.error.problems?.map((p) => p.code)).toContain("secret");
    expect((await api.listAgents()).map((a) => a.id)).toEqual(["general"]);
  });

  it("stores nothing when the store refuses, and says so", async () => {
    const store = memoryAgents();
    const library = createAgentLibrary({
      store: { ...store, put: () => Promise.reject(new DOMException("Quota exceeded", "QuotaExceededError")) },
      site: { index: async () => ({ format: "deeptab-site-agents", version: 1, agents: [] }), agent: async () => ({ ok: false }) as never },
      fetch: () => Promise.reject(new TypeError("no network")),
      origin: "http://page.test",
      threadsUsing: async () => [],
      generalInstructions: async () => "You are deeptab.",
    });
    const preview = await library.previewAgentUpload(asUpload(example("data")));
    if (!preview.ok) throw new Error(preview.error.message);
    expect(await library.useAgent(preview.value.summary.hash!)).toMatchObject({ ok: false, error: { code: "storage_failed" } });
    expect(await store.list()).toEqual([]);
  });

  it("removes a stored agent no thread uses; never a built-in one", async () => {
    const { api } = openWorkerApi();
    const preview = await api.previewAgentUpload(asUpload(example("data")));
    if (!preview.ok) throw new Error(preview.error.message);
    const used = await api.useAgent(preview.value.summary.hash!);
    if (!used.ok) throw new Error(used.error.message);
    expect(await api.setThreadAgent("t1", used.value.id)).toEqual({ ok: true, value: null });
    expect(await api.removeAgent(used.value.id)).toMatchObject({
      ok: false,
      error: { code: "in_use", message: "1 thread uses this agent; delete it first." },
    });
    expect(await api.removeAgent("general")).toMatchObject({ ok: false, error: { code: "not_found" } });
    expect(await api.removeAgent("site:data")).toMatchObject({ ok: false, error: { code: "not_found" } });
    await api.deleteThread("t1");
    expect(await api.removeAgent(used.value.id)).toEqual({ ok: true, value: null });
    expect((await api.listAgents()).map((a) => a.id)).toEqual(["general"]);
    expect(await api.removeAgent(used.value.id)).toMatchObject({ ok: false, error: { code: "not_found" } });
  });

  it("exports the general agent as a folder with deeptab's prompt, and a stored agent as the same files", async () => {
    const { api } = openWorkerApi();
    const general = await api.exportAgent("general");
    if (!general.ok) throw new Error(general.error.message);
    const folder = loadAgent({ zip: general.value.zip });
    expect(folder.ok && folder.value.instructions).toContain("You are deeptab");
    expect(folder.ok && folder.value.manifest.name).toBe("deeptab");
    expect(general.value.slug).toBe("deeptab");

    const files = example("research");
    const preview = await api.previewAgentUpload(asUpload(files));
    if (!preview.ok) throw new Error(preview.error.message);
    const used = await api.useAgent(preview.value.summary.hash!);
    if (!used.ok) throw new Error(used.error.message);
    const shared = await api.exportAgent(used.value.id);
    if (!shared.ok) throw new Error(shared.error.message);
    expect(shared.value.slug).toBe("research-assistant");
    const fromZip = loadAgent({ zip: shared.value.zip });
    const fromBundle = parseAgentBundle(shared.value.bundle);
    expect(fromZip.ok && (await hashAgentFiles(fromZip.value.files))).toBe(used.value.hash);
    expect(fromBundle.ok && (await hashAgentFiles(fromBundle.value))).toBe(used.value.hash);
    expect(await api.exportAgent("agent:nope")).toMatchObject({ ok: false, error: { code: "not_found" } });
  });

  it("fixes a thread's agent with its first message, and shows it on the thread", async () => {
    const { api } = openWorkerApi();
    expect(await api.setThreadAgent("t", "agent:nope")).toMatchObject({ ok: false, error: { code: "not_found" } });
    expect((await api.getThread("t")).agent).toEqual({ id: "general", name: "deeptab" });
    const run = await collectRun((cb) => api.startRun("t", { text: "hello" }, cb));
    await run.done;
    expect(await api.setThreadAgent("t", "general")).toMatchObject({ ok: false, error: { code: "thread_started" } });
  });
});

describe("a thread's agent", () => {
  it("switching agents before the first message removes the previous agent's seed files, except the ones edited", async () => {
    const { api } = openWorkerApi();
    const ids: string[] = [];
    for (const name of ["data", "research"]) {
      const preview = await api.previewAgentUpload(asUpload(example(name)));
      if (!preview.ok) throw new Error(preview.error.message);
      const used = await api.useAgent(preview.value.summary.hash!);
      if (!used.ok) throw new Error(used.error.message);
      ids.push(used.value.id);
    }
    expect(await api.setThreadAgent("t", ids[0]!)).toEqual({ ok: true, value: null });
    const seeded = (await api.listFiles("t")).map((f) => f.path);
    expect(seeded).toEqual(expect.arrayContaining(["/data/sales.csv", "/agent-skills/csv-cleaning/SKILL.md"]));
    // Skills are the thread's own: the shared /skills/ route holds none of them.
    expect(seeded.some((p) => p.startsWith("/skills/"))).toBe(false);
    await api.writeFile("t", "/agent-skills/csv-cleaning/SKILL.md", "my own edit");
    expect(await api.setThreadAgent("t", ids[1]!)).toEqual({ ok: true, value: null });
    const after = (await api.listFiles("t")).map((f) => f.path);
    expect(after).not.toContain("/data/sales.csv");
    expect(after).toContain("/agent-skills/csv-cleaning/SKILL.md");
    expect(after).toEqual(expect.arrayContaining(["/notes/README.md", "/agent-skills/report/SKILL.md"]));
    expect(await api.setThreadAgent("t", "general")).toEqual({ ok: true, value: null });
    expect((await api.getThread("t")).agent).toEqual({ id: "general", name: "deeptab" });
    expect((await api.listFiles("t")).map((f) => f.path)).toEqual(["/agent-skills/csv-cleaning/SKILL.md"]);
  });

  it("a file the person has at a starter file's path is never replaced: the agent is refused naming it, nothing written", async () => {
    const { api } = openWorkerApi();
    const preview = await api.previewAgentUpload(asUpload(example("data")));
    if (!preview.ok) throw new Error(preview.error.message);
    const used = await api.useAgent(preview.value.summary.hash!);
    if (!used.ok) throw new Error(used.error.message);
    await api.writeFile("t", "/data/sales.csv", "my own sales");
    const chosen = await api.setThreadAgent("t", used.value.id);
    expect(chosen).toMatchObject({ ok: false, error: { code: "file_exists" } });
    expect(!chosen.ok && chosen.error.message).toContain("This thread already has /data/sales.csv");
    expect((await api.listFiles("t")).map((f) => f.path)).toEqual(["/data/sales.csv"]);
    expect((await api.getThread("t")).agent).toEqual({ id: "general", name: "deeptab" });
  });

  it("says when the agent a thread ran with is gone or no longer has its hash", async () => {
    const { threadAgentView } = await import("../threads/thread-agents.ts");
    const info = { id: "site:x", name: "X", hash: "a".repeat(64) };
    const threads = { agentOf: async () => info, setAgent: async () => undefined, threadsUsing: async () => [] };
    const summary = (hash: string) => ({ id: "site:x", origin: "site" as const, name: "X", description: "", suggestions: [], hash });
    const same = { resolve: async () => ({ ok: true as const, value: { summary: summary(info.hash) } }) };
    const edited = { resolve: async () => ({ ok: true as const, value: { summary: summary("b".repeat(64)) } }) };
    const gone = {
      resolve: async () => ({ ok: false as const, error: { name: "AgentError", code: "not_found" as const, message: "gone" } }),
    };
    expect(await threadAgentView("t", { threads, library: same })).toEqual(info);
    expect(await threadAgentView("t", { threads, library: edited })).toEqual({ ...info, changed: true });
    expect(await threadAgentView("t", { threads, library: gone })).toEqual({ ...info, changed: true });
  });

  it("forgets stored agents and link pins with everything else", async () => {
    const { api } = openWorkerApi();
    const preview = await api.previewAgentUpload(asUpload(example("data")));
    if (!preview.ok) throw new Error(preview.error.message);
    await api.useAgent(preview.value.summary.hash!);
    await api.forgetEverything();
    expect((await api.listAgents()).map((a) => a.id)).toEqual(["general"]);
  });
});

describe("runs of agent folders (Node, loopback provider)", () => {
  async function runOf(name: string, settings: Parameters<ReturnType<typeof openWorkerApi>["api"]["updateSettings"]>[0] = {}) {
    const server = await serve("openai", []);
    server.script([{ text: "Hello." }]);
    const { api } = openWorkerApi();
    await api.updateSettings(settings);
    const preview = await api.previewAgentUpload(asUpload(example(name)));
    if (!preview.ok) throw new Error(preview.error.message);
    const used = await api.useAgent(preview.value.summary.hash!);
    if (!used.ok) throw new Error(used.error.message);
    expect(await api.setThreadAgent("t", used.value.id)).toEqual({ ok: true, value: null });
    await api.setThreadModel("t", { provider: "openai-compatible", model: "m", baseUrl: server.baseUrl(), contextWindow: 200_000 });
    const run = await collectRun((cb) => api.startRun("t", { text: "Go" }, cb));
    expect(await run.done).toMatchObject({ type: "done", status: "complete" });
    const body = server.requestsOf().find((r) => r.path.endsWith("/chat/completions"))!.body as {
      messages: Array<{ role: string; content: unknown }>;
      tools: Array<{ function: { name: string } }>;
    };
    return { tools: body.tools.map((t) => t.function.name), system: JSON.stringify(body.messages[0]?.content) };
  }

  it("runs the research agent with no sandbox and without execute (Python as a tool), whatever the setting", async () => {
    const { tools, system } = await runOf("research", { sandbox: "shell" });
    expect(tools).not.toContain("execute");
    expect(tools).toContain("task");
    // No shell: Python is the python tool's (tools/python.ts).
    expect(tools).toContain("python");
    expect(system).toContain("You cannot run shell commands; the `python` tool runs Python 3");
    expect(system).toContain("/memories/AGENTS.md");
  });

  it("runs the data agent in the shell its manifest names, even with the setting's sandbox off", async () => {
    const { tools, system } = await runOf("data", { sandbox: "none" });
    expect(tools).toContain("execute");
    expect(system).toContain("offline bash interpreter");
  });
});
