/**
 * Rewind and review a turn's changes: the workspace as it was just before a
 * user message, and the files a turn (its subagents' included) created,
 * changed or deleted. The worker keeps the workspace's files at each turn's
 * start and end (worker/threads/snapshots.ts); a rewind or a revert is the
 * person's own change, recorded as a note message the agent reads at its next
 * model call, and undone by rewinding to before that note.
 */
import type { ErrorInfo } from "../core/errors.ts";
import type { Result } from "../core/result.ts";
import type { ThreadView } from "./threads.ts";

/** What a change does to a file: it appears, its content changes, or it goes. */
export type FileChangeKind = "added" | "changed" | "deleted";

/** One file's change, with both texts when they are text and small enough to diff (else `binary` or `large`). */
export interface FileChange {
  path: string;
  kind: FileChangeKind;
  /** The text before ("" when the file did not exist). */
  before?: string;
  /** The text after ("" when the file is deleted). */
  after?: string;
  /** One side is not text: no diff. */
  binary?: true;
  /** One side is over the diff limit: no diff. */
  large?: true;
}

/** `files`: restore the workspace only (the conversation stays); `conversation`: the files and a new branch from before the message. */
export type RewindMode = "files" | "conversation";

/**
 * Why a rewind or a review cannot be done:
 * - `thread_busy`: a run of the thread is in progress (here or in another tab); wait or Stop;
 * - `not_found`: there is no user message at that index of the shown branch;
 * - `not_recorded`: the workspace was not recorded for that message (it was sent before deeptab kept them, or the
 *   turn has not ended);
 * - `unchanged`: nothing would change (the files are already as they were; no paths given);
 * - `not_supported`: the runtime keeps no workspace history (a LangGraph server);
 * - `storage_failed`: the browser refused a read or a write (the message says which).
 */
export type RewindErrorCode = "thread_busy" | "not_found" | "not_recorded" | "unchanged" | "not_supported" | "storage_failed";
export type RewindError = ErrorInfo & { code: RewindErrorCode };
export type RewindResult<T> = Result<T, RewindError>;

/** The worker's rewind and review calls. `messageIndex` is a position in the shown branch's `ThreadView.messages`. */
export interface RewindApi {
  /** What restoring the workspace to just before the user message at `messageIndex` would change, from the files as they are now. */
  rewindPreview(threadId: string, messageIndex: number): Promise<RewindResult<FileChange[]>>;
  /**
   * Restores the workspace to just before the user message at `messageIndex`. `files`: a note saying so joins the
   * conversation; `conversation`: the files, and a new branch from before the message whose first message is that
   * note (the current branch stays, in the branch switcher). Rewinding to before the note undoes it.
   */
  rewind(threadId: string, messageIndex: number, mode: RewindMode): Promise<RewindResult<ThreadView>>;
  /** The files the turn of the user message at `messageIndex` created, changed or deleted, by path. */
  turnChanges(threadId: string, messageIndex: number): Promise<RewindResult<FileChange[]>>;
  /**
   * Puts `paths` (of the turn's changes) back as they were before the turn; a note naming them joins the conversation,
   * so the agent reads at its next model call what was reverted.
   */
  revertTurn(threadId: string, messageIndex: number, paths: string[]): Promise<RewindResult<ThreadView>>;
}
