/**
 * Opening and failing of deeptab's IndexedDB databases (checkpoints, the
 * LangGraph store, the workspace files): one connection
 * per database, reopened lazily after another tab upgrades or deletes it, and
 * IndexedDB failures normalised into {@link StorageError}s.
 */
import { wrap, type DBSchema, type IDBPDatabase } from "idb";
import { isQuotaError, StorageError } from "./errors.ts";

/** Creates or migrates the object stores; runs inside the version-change transaction `tx`. */
export type Upgrade = (db: IDBDatabase, oldVersion: number, tx: IDBTransaction) => void;

function defaultFactory(): IDBFactory {
  const factory = (globalThis as { indexedDB?: IDBFactory }).indexedDB;
  if (!factory) throw new StorageError("unavailable", "IndexedDB is not available in this context");
  return factory;
}

/**
 * Opens `name` at `version`. The connection closes itself on `versionchange`
 * (another tab upgrading or deleting the database) and then calls `onClose`.
 *
 * @throws {StorageError} `unavailable` when IndexedDB is missing, refuses to
 *   open, holds a newer schema, or another connection blocks the upgrade.
 */
export async function openIdb<S extends DBSchema>(
  name: string,
  version: number,
  factory: IDBFactory | undefined,
  upgrade: Upgrade,
  onClose: () => void,
): Promise<IDBPDatabase<S>> {
  let request: IDBOpenDBRequest;
  try {
    request = (factory ?? defaultFactory()).open(name, version);
  } catch (err) {
    if (err instanceof StorageError) throw err;
    throw new StorageError("unavailable", `cannot open IndexedDB "${name}": ${String(err)}`, { cause: err });
  }
  return new Promise<IDBPDatabase<S>>((resolve, reject) => {
    request.addEventListener("upgradeneeded", (event) => {
      const tx = request.transaction;
      if (!tx) return;
      try {
        upgrade(request.result, event.oldVersion, tx);
      } catch (err) {
        tx.abort();
        reject(err instanceof StorageError ? err : new StorageError("unavailable", `cannot upgrade IndexedDB "${name}": ${String(err)}`, { cause: err }));
      }
    });
    request.addEventListener("blocked", () => {
      reject(new StorageError("unavailable", `IndexedDB "${name}" upgrade is blocked by another open tab`));
    });
    request.addEventListener("error", (event) => {
      event.preventDefault();
      const err = request.error;
      reject(new StorageError("unavailable", `cannot open IndexedDB "${name}": ${err?.name ?? "error"}: ${err?.message ?? ""}`, { cause: err }));
    });
    request.addEventListener("success", () => {
      const raw = request.result;
      try {
        resolve(wrap(raw) as IDBPDatabase<S>);
      } catch (err) {
        raw.close();
        reject(new StorageError("unavailable", `cannot use IndexedDB "${name}": ${String(err)}`, { cause: err }));
        return;
      }
      raw.addEventListener("versionchange", () => {
        raw.close();
        onClose();
      });
      raw.addEventListener("close", onClose);
    });
  });
}

/**
 * A lazily opened, shared connection: every caller awaits the same open; a
 * failed open or a closed connection is forgotten, so the next call retries.
 */
export class LazyConnection<S extends DBSchema> {
  #db: Promise<IDBPDatabase<S>> | undefined;
  readonly #open: (onClose: () => void) => Promise<IDBPDatabase<S>>;

  constructor(open: (onClose: () => void) => Promise<IDBPDatabase<S>>) {
    this.#open = open;
  }

  get(): Promise<IDBPDatabase<S>> {
    if (!this.#db) {
      const opening = this.#open(() => {
        if (this.#db === opening) this.#db = undefined;
      });
      this.#db = opening;
      opening.catch(() => {
        if (this.#db === opening) this.#db = undefined;
      });
    }
    return this.#db;
  }

  /** Closes the connection (if open); the next `get` reopens it. */
  async close(): Promise<void> {
    const db = this.#db;
    this.#db = undefined;
    if (db) (await db.catch(() => undefined))?.close();
  }
}

/**
 * Runs `body` against a transaction and waits for it to commit. Anything
 * IndexedDB throws becomes a {@link StorageError}: `quota_exceeded` when the
 * origin is out of quota (the transaction rolled back, nothing was written),
 * `transaction_failed` otherwise. Errors thrown by `body` itself abort the
 * transaction and propagate unchanged.
 */
export async function inTransaction<T>(
  what: string,
  tx: { done: Promise<void>; abort(): void; error: DOMException | null },
  body: () => Promise<T>,
): Promise<T> {
  let result: T;
  try {
    result = await body();
  } catch (err) {
    try {
      tx.abort();
    } catch {
      // already finished or aborted
    }
    await tx.done.catch(() => undefined);
    throw normalise(what, err, tx.error);
  }
  try {
    await tx.done;
  } catch (err) {
    throw normalise(what, err, tx.error);
  }
  return result;
}

function normalise(what: string, err: unknown, txError: unknown): unknown {
  if (err instanceof StorageError) return err;
  const name = typeof err === "object" && err !== null && "name" in err ? String((err as { name: unknown }).name) : "";
  if (isQuotaError(err, txError)) {
    return new StorageError("quota_exceeded", `${what}: storage quota exceeded; the transaction was rolled back and nothing was written`, { cause: err });
  }
  const isIdb = err instanceof DOMException || name === "AbortError" || name === "TransactionInactiveError" || name === "InvalidStateError";
  if (!isIdb) return err;
  const detail = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  return new StorageError("transaction_failed", `${what}: ${detail}`, { cause: err });
}
