/**
 * Editing an agent in the app (worker API, Node, fake-indexeddb): the folder for the editor, a save validated whole
 * before anything is stored, a new local version that remembers the one it came from, the general agent and a stored
 * agent edited alike, threads keeping the version they ran with, adding and removing files, and Share exporting the
 * edit.
 */
import "fake-indexeddb/auto";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadAgent } from "../../agent-folders/load.ts";
import { EXAMPLE_AGENTS, folderFiles } from "../../testing/agent-folders.ts";
import { openWorkerApi } from "../../testing/worker-api.ts";
import { applyAgentChanges, editedName, editorFiles } from "./agent-edit.ts";
import type { AgentUpload } from "../../protocol/agents.ts";

const example = (name: string) => folderFiles(join(EXAMPLE_AGENTS, name));
const asUpload = (files: Map<string, Uint8Array>): AgentUpload => ({ files: [...files].map(([path, content]) => ({ path, content })) });
const text = (s: string) => new TextEncoder().encode(s);

async function stored(api: ReturnType<typeof openWorkerApi>["api"], name: string) {
  const preview = await api.previewAgentUpload(asUpload(example(name)));
  if (!preview.ok) throw new Error(preview.error.message);
  const used = await api.useAgent(preview.value.summary.hash!);
  if (!used.ok) throw new Error(used.error.message);
  return used.value;
}

describe("agent edits, the pure part", () => {
  it("lists text files as text and binary ones by size", () => {
    const files = new Map([
      ["AGENTS.md", text("Hi")],
      ["files/logo.png", new Uint8Array([0x89, 0xff, 0xfe])],
    ]);
    expect(editorFiles(files)).toEqual([
      { path: "AGENTS.md", size: 2, text: "Hi" },
      { path: "files/logo.png", size: 3 },
    ]);
  });

  it("applies changes to a copy, later ones winning, and names a removed file the folder lacks", () => {
    const files = new Map([["AGENTS.md", text("old")]]);
    const changed = applyAgentChanges(files, [
      { path: "AGENTS.md", text: "new" },
      { path: "agents/critic.md", text: "x" },
      { path: "agents/critic.md", remove: true },
    ]);
    expect(changed.ok && changed.value.map(([p, b]) => [p, new TextDecoder().decode(b)])).toEqual([["AGENTS.md", "new"]]);
    expect(new TextDecoder().decode(files.get("AGENTS.md"))).toBe("old");
    expect(applyAgentChanges(files, [{ path: "nope.md", remove: true }])).toEqual({
      ok: false,
      error: "The agent has no file nope.md to remove.",
    });
  });

  it("shows '(edited)' while the name is the one the agent had", () => {
    expect(editedName("Research", { name: "Research" })).toBe("Research (edited)");
    expect(editedName("Mine", { name: "Research" })).toBe("Mine");
    expect(editedName("Research", undefined)).toBe("Research");
  });
});

describe("agent edits (worker API, Node)", () => {
  it("saves an edit of a stored agent as a new local version; threads keep the one they ran with", async () => {
    const { api, db } = openWorkerApi();
    const research = await stored(api, "research");
    expect(await api.setThreadAgent("old", research.id)).toEqual({ ok: true, value: null });
    const folder = await api.agentFolder(research.id);
    if (!folder.ok) throw new Error(folder.error.message);
    expect(folder.value.files.map((f) => f.path)).toEqual(expect.arrayContaining(["AGENTS.md", "agent.yaml", "agents/critic.md"]));

    const saved = await api.saveAgentEdit(research.id, [
      { path: "AGENTS.md", text: "You are a pirate researcher.\n" },
      { path: "skills/cite/SKILL.md", text: "---\nname: cite\ndescription: How to cite sources.\n---\nCite everything.\n" },
      { path: "agents/critic.md", remove: true },
    ]);
    if (!saved.ok) throw new Error(saved.error.message);
    expect(saved.value).toMatchObject({ origin: "local", name: "Research assistant (edited)", editedFrom: research.id });
    expect(saved.value.hash).not.toBe(research.hash);
    const review = await api.reviewAgent(saved.value.id);
    expect(review).toMatchObject({ ok: true, value: { instructions: "You are a pirate researcher.", subagents: [] } });
    expect(review.ok && review.value.skills.map((s) => s.name).sort()).toEqual(["cite", "report"]);

    // The thread that used the old version keeps it (its hash did not change); the list shows the new one only.
    expect((await api.getThread("old")).agent).toEqual({ id: research.id, name: "Research assistant", hash: research.hash });
    expect((await api.listAgents()).map((a) => a.name)).toEqual(["deeptab", "Research assistant (edited)"]);
    expect(await api.reviewAgent(research.id)).toMatchObject({ ok: true, value: { subagents: [{ name: "critic" }] } });

    // A reload lists the same; Share exports the edited files.
    const again = openWorkerApi(db).api;
    expect((await again.listAgents()).map((a) => a.id)).toEqual(["general", saved.value.id]);
    const shared = await again.exportAgent(saved.value.id);
    if (!shared.ok) throw new Error(shared.error.message);
    const loaded = loadAgent({ bundle: shared.value.bundle });
    expect(loaded.ok && loaded.value.instructions).toBe("You are a pirate researcher.");
  });

  it("keeps one version listed however the saves and threads interleave", async () => {
    const { api } = openWorkerApi();
    const base = await stored(api, "research");
    expect(await api.setThreadAgent("t", base.id)).toEqual({ ok: true, value: null });
    const v1 = await api.saveAgentEdit(base.id, [{ path: "AGENTS.md", text: "One.\n" }]);
    if (!v1.ok) throw new Error(v1.error.message);
    expect(await api.setThreadAgent("t", v1.value.id)).toEqual({ ok: true, value: null });
    // v2 is saved and edited again before any thread takes it: v3 replaces it, and v1 (which "t" holds) stays hidden.
    const v2 = await api.saveAgentEdit(v1.value.id, [{ path: "AGENTS.md", text: "Two.\n" }]);
    if (!v2.ok) throw new Error(v2.error.message);
    const v3 = await api.saveAgentEdit(v2.value.id, [{ path: "AGENTS.md", text: "Three.\n" }]);
    if (!v3.ok) throw new Error(v3.error.message);
    expect(v3.value.editedFrom).toBe(v1.value.id);
    expect((await api.listAgents()).map((a) => a.id)).toEqual(["general", v3.value.id]);
    expect(await api.reviewAgent(v2.value.id)).toMatchObject({ ok: false, error: { code: "not_found" } });
    expect((await api.getThread("t")).agent).toEqual({ id: v1.value.id, name: "Research assistant (edited)", hash: v1.value.hash });
  });

  it("replaces a local version no thread uses, in the same save", async () => {
    const { api } = openWorkerApi();
    const data = await stored(api, "data");
    const first = await api.saveAgentEdit(data.id, [{ path: "AGENTS.md", text: "First edit.\n" }]);
    if (!first.ok) throw new Error(first.error.message);
    expect(await api.reviewAgent(data.id)).toMatchObject({ ok: false, error: { code: "not_found" } });
    const second = await api.saveAgentEdit(first.value.id, [{ path: "AGENTS.md", text: "Second edit.\n" }]);
    if (!second.ok) throw new Error(second.error.message);
    // The first edit was replaced too: the second remembers the version the first came from.
    expect(second.value).toMatchObject({ name: "Data cleaner (edited)", editedFrom: data.id });
    expect((await api.listAgents()).map((a) => a.id)).toEqual(["general", second.value.id]);
  });

  it("refuses an invalid folder whole, with the loader's problems, and stores nothing", async () => {
    const { api } = openWorkerApi();
    const research = await stored(api, "research");
    const bad = await api.saveAgentEdit(research.id, [
      { path: "AGENTS.md", text: "Changed.\n" },
      { path: "agent.yaml", text: "name: Research\ntools: [read_file, teleport]\n" },
      { path: "agents/helper.md", text: "---\nname: helper\n---\nNo description.\n" },
    ]);
    expect(bad).toMatchObject({ ok: false, error: { code: "invalid_agent" } });
    const problems = bad.ok ? [] : bad.error.problems!;
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ code: "unknown_tool", file: "agent.yaml", field: "tools.1" }),
        expect.objectContaining({ file: "agents/helper.md", field: "description" }),
      ]),
    );
    expect((await api.listAgents()).map((a) => a.id)).toEqual(["general", research.id]);
    expect(await api.saveAgentEdit(research.id, [{ path: "../evil.md", text: "x" }])).toMatchObject({
      ok: false,
      error: { code: "invalid_agent", problems: [expect.objectContaining({ code: "unsafe_path" })] },
    });
    expect(await api.saveAgentEdit(research.id, [{ path: "nope.md", remove: true }])).toMatchObject({
      ok: false,
      error: { code: "not_found" },
    });
    const folder = await api.agentFolder(research.id);
    const agents = folder.ok ? folder.value.files.find((f) => f.path === "AGENTS.md")!.text! : "";
    expect(await api.saveAgentEdit(research.id, [{ path: "AGENTS.md", text: agents }])).toMatchObject({
      ok: false,
      error: { code: "unchanged" },
    });
  });

  it("edits the general agent into a local agent, its name marked edited, and runs threads with it", async () => {
    const { api } = openWorkerApi();
    const folder = await api.agentFolder("general");
    if (!folder.ok) throw new Error(folder.error.message);
    expect(folder.value.files.map((f) => f.path)).toEqual(["AGENTS.md", "agent.yaml"]);
    const saved = await api.saveAgentEdit("general", [{ path: "AGENTS.md", text: "Only answer in haiku.\n" }]);
    if (!saved.ok) throw new Error(saved.error.message);
    expect(saved.value).toMatchObject({ origin: "local", name: "deeptab (edited)", editedFrom: "general" });
    expect((await api.listAgents()).map((a) => a.name)).toEqual(["deeptab", "deeptab (edited)"]);
    expect(await api.setThreadAgent("t", saved.value.id)).toEqual({ ok: true, value: null });
    expect((await api.getThread("t")).agent).toMatchObject({ id: saved.value.id, name: "deeptab (edited)" });
  });
});
