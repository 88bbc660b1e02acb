/**
 * Who changed which file of a shared store (one whose files live outside
 * graph state: the IndexedDB workspace, a LangGraph store) during one step,
 * so a call that writes or deletes a file a sibling changed after the
 * version this call knew is told, never silently wins. Graph state gets the
 * same guarantee by merging each call's changes at the end of the step
 * (step-files.ts); a shared store is changed in place, so the check runs at
 * each write and delete instead, and its outcome is the same: the sibling's
 * change is kept, this call's is merged into it (file-merge.ts) or not
 * applied, and the call is told why (step-file-notes.ts).
 *
 * A subagent's calls run in steps of their own, inside their `task` call's
 * step: each step's ledger links to the one it runs in, and a change counts
 * at every level under the label of the call that made it there (the
 * subagent's own call, then its `task` call), so parallel subagents are
 * siblings exactly as parallel calls of one message are.
 */
import { sameFile } from "./file-merge.ts";
import type { FileData } from "./protocol.ts";

interface Entry {
  /** The file before the step's first change (`null`: absent). */
  readonly base: FileData | null;
  /** The version each call of the step last made or was told about. */
  readonly known: Map<string, FileData | null>;
  /** The calls that changed the file in the step, in the order of their latest change. */
  by: string[];
}

/** A change made by another call after the version this call knew. */
export interface StepClash {
  /** The calls that changed the file before this one. */
  readonly earlier: string[];
  /** The version this call knew: the common base for a merge (`null`: absent). */
  readonly known: FileData | null;
}

export class StepLedger {
  /** The step this one runs in, and the label of the call (in that step) that runs this one. */
  readonly parent: { readonly ledger: StepLedger; readonly call: string } | undefined;
  readonly #entries = new WeakMap<object, Map<string, Entry>>();

  constructor(parent?: { ledger: StepLedger; call: string }) {
    this.parent = parent;
  }

  #entry(medium: object, key: string): Entry | undefined {
    return this.#entries.get(medium)?.get(key);
  }

  /** The levels a call's change counts at: this step under `call`, then each enclosing step under its call. */
  *levels(call: string): Generator<[StepLedger, string]> {
    yield [this, call];
    if (this.parent) yield* this.parent.ledger.levels(this.parent.call);
  }

  /** Did another call change `key` of `medium` (now `current`) after the version `call` knew? At the nearest level where one did. */
  clash(medium: object, key: string, call: string, current: FileData | null): StepClash | undefined {
    for (const [ledger, label] of this.levels(call)) {
      const entry = ledger.#entry(medium, key);
      if (!entry) continue;
      const known = entry.known.has(label) ? entry.known.get(label)! : entry.base;
      if (sameFile(known, current)) continue;
      return { earlier: entry.by.filter((c) => c !== label), known };
    }
    return undefined;
  }

  /**
   * Records that `call` now knows `key` as `after`: it changed it from
   * `before` (`changed`), or was told of the sibling's version.
   */
  note(medium: object, key: string, call: string, before: FileData | null, after: FileData | null, changed: boolean): void {
    for (const [ledger, label] of this.levels(call)) {
      let files = ledger.#entries.get(medium);
      if (!files) ledger.#entries.set(medium, (files = new Map()));
      let entry = files.get(key);
      if (!entry) {
        if (!changed) continue;
        files.set(key, (entry = { base: before, known: new Map(), by: [] }));
      }
      entry.known.set(label, after);
      if (changed) entry.by = [...entry.by.filter((c) => c !== label), label];
    }
  }
}

/**
 * The `configurable` key under which a `task` call hands its step's ledger to the subagent it runs (never
 * checkpointed: LangGraph keeps only its own keys).
 */
export const PARENT_STEP_KEY = "__deeptab_parent_step";

/** The enclosing step a graph step runs in, from its config (see {@link PARENT_STEP_KEY}). */
export function parentStep(configurable: Record<string, unknown> | undefined): { ledger: StepLedger; call: string } | undefined {
  const parent = configurable?.[PARENT_STEP_KEY] as { ledger?: unknown; call?: unknown } | undefined;
  return parent?.ledger instanceof StepLedger && typeof parent.call === "string" ? { ledger: parent.ledger, call: parent.call } : undefined;
}
