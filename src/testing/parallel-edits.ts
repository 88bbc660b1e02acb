/**
 * Parallel subagents changing one file, over every kind of file backend: the
 * setups (graph state, a LangGraph store as deeptab's /memories/, IndexedDB
 * files, an in-memory store) and a scripted child that makes one edit_file
 * call and answers. Shared by the Node and Chromium tests and their seeded fuzz.
 */
import { ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { InMemoryStore, type BaseStore } from "@langchain/langgraph/web";
import { CompositeBackend } from "../backends/composite.ts";
import { FileBackend } from "../backends/file-backend.ts";
import { indexedDBBackend } from "../backends/indexeddb.ts";
import { MemoryFileStore } from "../backends/memory-store.ts";
import { isBackendError, type FileData } from "../backends/protocol.ts";
import { callIdentity, createBackendRuntime, resolveBackend, type BackendOption } from "../backends/runtime.ts";
import { StateBackend } from "../backends/state.ts";
import { stepGuard } from "../backends/step-guard.ts";
import { StoreBackend, storeStepGuard } from "../backends/store.ts";
import { ScriptedChatModel, type ScriptContext, type ScriptedTurn } from "../models/scripted.ts";
import { IndexedDBStore } from "../storage/indexeddb-store.ts";
import { textFile } from "./runtime.ts";

/** One backend setup: where the shared file lives and how to read it after the run. */
export interface EditSetup {
  name: string;
  path: string;
  /** Builds the backend (and store) with `content` at `path`. */
  make(content: string): Promise<{
    backend?: BackendOption;
    store?: BaseStore;
    files?: Record<string, FileData>;
    read(state: { files?: Record<string, FileData> }): Promise<string | undefined>;
  }>;
}

async function readVia(backend: BackendOption, path: string, files: Record<string, FileData>, store?: BaseStore) {
  const rt = createBackendRuntime(files, { configurable: { thread_id: "edits" }, ...(store ? { store } : {}) });
  const out = await resolveBackend(backend, rt).read(path, 0, 10_000);
  return isBackendError(out) ? undefined : out.lines.join("\n") + "\n";
}

function storeSetup(name: string, makeStore: () => BaseStore): EditSetup {
  return {
    name,
    path: "/memories/AGENTS.md",
    async make(content) {
      const store = makeStore();
      await store.put(["memories"], "/AGENTS.md", { ...textFile(content) });
      // As the app builds /memories/: per call, with its identity and its step's guard.
      const backend: BackendOption = (rt) =>
        new CompositeBackend(new StateBackend(rt), {
          "/memories/": new StoreBackend(
            rt.store!,
            ["memories"],
            rt.now,
            callIdentity(rt.config),
            storeStepGuard(rt, rt.store!, ["memories"]),
          ),
        });
      return { backend, store, read: (s) => readVia(backend, "/memories/AGENTS.md", s.files ?? {}, store) };
    },
  };
}

/** Graph state, a store (in memory and IndexedDB, as the app's /memories/), IndexedDB files, an in-memory FileStore. */
export const EDIT_SETUPS: readonly EditSetup[] = [
  {
    name: "StateBackend",
    path: "/notes.md",
    async make(content) {
      const files = { "/notes.md": textFile(content) };
      return { files, read: async (s) => s.files?.["/notes.md"]?.content };
    },
  },
  storeSetup("StoreBackend over InMemoryStore", () => new InMemoryStore()),
  storeSetup("StoreBackend over IndexedDBStore", () => new IndexedDBStore({ dbName: `edits-store-${crypto.randomUUID()}` })),
  {
    name: "IndexedDB workspace",
    path: "/notes.md",
    async make(content) {
      const backend = indexedDBBackend({ dbName: `edits-files-${crypto.randomUUID()}` });
      const rt = createBackendRuntime({}, { configurable: { thread_id: "edits" } });
      await backend(rt).write("/notes.md", content);
      return { backend, read: () => readVia(backend, "/notes.md", {}) };
    },
  },
  {
    name: "in-memory FileStore",
    path: "/notes.md",
    async make(content) {
      const store = new MemoryFileStore({ "/notes.md": textFile(content) });
      const backend: BackendOption = (rt) => new FileBackend(store, rt.now, stepGuard(rt, store, ""));
      return { backend, read: () => readVia(backend, "/notes.md", {}) };
    },
  },
];

/** What a child is asked to do: `edit <path> <old> <new> <delay ms>` (its description). */
export function editTask(path: string, oldString: string, newString: string, delayMs = 0): string {
  return JSON.stringify({ path, oldString, newString, delayMs });
}

/**
 * A child model that makes the edit its task names, then answers with what
 * its call returned (after `delayMs`, so tests can order who finishes first).
 */
export function editingChild(): ScriptedChatModel {
  return new ScriptedChatModel({
    script: (ctx: ScriptContext): ScriptedTurn => {
      const human = ctx.messages.find((m) => m.getType() === "human");
      const task = JSON.parse(String(human?.content)) as { path: string; oldString: string; newString: string; delayMs: number };
      const result = ctx.messages.find((m): m is ToolMessage => ToolMessage.isInstance(m));
      if (!result)
        return {
          toolCalls: [{ name: "edit_file", args: { file_path: task.path, old_string: task.oldString, new_string: task.newString } }],
        };
      return { text: `edit ${task.oldString}: ${String(result.content)}`, delayMs: task.delayMs };
    },
  });
}

/** The `task` results of a run, by call id. */
export function taskResults(messages: readonly BaseMessage[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of messages) if (ToolMessage.isInstance(m) && m.name === "task") out[m.tool_call_id] = String(m.content);
  return out;
}

/**
 * A child model that makes one tool call (after `delayMs`, so it lands after a sibling's), then answers with what
 * the call returned.
 */
export function oneCallChild(name: string, args: Record<string, unknown>, delayMs = 0): ScriptedChatModel {
  return new ScriptedChatModel({
    script: (ctx: ScriptContext): ScriptedTurn => {
      const result = ctx.messages.find((m): m is ToolMessage => ToolMessage.isInstance(m));
      return result ? { text: `${name}: ${String(result.content)}` } : { toolCalls: [{ name, args }], delayMs };
    },
  });
}
