/**
 * A thread's agent: choosing it (`setThreadAgent`, only before the thread's first message: the agent is fixed by
 * then), its files in the thread's workspace, and how a thread shows it (ThreadInfo.agent, ThreadView.agent).
 *
 * Choosing an agent writes its seed files (agent-folders/options.ts `agentSeedFiles`: starter files at their paths,
 * its skills under the thread's own skills folder) into that thread's workspace, so the Files panel shows them before
 * the first message and no other thread sees them. A link agent only adds to its own threads: the seed goes to the
 * workspace route alone (never the shared `/memories/` or `/skills/`), a path outside it or in a reserved place is
 * refused before anything is written, the seed is one unit of the store (every file or none, a quota error
 * included), and a file the person has at a seed path is never replaced: the choice is refused, naming it. Choosing
 * another agent first removes the previous agent's seed files the person has not changed.
 */
import type { AgentDefinition } from "../../agent-folders/definition.ts";
import { agentSeedFiles } from "../../agent-folders/options.ts";
import { SKILLS_FOLDER } from "../../agent-folders/load.ts";
import { problem, refuse, type AgentProblem } from "../../agent-folders/problems.ts";
import { AGENT_SKILLS_DIR, reservedPathProblem } from "../../agent-folders/reserved.ts";
import { FileBackend } from "../../backends/file-backend.ts";
import { normalizePath } from "../../backends/paths.ts";
import type { BackendProtocol } from "../../backends/protocol.ts";
import { sameBytes } from "../../core/bytes.ts";
import { ok } from "../../core/result.ts";
import { skillNameProblem } from "../../middleware/skills.ts";
import { StorageError } from "../../storage/errors.ts";
import type { AgentLibrary } from "../agents/agent-library.ts";
import { agentFail, invalidAgent } from "../agents/agent-review.ts";
import { GENERAL_AGENT } from "../agents/general-agent.ts";
import type { AgentLibraryApi } from "../../protocol/agents.ts";
import type { AgentResult } from "../../protocol/errors.ts";
import type { ThreadView } from "../../protocol/threads.ts";
import { GENERAL_AGENT_ID } from "../../protocol/agents.ts";
import type { ThreadAgents } from "./threads.ts";

export interface ThreadAgentDeps {
  library: Pick<AgentLibrary, "resolve">;
  threads: ThreadAgents;
  /** How many messages the thread has (its agent is fixed once it has one). */
  messageCount(threadId: string): Promise<number>;
  runningHere(threadId: string): boolean;
  /**
   * The thread's own workspace: the filesystem's default route only (the active sandbox's files), never the shared
   * `/memories/` and `/skills/` routes, so an agent's seed files cannot reach what every thread shares.
   */
  workspace(threadId: string): Promise<BackendProtocol>;
  notify(threadId: string): void;
}

/** Removes the seed files of `agent` that still hold what the agent put there. */
async function removeSeed(fs: BackendProtocol, seed: ReadonlyMap<string, Uint8Array>): Promise<void> {
  if (!fs.downloadFiles || !fs.delete) return;
  const found = await fs.downloadFiles([...seed.keys()]);
  for (const d of found) {
    if (d.content && sameBytes(d.content, seed.get(d.path)!)) await fs.delete(d.path);
  }
}

/**
 * Seed paths that are not the thread's own to fill: a path that is not normalized and absolute, a starter file in a
 * reserved place (agent-folders/reserved.ts), a skill's file outside its own folder of the thread's skills folder.
 * The loader refuses such a folder first; this holds even for a definition that somehow carries one.
 */
function seedPathProblems(agent: AgentDefinition): AgentProblem[] {
  const problems: AgentProblem[] = [];
  /** `skillFolder`: the one place a skill's file may land (the thread's skills folder is otherwise reserved). */
  const check = (file: string, path: string, skillFolder?: string) => {
    const at = { file: JSON.stringify(file).slice(1, -1) };
    // A normalized absolute path holds no '..', '.', '~' or empty segment: it names a place in the workspace.
    if (normalizePath(path) !== path) {
      problems.push(problem("unsafe_path", `${JSON.stringify(path)} is not a path inside the thread's workspace`, at));
      return;
    }
    const why = skillFolder
      ? path.startsWith(skillFolder)
        ? undefined
        : `a skill's file outside its folder ${skillFolder} (${path})`
      : reservedPathProblem(path);
    if (why) problems.push(problem("reserved_path", why, at));
  };
  for (const { file, path } of agent.starterFiles) check(file, path);
  for (const skill of agent.skills) {
    const folder = `${AGENT_SKILLS_DIR}${skill.name}/`;
    if (skillNameProblem(skill.name, skill.name))
      problems.push(problem("invalid_field", "not a skill's name", { file: skill.file, field: "name" }));
    else for (const file of skill.files) check(file, AGENT_SKILLS_DIR + file.slice(SKILLS_FOLDER.length), folder);
  }
  return problems;
}

/** The seed's paths where the thread has a file of its own (other content, and not what `previous` left there). */
async function filesInTheWay(
  fs: BackendProtocol,
  seed: ReadonlyMap<string, Uint8Array>,
  previous: ReadonlyMap<string, Uint8Array>,
): Promise<string[]> {
  if (!fs.downloadFiles || seed.size === 0) return [];
  const found = await fs.downloadFiles([...seed.keys()]);
  return found
    .filter(
      (d) =>
        d.content && !sameBytes(d.content, seed.get(d.path)!) && !(previous.has(d.path) && sameBytes(d.content, previous.get(d.path)!)),
    )
    .map((d) => d.path);
}

const inTheWay = (paths: readonly string[]) =>
  agentFail<null>(
    "file_exists",
    `This thread already has ${paths.join(", ")}: an agent's starter files never replace yours. ` +
      "Rename or delete " +
      (paths.length === 1 ? "it" : "them") +
      ", or start a new thread for this agent.",
  );

/**
 * Writes the seed into the workspace in one unit (FileBackend.addFiles): every file or none, none over a file of the
 * person's. Undefined when written, else the error.
 */
async function writeSeed(fs: BackendProtocol, seed: ReadonlyMap<string, Uint8Array>): Promise<AgentResult<null> | undefined> {
  if (seed.size === 0) return undefined;
  if (!(fs instanceof FileBackend))
    return agentFail("storage_failed", "The agent's files could not be written (this workspace cannot take them all at once).");
  let written;
  try {
    written = await fs.addFiles([...seed].map(([path, content]) => ({ path, content })));
  } catch (cause) {
    if (!(cause instanceof StorageError)) throw cause;
    return agentFail("storage_failed", `The agent's files could not be written, and none were (${cause.message}).`);
  }
  if (written.ok) return undefined;
  const taken = written.error.filter((r) => r.error === "already_exists").map((r) => r.path);
  if (taken.length) return inTheWay(taken);
  return agentFail(
    "storage_failed",
    `The agent's files could not be written, and none were (${written.error.map((r) => r.message).join("; ")}).`,
  );
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
    const agent = chosen.value.agent;
    const outside = agent ? seedPathProblems(agent) : [];
    if (outside.length) return invalidAgent(refuse(outside).error);
    const seed = agent ? agentSeedFiles(agent) : new Map<string, Uint8Array>();
    const fs = await deps.workspace(threadId);
    const previous = before && (await deps.library.resolve(before.id));
    const previousSeed = previous?.ok && previous.value.agent ? agentSeedFiles(previous.value.agent) : new Map<string, Uint8Array>();
    // Checked before the previous agent's files go, so a refusal leaves the thread as it was.
    const taken = await filesInTheWay(fs, seed, previousSeed);
    if (taken.length) return inTheWay(taken);
    await removeSeed(fs, previousSeed);
    const failed = await writeSeed(fs, seed);
    if (failed) return failed;
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
