/**
 * Rewind and review a turn's changes (protocol/rewind.ts) over the recorded
 * workspace (snapshots.ts) and the pure core (workspace-changes.ts): the
 * preview and the review read manifests and contents; a rewind or a revert
 * holds the thread (no run meanwhile), records the workspace as it was
 * (`before:` the note), writes and deletes files through the thread's
 * filesystem, and adds a note message the agent reads at its next model
 * call. A conversation rewind forks the checkpoint before the message, as an
 * edit does, so the current branch stays in the branch switcher.
 */
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { fileDataToBytes } from "../../backends/file-ops.ts";
import { isBackendError, type BackendProtocol } from "../../backends/protocol.ts";
import { toErrorInfo } from "../../core/errors.ts";
import { isGraderFeedback, WORKSPACE_NOTE_SOURCE } from "../../core/messages.ts";
import { fail, ok } from "../../core/result.ts";
import type { DeepAgent } from "../../agent/create-deep-agent.ts";
import type { FileChange, RewindApi, RewindErrorCode, RewindResult } from "../../protocol/rewind.ts";
import { threadLockName, type ThreadEvent, type ThreadView } from "../../protocol/threads.ts";
import { forkCheckpoint, type CheckpointReader } from "./history.ts";
import type { StoredContent, WorkspaceSnapshots } from "./snapshots.ts";
import { changesBetween, restoreSteps, turnMessageIds, workspaceNote, type Manifest } from "./workspace-changes.ts";

/** Texts longer than this are listed without a diff. */
const DIFF_LIMIT = 200_000;

export interface RewindDeps {
  snapshots: WorkspaceSnapshots;
  /** The thread's filesystem as the agent sees it (through the active sandbox). */
  fs(threadId: string): Promise<BackendProtocol>;
  /** Reads and edits state (never calls a model). */
  reader: Pick<DeepAgent, "getState" | "updateState">;
  registry: { head(threadId: string): Promise<string | undefined>; setHead(threadId: string, head: string | undefined): Promise<void> };
  history: CheckpointReader;
  /** True when this worker runs the thread. */
  runningHere(threadId: string): boolean;
  view(threadId: string): Promise<ThreadView>;
  notify(event: ThreadEvent): void;
}

const failed = <T>(code: RewindErrorCode, message: string): RewindResult<T> => fail(code, message, "RewindError");

const configOf = (threadId: string, checkpointId?: string) => ({
  configurable: { thread_id: threadId, ...(checkpointId ? { checkpoint_id: checkpointId } : {}) },
});

/** The turn that starts at a user message (or a note) of the shown branch. */
interface Turn {
  id: string;
  text: string;
  head: string | undefined;
}

/** Runs `body` holding the thread's lock (no run can start meanwhile); `thread_busy` when a run holds it. */
async function holding<T>(threadId: string, runningHere: boolean, body: () => Promise<RewindResult<T>>): Promise<RewindResult<T>> {
  const busy = failed<T>("thread_busy", "A run of this thread is in progress: wait for it to end, or Stop it, then try again.");
  if (runningHere) return busy;
  const locks = typeof navigator === "undefined" ? undefined : navigator.locks;
  if (!locks) return body();
  return locks.request(threadLockName(threadId), { ifAvailable: true }, async (lock) => (lock ? body() : busy));
}

/** The diffable texts of a change (or why not), from its two stored contents. */
function withTexts(change: { path: string; kind: FileChange["kind"] }, before?: StoredContent, after?: StoredContent): FileChange {
  const sides = [before, after].filter((s): s is StoredContent => s !== undefined);
  if (sides.some((s) => s.encoding === "base64")) return { ...change, binary: true };
  if (sides.some((s) => s.content.length > DIFF_LIMIT)) return { ...change, large: true };
  return { ...change, before: before?.content ?? "", after: after?.content ?? "" };
}

export function createRewindService(deps: RewindDeps): RewindApi & {
  /** Records the workspace before a user message is sent (its id given). Never fails a run: a failure is left unrecorded. */
  turnStarted(threadId: string, messageId: string): Promise<void>;
  /** Records the workspace as a run ends, as the end of the turn of the newest user message of `messages`. */
  turnEnded(threadId: string, messages: readonly BaseMessage[]): Promise<void>;
} {
  const { snapshots } = deps;

  async function turnAt(threadId: string, index: number): Promise<RewindResult<Turn>> {
    const head = await deps.registry.head(threadId);
    const state = await deps.reader.getState(configOf(threadId, head));
    const messages = (state.values as { messages?: BaseMessage[] }).messages ?? [];
    const m = messages[index];
    if (!m || !HumanMessage.isInstance(m) || isGraderFeedback(m)) return failed("not_found", "There is no message of yours there.");
    if (!m.id) return failed("not_recorded", "The workspace was not recorded for this message (it was sent before deeptab kept it).");
    return ok({ id: m.id, text: m.text, head });
  }

  /** The changes from manifest `from` to `to`, with texts from the stored contents (`now`: contents read just now). */
  async function describe(threadId: string, from: Manifest, to: Manifest, now?: Map<string, StoredContent>): Promise<FileChange[]> {
    const content = async (hash: string | undefined) => (hash ? (now?.get(hash) ?? (await snapshots.blob(threadId, hash))) : undefined);
    const out: FileChange[] = [];
    for (const change of changesBetween(from, to))
      out.push(withTexts(change, await content(from[change.path]), await content(to[change.path])));
    return out;
  }

  /** Makes the workspace's `steps` paths as in `target`; a storage refusal is a `storage_failed` error. */
  async function apply(threadId: string, target: Manifest, steps: { write: string[]; remove: string[] }): Promise<RewindResult<null>> {
    const fs = await deps.fs(threadId);
    const uploads = [];
    for (const path of steps.write) {
      const blob = await snapshots.blob(threadId, target[path]!);
      if (!blob) return failed("not_recorded", `The recorded content of ${path} is missing.`);
      uploads.push({ path, content: fileDataToBytes({ ...blob, createdAt: "", modifiedAt: "" }) });
    }
    if (uploads.length) {
      if (!fs.uploadFiles) return failed("not_supported", "This filesystem cannot be written.");
      const outcomes = await fs.uploadFiles(uploads);
      const bad = outcomes.find((o) => o.error);
      if (bad) return failed("storage_failed", `Could not write ${bad.path}: ${bad.error}.`);
    }
    for (const path of steps.remove) {
      const outcome = await fs.delete?.(path);
      if (outcome && isBackendError(outcome) && outcome.error !== "file_not_found")
        return failed("storage_failed", `Could not delete ${path}: ${outcome.message}`);
    }
    return ok(null);
  }

  /**
   * Records the workspace, brings it to `target` (at `paths`, when given), and adds the note (on a new branch from
   * `forkFrom`, when given). The note's own `before:` snapshot is the workspace as it was: rewinding to before the
   * note undoes this.
   */
  async function restore(
    threadId: string,
    turn: Turn,
    target: Manifest,
    kind: "rewind" | "revert",
    options: { paths?: string[]; forkFrom?: string },
  ): Promise<RewindResult<ThreadView>> {
    const fs = await deps.fs(threadId);
    const noteId = crypto.randomUUID();
    const current = await snapshots.take(threadId, `before:${noteId}`, fs);
    const steps = restoreSteps(current, target, options.paths);
    if (!options.forkFrom && !steps.write.length && !steps.remove.length)
      return failed("unchanged", "The files are already as they were then: nothing to restore.");
    const applied = await apply(threadId, target, steps);
    if (!applied.ok) return applied;
    const note = new HumanMessage({
      id: noteId,
      content: workspaceNote(kind, turn.text, steps),
      name: WORKSPACE_NOTE_SOURCE,
      additional_kwargs: { lc_source: WORKSPACE_NOTE_SOURCE },
    });
    await deps.reader.updateState(configOf(threadId, options.forkFrom ?? turn.head), { messages: [note] }, "after_model");
    // The note is on the newest checkpoint (a fork of the shown branch when that was an older one): show it.
    await deps.registry.setHead(threadId, undefined);
    await snapshots.take(threadId, `after:${noteId}`, fs);
    deps.notify({ type: "thread_updated", threadId, running: false });
    return ok(await deps.view(threadId));
  }

  /** Runs a call, turning a thrown storage failure into a coded value. */
  const guarded = async <T>(body: () => Promise<RewindResult<T>>): Promise<RewindResult<T>> => {
    try {
      return await body();
    } catch (cause) {
      return failed("storage_failed", toErrorInfo(cause).message);
    }
  };

  return {
    async turnStarted(threadId, messageId) {
      await snapshots.take(threadId, `before:${messageId}`, await deps.fs(threadId)).catch(() => undefined);
    },

    async turnEnded(threadId, messages) {
      const fs = await deps.fs(threadId);
      for (const id of turnMessageIds(messages)) await snapshots.take(threadId, `after:${id}`, fs).catch(() => undefined);
    },

    rewindPreview: (threadId, index) =>
      guarded(async () => {
        const turn = await turnAt(threadId, index);
        if (!turn.ok) return turn;
        const target = await snapshots.manifest(threadId, `before:${turn.value.id}`);
        if (!target) return failed("not_recorded", "The workspace was not recorded before this message.");
        const now = await snapshots.read(await deps.fs(threadId));
        return ok(await describe(threadId, now.manifest, target, now.blobs));
      }),

    rewind: (threadId, index, mode) =>
      guarded(() =>
        holding(threadId, deps.runningHere(threadId), async () => {
          const turn = await turnAt(threadId, index);
          if (!turn.ok) return turn;
          const target = await snapshots.manifest(threadId, `before:${turn.value.id}`);
          if (!target) return failed("not_recorded", "The workspace was not recorded before this message.");
          if (mode === "files") return restore(threadId, turn.value, target, "rewind", {});
          const fork = await forkCheckpoint(deps.history, threadId, index, turn.value.head);
          if (!fork) return failed("not_found", "The checkpoint before that message is not stored; the conversation cannot be rewound.");
          return restore(threadId, turn.value, target, "rewind", { forkFrom: fork });
        }),
      ),

    turnChanges: (threadId, index) =>
      guarded(async () => {
        const turn = await turnAt(threadId, index);
        if (!turn.ok) return turn;
        const [before, after] = await Promise.all([
          snapshots.manifest(threadId, `before:${turn.value.id}`),
          snapshots.manifest(threadId, `after:${turn.value.id}`),
        ]);
        if (!before || !after)
          return deps.runningHere(threadId) && before
            ? failed("thread_busy", "This turn is still running: its changes are listed when it ends.")
            : failed("not_recorded", "The workspace was not recorded for this turn.");
        return ok(await describe(threadId, before, after));
      }),

    revertTurn: (threadId, index, paths) =>
      guarded(() =>
        holding(threadId, deps.runningHere(threadId), async () => {
          const turn = await turnAt(threadId, index);
          if (!turn.ok) return turn;
          const [before, after] = await Promise.all([
            snapshots.manifest(threadId, `before:${turn.value.id}`),
            snapshots.manifest(threadId, `after:${turn.value.id}`),
          ]);
          if (!before || !after) return failed("not_recorded", "The workspace was not recorded for this turn.");
          const changed = new Set(changesBetween(before, after).map((c) => c.path));
          const asked = paths.filter((p) => changed.has(p));
          if (!asked.length) return failed("unchanged", "None of these files was changed by this turn.");
          return restore(threadId, turn.value, before, "revert", { paths: asked });
        }),
      ),
  };
}
