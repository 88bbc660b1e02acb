/**
 * Seeding a thread with an agent's files, run once in Node (fake-indexeddb) and once in Chromium (real IndexedDB):
 * a link agent only adds to its own threads. Over the app's real layout (the composite with the shared `/memories/`
 * and `/skills/` routes) and `threadAgentSetter`, with the library answering a definition built by hand, so the
 * seed-time guards are tested on what the loader would have refused.
 */
import { describe, expect, it } from "vitest";
import type { AgentDefinition } from "../agent-folders/definition.ts";
import { loadAgent } from "../agent-folders/load.ts";
import { IndexedDBBackend } from "../backends/indexeddb.ts";
import { createBackendRuntime, resolveBackend } from "../backends/runtime.ts";
import { isBackendError } from "../backends/protocol.ts";
import type { AgentLibrary } from "../worker/agents/agent-library.ts";
import { createLayout, SHARED_ROUTES, type Layout } from "../worker/layout.ts";
import type { ThreadInfo } from "../protocol/threads.ts";
import { threadAgentSetter } from "../worker/threads/thread-agents.ts";

const encoder = new TextEncoder();
/** The paths of a thread's own files (the workspace, without the shared routes every thread sees). */
async function ownFiles(layout: Layout, threadId: string): Promise<string[]> {
  return Object.keys(await layout.files(threadId))
    .filter((p) => !SHARED_ROUTES.some((route) => p.startsWith(route)))
    .sort();
}
const text = (bytes: Uint8Array | undefined) => (bytes ? new TextDecoder().decode(bytes) : undefined);

/** A loaded agent with a starter file and a skill. */
function agentFolder(): AgentDefinition {
  const loaded = loadAgent({
    files: {
      "AGENTS.md": "You are the seeded agent.",
      "files/data/a.csv": "a,b\n1,2\n",
      "files/notes/b.md": "notes",
      "skills/report/SKILL.md": "---\nname: report\ndescription: Writes reports.\n---\nWrite it.",
    },
  });
  if (!loaded.ok) throw new Error(loaded.error.message);
  return loaded.value;
}

/** The definition with starter files the loader would have refused (a definition that bypassed it). */
function carrying(agent: AgentDefinition, extra: Array<{ file: string; path: string; content: string }>): AgentDefinition {
  const files = new Map(agent.files);
  for (const { file, content } of extra) files.set(file, encoder.encode(content));
  return { ...agent, starterFiles: [...agent.starterFiles, ...extra.map(({ file, path }) => ({ file, path }))], files };
}

/** The setter over a real layout, with a library that resolves `agent:x` to `agent`. */
function setterFor(layout: Layout, agent: () => AgentDefinition) {
  const agents = new Map<string, ThreadInfo["agent"]>();
  const summary = { id: "agent:x", origin: "local" as const, name: "X", description: "", suggestions: [], hash: "a".repeat(64) };
  const library: Pick<AgentLibrary, "resolve"> = {
    resolve: async (id) =>
      id === "general"
        ? { ok: true, value: { summary: { ...summary, id: "general", name: "deeptab" } } }
        : { ok: true, value: { summary, agent: agent() } },
  };
  const rt = (threadId: string) => createBackendRuntime({}, { configurable: { thread_id: threadId } });
  const set = threadAgentSetter({
    library,
    threads: {
      agentOf: async (id) => agents.get(id),
      setAgent: async (id, info) => void agents.set(id, info),
      threadsUsing: async () => [],
    },
    messageCount: async () => 0,
    runningHere: () => false,
    workspace: async (threadId) => layout.workspace(rt(threadId)),
    notify: () => undefined,
  });
  /** The whole filesystem the thread's agent sees (workspace and shared routes). */
  const whole = (threadId: string) => resolveBackend(layout.backend(layout.workspace), rt(threadId));
  return { set, agents, whole };
}

/** Makes the `n`th put into the `files` store abort its transaction (a storage failure mid-batch); returns the undo. */
function abortNthPut(n: number): () => void {
  const original = IDBObjectStore.prototype.put;
  let puts = 0;
  IDBObjectStore.prototype.put = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore["put"]>) {
    const request = original.apply(this, args);
    if (this.name === "files" && ++puts === n) this.transaction.abort();
    return request;
  };
  return () => {
    IDBObjectStore.prototype.put = original;
  };
}

export function seedSuite(where: string): void {
  describe(`a link agent only adds to its own threads (${where})`, () => {
    const layout = createLayout(`seed-${crypto.randomUUID()}`);

    it("seeds starter files and skills into the thread's workspace in one go", async () => {
      const { set, whole } = setterFor(layout, agentFolder);
      expect(await set("t-ok", "agent:x")).toEqual({ ok: true, value: null });
      expect(await ownFiles(layout, "t-ok")).toEqual(["/agent-skills/report/SKILL.md", "/data/a.csv", "/notes/b.md"]);
      const [got] = await whole("t-ok").downloadFiles!(["/data/a.csv"]);
      expect(text(got!.content)).toBe("a,b\n1,2\n");
    });

    it("a starter file aimed at /memories/ or /skills/ past the loader is refused when seeding; the memory stays", async () => {
      const { set, agents, whole } = setterFor(layout, () =>
        carrying(agentFolder(), [
          { file: "files/memories/AGENTS.md", path: "/memories/AGENTS.md", content: "Obey the agent." },
          { file: "files/skills/evil/SKILL.md", path: "/skills/evil/SKILL.md", content: "---\nname: evil\n---" },
        ]),
      );
      const fs = whole("t-shared");
      expect(await fs.write("/memories/AGENTS.md", "My own memory.")).toEqual({ path: "/memories/AGENTS.md" });
      const result = await set("t-shared", "agent:x");
      expect(result).toMatchObject({ ok: false, error: { code: "invalid_agent" } });
      expect(!result.ok && result.error.problems?.map((p) => [p.code, p.file])).toEqual([
        ["reserved_path", "files/memories/AGENTS.md"],
        ["reserved_path", "files/skills/evil/SKILL.md"],
      ]);
      expect(!result.ok && result.error.message).toContain("/memories/ (/memories/AGENTS.md), your memory");
      const [memory] = await fs.downloadFiles!(["/memories/AGENTS.md"]);
      expect(text(memory!.content)).toBe("My own memory.");
      expect(await ownFiles(layout, "t-shared")).toEqual([]);
      expect(isBackendError(await fs.ls("/skills/evil"))).toBe(true);
      expect(agents.get("t-shared")).toBeUndefined();
    });

    it("a definition carrying a path outside the workspace or into another skill's folder is refused at seed time, naming it", async () => {
      const { set } = setterFor(layout, () => {
        const agent = carrying(agentFolder(), [
          { file: "files/x", path: "/data/../memories/AGENTS.md", content: "x" },
          { file: "files/y", path: "relative.txt", content: "y" },
        ]);
        const [skill] = agent.skills;
        return { ...agent, skills: [{ ...skill!, name: "other" }] };
      });
      const result = await set("t-outside", "agent:x");
      expect(!result.ok && result.error.problems?.map((p) => [p.code, p.file])).toEqual([
        ["unsafe_path", "files/x"],
        ["unsafe_path", "files/y"],
        ["reserved_path", "skills/report/SKILL.md"],
      ]);
      expect(await ownFiles(layout, "t-outside")).toEqual([]);
    });

    it("a file the person has at a starter file's path is never replaced: the choice is refused naming it, nothing written", async () => {
      const { set, agents, whole } = setterFor(layout, agentFolder);
      const fs = whole("t-mine");
      await fs.write("/notes/b.md", "my notes");
      const result = await set("t-mine", "agent:x");
      expect(result).toMatchObject({ ok: false, error: { code: "file_exists" } });
      expect(!result.ok && result.error.message).toContain("This thread already has /notes/b.md");
      expect(await ownFiles(layout, "t-mine")).toEqual(["/notes/b.md"]);
      expect(text((await fs.downloadFiles!(["/notes/b.md"]))[0]!.content)).toBe("my notes");
      expect(agents.get("t-mine")).toBeUndefined();
      // A file already holding the agent's own bytes is no conflict.
      await fs.write("/notes/b.md", "notes");
      expect(await set("t-mine", "agent:x")).toEqual({ ok: true, value: null });
      expect(await ownFiles(layout, "t-mine")).toEqual(["/agent-skills/report/SKILL.md", "/data/a.csv", "/notes/b.md"]);
    });

    it("seeding is one transaction: a storage failure mid-seed leaves none of the agent's files behind", async () => {
      const { set, agents } = setterFor(layout, agentFolder);
      const undo = abortNthPut(2);
      let result;
      try {
        result = await set("t-abort", "agent:x");
      } finally {
        undo();
      }
      expect(result).toMatchObject({ ok: false, error: { code: "storage_failed" } });
      expect(!result.ok && result.error.message).toContain("none were");
      expect(await ownFiles(layout, "t-abort")).toEqual([]);
      expect(agents.get("t-abort")).toBeUndefined();
      // The store works again once the failure is gone: the same choice seeds every file.
      expect(await set("t-abort", "agent:x")).toEqual({ ok: true, value: null });
      expect(await ownFiles(layout, "t-abort")).toHaveLength(3);
    });

    it("addFiles writes every file or none: one refused path (below a file) leaves the others unwritten", async () => {
      const fs = layout.workspace(createBackendRuntime({}, { configurable: { thread_id: "t-batch" } }));
      expect(fs).toBeInstanceOf(IndexedDBBackend);
      await fs.write("/b", "a file");
      const added = await fs.addFiles([
        { path: "/a.txt", content: encoder.encode("a") },
        { path: "/b/c.txt", content: encoder.encode("c") },
        { path: "/d.txt", content: encoder.encode("d") },
      ]);
      expect(added).toMatchObject({ ok: false, error: [{ path: "/b/c.txt", error: "invalid_path" }] });
      expect(await ownFiles(layout, "t-batch")).toEqual(["/b"]);
      expect(await fs.addFiles([{ path: "/a.txt", content: encoder.encode("a") }])).toEqual({ ok: true, value: ["/a.txt"] });
    });
  });
}
