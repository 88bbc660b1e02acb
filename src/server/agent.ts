/**
 * deeptab's agent for LangGraph's server: the tab's `createDeepAgent` composition (files, the offline shell, todos,
 * memory, skills, subagents, approvals) over server-side backends.
 *
 * | path          | backend                                                            | lifetime    |
 * |---------------|--------------------------------------------------------------------|-------------|
 * | `/` workspace | the thread's state: deepagents' `files` channel, with `execute` in  | the thread  |
 * |               | the offline shell (just-bash, inline) over the same files          |             |
 * | `/memories/`  | the store, namespace `["memories"]`                                | all threads |
 * | `/skills/`    | the store, namespace `["skills"]`                                  | all threads |
 *
 * The workspace is kept where deepagents keeps it (StateBackend): in the thread's checkpoints, so it lives and dies
 * with the thread in whatever checkpointer the server has (PostgreSQL under `npm run serve`), and every LangGraph
 * client reads it, and the todos, from the thread's state (`values.files`, `values.todos`) as it does for deepagents.
 * Approvals are LangGraph interrupts carrying
 * deepagents' HITL request (`{ actionRequests, reviewConfigs }`), answered with `Command({ resume: { decisions } })`
 * (middleware/hitl.ts): any LangGraph client can answer them.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { compositeBackend } from "../backends/composite.ts";
import { callIdentity, rootThreadId, type BackendFactory, type BackendRuntime } from "../backends/runtime.ts";
import { ShellBackend } from "../backends/sandbox/shell.ts";
import { newShellSession, type ShellSession } from "../backends/sandbox/shell-session.ts";
import { StateBackend } from "../backends/state.ts";
import { StoreBackend } from "../backends/store.ts";
import { createDeepAgent, type DeepAgent } from "../agent/create-deep-agent.ts";
import { basePrompt, MEMORY_FILE, SKILLS_DIR } from "../agent/deeptab-prompt.ts";
import type { InterruptOnConfig } from "../middleware/hitl.ts";
import { attachLateStorage, LateSaver, LateStore } from "./late-storage.ts";

/** The tab's memory file and skills folder (agent/deeptab-prompt.ts), at the same paths on the server. */
const SERVER_MEMORY_FILE = MEMORY_FILE;
const SERVER_SKILLS_DIR = SKILLS_DIR;

/** deeptab's prompt as the server's agent has it: files with the thread, the offline shell inline (no python3 there). */
const SERVER_PROMPT = basePrompt("shell", { shellPython: false }, "server");

export interface ServerAgentOptions {
  model: BaseChatModel;
  /** Tool calls that pause for approval (default: none). */
  interruptOn?: InterruptOnConfig;
  /** Pinned storage (PostgreSQL); unset, the graph uses what LangGraph's server assigns to it. */
  checkpointer?: LateSaver["target"];
  store?: LateStore["target"];
}

function threadOf(rt: BackendRuntime): string {
  const id = rt.config.configurable?.thread_id;
  if (typeof id !== "string" && typeof id !== "number") throw new Error("deeptab server: a tool call ran without a thread id.");
  return rootThreadId(String(id));
}

/** The server's filesystem over `store`: the workspace (with the shell) per thread, memories and skills shared. */
function serverBackend(store: LateStore): BackendFactory {
  const sessions = new Map<string, ShellSession>();
  const sessionFor = (thread: string) => {
    let session = sessions.get(thread);
    if (!session) sessions.set(thread, (session = newShellSession()));
    return session;
  };
  const workspace: BackendFactory = (rt) => {
    const thread = threadOf(rt);
    return new ShellBackend({
      files: new StateBackend(rt),
      now: rt.now,
      session: sessionFor(thread),
      threads: "inline",
      ...(rt.config.signal ? { signal: rt.config.signal } : {}),
    });
  };
  return compositeBackend(workspace, {
    "/memories/": (rt: BackendRuntime) => new StoreBackend(store, ["memories"], rt.now, callIdentity(rt.config)),
    "/skills/": (rt: BackendRuntime) => new StoreBackend(store, ["skills"], rt.now, callIdentity(rt.config)),
  });
}

/** Builds the server's agent; LangGraph's server's `graph.checkpointer = …` / `graph.store = …` reach its subagents. */
export function createServerAgent(options: ServerAgentOptions): DeepAgent {
  const saver = new LateSaver(options.checkpointer);
  const store = new LateStore(options.store);
  const agent = createDeepAgent({
    model: options.model,
    checkpointer: saver,
    store,
    backend: serverBackend(store),
    systemPrompt: SERVER_PROMPT,
    interruptOn: options.interruptOn ?? {},
    todos: true,
    memory: [SERVER_MEMORY_FILE],
    skills: [SERVER_SKILLS_DIR],
    name: "deeptab",
  });
  attachLateStorage(agent, saver, store);
  return agent;
}
