/**
 * A thread's agent: choosing it (`setThreadAgent`, only before the thread's first message: the agent is fixed by
 * then), its files in the thread's workspace, and how a thread shows it (ThreadInfo.agent, ThreadView.agent).
 *
 * Choosing an agent writes its seed files (agent-folders/options.ts `agentSeedFiles`: starter files at their paths,
 * its skills under the thread's own skills folder) into that thread's workspace, so the Files panel shows them before
 * the first message and no other thread sees them. Choosing another agent first removes the previous agent's seed
 * files the person has not changed.
 */
import type { AgentDefinition } from "../agent-folders/definition.ts";
import { agentSeedFiles } from "../agent-folders/options.ts";
import type { BackendProtocol } from "../backends/protocol.ts";
import { ok } from "../core/result.ts";
import type { AgentLibrary } from "./agent-library.ts";
import { agentFail } from "./agent-review.ts";
import { GENERAL_AGENT } from "./general-agent.ts";
import type { AgentLibraryApi, ThreadView } from "./protocol.ts";
import { GENERAL_AGENT_ID } from "./protocol.ts";
import type { ThreadAgents } from "./threads.ts";

export interface ThreadAgentDeps {
  library: Pick<AgentLibrary, "resolve">;
  threads: ThreadAgents;
  /** How many messages the thread has (its agent is fixed once it has one). */
  messageCount(threadId: string): Promise<number>;
  runningHere(threadId: string): boolean;
  /** The thread's workspace (the whole filesystem as its agent sees it). */
  workspace(threadId: string): Promise<BackendProtocol>;
  notify(threadId: string): void;
}

const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);

/** Removes the seed files of `agent` that still hold what the agent put there. */
async function removeSeed(fs: BackendProtocol, agent: AgentDefinition): Promise<void> {
  const seed = agentSeedFiles(agent);
  if (!fs.downloadFiles || !fs.delete) return;
  const found = await fs.downloadFiles([...seed.keys()]);
  for (const d of found) {
    if (d.content && same(d.content, seed.get(d.path)!)) await fs.delete(d.path);
  }
}

/** Writes the seed files of `agent` into the workspace; an error names the first file that failed. */
async function writeSeed(fs: BackendProtocol, agent: AgentDefinition): Promise<string | undefined> {
  const seed = agentSeedFiles(agent);
  if (seed.size === 0) return undefined;
  if (!fs.uploadFiles) return "this filesystem cannot be written";
  const outcomes = await fs.uploadFiles([...seed].map(([path, content]) => ({ path, content })));
  const failed = outcomes.find((o) => o.error);
  return failed ? `${failed.path}: ${failed.error}` : undefined;
}

/** `setThreadAgent`. */
export function threadAgentSetter(deps: ThreadAgentDeps): AgentLibraryApi["setThreadAgent"] {
  return async (threadId, agentId) => {
    if (deps.runningHere(threadId) || (await deps.messageCount(threadId)) > 0) {
      return agentFail(
        "thread_started",
        "This thread has messages: its agent is fixed by its first message. Start a new thread to use another agent.",
      );
    }
    const chosen = await deps.library.resolve(agentId);
    if (!chosen.ok) return chosen;
    const before = await deps.threads.agentOf(threadId);
    if (before?.id === agentId && before.hash === chosen.value.summary.hash) return ok(null);
    const fs = await deps.workspace(threadId);
    if (before) {
      const previous = await deps.library.resolve(before.id);
      if (previous.ok && previous.value.agent) await removeSeed(fs, previous.value.agent);
    }
    const agent = chosen.value.agent;
    const failed = agent && (await writeSeed(fs, agent));
    if (failed) return agentFail("storage_failed", `The agent's files could not be written (${failed}).`);
    const { id, name, hash } = chosen.value.summary;
    await deps.threads.setAgent(threadId, id === GENERAL_AGENT_ID ? undefined : { id, name, ...(hash ? { hash } : {}) });
    deps.notify(threadId);
    return ok(null);
  };
}

/** The thread's agent as its view shows it: `changed` when that agent is gone or no longer has the thread's hash. */
export async function threadAgentView(threadId: string, deps: Pick<ThreadAgentDeps, "library" | "threads">): Promise<ThreadView["agent"]> {
  const info = await deps.threads.agentOf(threadId);
  if (!info) return { id: GENERAL_AGENT_ID, name: GENERAL_AGENT.name };
  const now = await deps.library.resolve(info.id);
  const changed = !now.ok || now.value.summary.hash !== info.hash;
  const unreviewed = now.ok && now.value.summary.unreviewed;
  return { ...info, ...(changed ? { changed: true } : {}), ...(unreviewed ? { unreviewed: true } : {}) };
}

/** The folder a thread's run uses: undefined for the general agent; an error message when it is gone. */
export async function threadAgent(
  threadId: string,
  deps: Pick<ThreadAgentDeps, "library" | "threads">,
): Promise<{ ok: true; agent: AgentDefinition | undefined } | { ok: false; message: string }> {
  const info = await deps.threads.agentOf(threadId);
  if (!info) return { ok: true, agent: undefined };
  const found = await deps.library.resolve(info.id);
  if (!found.ok) return { ok: false, message: `This thread's agent (${info.name}) is no longer available: ${found.error.message}` };
  if (found.value.summary.unreviewed) {
    return {
      ok: false,
      message:
        `This thread's agent (${info.name}) came with the imported thread and has not been reviewed in this browser: ` +
        "review it (Review agent, above the thread) and choose Use this agent before the thread runs.",
    };
  }
  return { ok: true, agent: found.value.agent };
}
