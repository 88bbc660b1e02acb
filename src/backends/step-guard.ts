/**
 * The check a shared store's write and delete make against the step's
 * ledger (step-ledger.ts): a file a sibling call changed after the version
 * this call knew is merged with this call's change, or keeps the sibling's
 * version and the call gets a `conflict` error saying so, in the words
 * graph state's merge uses (step-file-notes.ts).
 */
import type * as Diff3Module from "node-diff3";
import { loadMerge, mergeFileWith } from "./file-merge.ts";
import { backendError, type BackendError, type FileData } from "./protocol.ts";
import type { BackendRuntime } from "./runtime.ts";
import { callLabel, stepFileNoteText } from "./step-file-notes.ts";
import type { StepLedger } from "./step-ledger.ts";

/**
 * Loads what a guarded write may need before its unit starts: an IndexedDB
 * transaction ends at the first wait for anything but its own requests.
 */
export function guardReady(guard: StepGuard | undefined): Promise<typeof Diff3Module | undefined> {
  return guard ? loadMerge() : Promise.resolve(undefined);
}

/** One call's view of the step's ledger, for one store (`medium`, `scope`). */
export interface StepGuard {
  readonly ledger: StepLedger;
  /** The call's label (`name call id`). */
  readonly call: string;
  /** The storage the paths belong to (shared by every call over it). */
  readonly medium: object;
  /** The part of the storage (an IndexedDB scope, a store namespace). */
  readonly scope: string;
}

/** The guard of a tool call over `medium`; undefined outside a tool call. */
export function stepGuard(rt: BackendRuntime, medium: object, scope: string): StepGuard | undefined {
  const call = (rt.config as { toolCall?: { name: string; id?: string } }).toolCall;
  return call ? { ledger: rt.stepFiles.ledger, call: callLabel(call), medium, scope } : undefined;
}

const keyOf = (guard: StepGuard, path: string) => `${guard.scope}\0${path}`;

/** Records a change this call made. */
export function noteChange(guard: StepGuard | undefined, path: string, before: FileData | null, after: FileData | null): void {
  guard?.ledger.note(guard.medium, keyOf(guard, path), guard.call, before, after, true);
}

/**
 * What `ours` becomes over `current`: itself, merged with a sibling's change, or the conflict the call is told.
 * `algorithm`: from {@link guardReady}, loaded before the unit (no wait inside it).
 */
export function guardedWrite(
  guard: StepGuard | undefined,
  algorithm: typeof Diff3Module | undefined,
  path: string,
  current: FileData | null,
  ours: FileData,
): FileData | BackendError {
  const clash = guard?.ledger.clash(guard.medium, keyOf(guard, path), guard.call, current);
  if (!guard || !clash) return ours;
  const merged: ReturnType<typeof mergeFileWith> = algorithm
    ? mergeFileWith(algorithm, clash.known ?? undefined, current, ours)
    : { outcome: current === null ? "deleted_there" : "conflict" };
  if ("data" in merged) return merged.data;
  guard.ledger.note(guard.medium, keyOf(guard, path), guard.call, current, current, false);
  const { outcome, ours: lost } = merged;
  return backendError(
    "conflict",
    stepFileNoteText({ path, earlier: clash.earlier, outcome, ...(lost === undefined ? {} : { ours: lost }) }),
  );
}

/** Why this call may not delete `path` (a sibling changed it after the version this call knew), if so. */
export function guardedDelete(guard: StepGuard | undefined, path: string, current: FileData | null): BackendError | undefined {
  const clash = guard?.ledger.clash(guard.medium, keyOf(guard, path), guard.call, current);
  if (!guard || !clash || current === null) return undefined;
  guard.ledger.note(guard.medium, keyOf(guard, path), guard.call, current, current, false);
  return backendError("conflict", stepFileNoteText({ path, earlier: clash.earlier, outcome: "deleted_here" }));
}
