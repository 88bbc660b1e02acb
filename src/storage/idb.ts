/**
 * The one way deeptab opens and uses its IndexedDB databases (checkpoints,
 * the LangGraph store, the workspace files): `idb`'s `openDB` behind a lazy,
 * shared connection, one transaction runner, and one error normalizer.
 *
 * - {@link LazyConnection}: every caller awaits the same open; the connection
 *   closes itself when another tab upgrades or deletes the database
 *   (`blocking`) or the browser terminates it, and the next call reopens.
 * - {@link runTransaction}: one transaction, run to its commit. A connection
 *   closed under us is reopened once. IndexedDB failures become
 *   {@link StorageError}s; anything else thrown by the body aborts the
 *   transaction and propagates unchanged.
 * - {@link toStorageError}: the normalizer.
 */
import { openDB, type DBSchema, type IDBPDatabase, type IDBPTransaction, type StoreNames } from "idb";
import { StorageError } from "./errors.ts";

/** Creates or migrates object stores inside the version-change transaction. */
export type Upgrade<S extends DBSchema> = (
  db: IDBPDatabase<S>,
  oldVersion: number,
  tx: IDBPTransaction<S, StoreNames<S>[], "versionchange">,
) => void;

function errorName(err: unknown): string {
  return typeof err === "object" && err !== null && "name" in err ? String((err as { name: unknown }).name) : "";
}

/** True when `err` (or the transaction's own error) is a quota failure. */
function isQuotaError(...errs: unknown[]): boolean {
  return errs.some((e) => errorName(e) === "QuotaExceededError");
}

const IDB_ERROR_NAMES = new Set([
  "AbortError",
  "TransactionInactiveError",
  "InvalidStateError",
  "DataError",
  "DataCloneError",
  "ReadOnlyError",
  "NotFoundError",
  "ConstraintError",
  "UnknownError",
  "VersionError",
]);

/** Is this something IndexedDB threw (a DOMException of its kinds)? */
function isIdbError(err: unknown): boolean {
  return (typeof DOMException !== "undefined" && err instanceof DOMException) || IDB_ERROR_NAMES.has(errorName(err));
}

/**
 * Normalizes a failure of `operation`: a StorageError stays as it is; a quota
 * failure (of the request or of the transaction, `txError`) becomes
 * `quota_exceeded`; any other IndexedDB error becomes `transaction_failed`.
 * Returns undefined for errors that did not come from IndexedDB.
 */
export function toStorageError(operation: string, err: unknown, txError?: unknown): StorageError | undefined {
  if (err instanceof StorageError) return err;
  if (isQuotaError(err, txError)) {
    return new StorageError(
      "quota_exceeded",
      `${operation}: storage quota exceeded; the transaction was rolled back and nothing of it was written`,
      { cause: err },
    );
  }
  if (!isIdbError(err) && !isIdbError(txError)) return undefined;
  const detail = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  return new StorageError("transaction_failed", `${operation}: ${detail}`, { cause: err });
}

/**
 * Opens `name` at `version` with `idb`'s `openDB` (the global `indexedDB`).
 *
 * @throws {StorageError} `unavailable` when IndexedDB is missing or refuses to
 *   open, the stored schema is newer than `version`, the upgrade fails, or
 *   another tab's connection blocks the upgrade.
 */
function openDatabase<S extends DBSchema>(
  name: string,
  version: number,
  upgrade: Upgrade<S>,
  onClose: () => void,
): Promise<IDBPDatabase<S>> {
  if (typeof indexedDB === "undefined")
    return Promise.reject(new StorageError("unavailable", "IndexedDB is not available in this context"));
  return new Promise<IDBPDatabase<S>>((resolve, reject) => {
    let settled = false;
    let upgradeError: unknown;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      fn();
    };
    let opening: Promise<IDBPDatabase<S>>;
    try {
      opening = openDB<S>(name, version, {
        upgrade(db, oldVersion, _newVersion, tx) {
          try {
            upgrade(db, oldVersion, tx);
          } catch (err) {
            // Throwing out of the event handler would surface as an uncaught error (fatal in a worker).
            upgradeError = err;
            tx.abort();
          }
        },
        blocked() {
          settle(() => reject(new StorageError("unavailable", `IndexedDB "${name}" upgrade is blocked by another open tab`)));
        },
        blocking() {
          void opening.then((db) => db.close());
          onClose();
        },
        terminated: onClose,
      });
    } catch (err) {
      reject(new StorageError("unavailable", `cannot open IndexedDB "${name}": ${String(err)}`, { cause: err }));
      return;
    }
    opening.then(
      (db) => {
        if (settled) db.close();
        else settle(() => resolve(db));
      },
      (err: unknown) => {
        const cause = upgradeError ?? err;
        const why = upgradeError !== undefined ? "cannot upgrade" : "cannot open";
        const detail = cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
        settle(() =>
          reject(
            cause instanceof StorageError ? cause : new StorageError("unavailable", `${why} IndexedDB "${name}": ${detail}`, { cause }),
          ),
        );
      },
    );
  });
}

/**
 * A lazily opened, shared connection: every caller awaits the same open; a
 * failed open or a closed connection is forgotten, so the next call retries.
 */
export class LazyConnection<S extends DBSchema> {
  #db: Promise<IDBPDatabase<S>> | undefined;
  readonly #open: (onClose: () => void) => Promise<IDBPDatabase<S>>;
  readonly #onClose: (() => void) | undefined;

  /** `onClose` runs whenever the connection is lost (another tab's upgrade, termination). */
  constructor(name: string, version: number, upgrade: Upgrade<S>, onClose?: () => void) {
    this.#open = (closed) => openDatabase<S>(name, version, upgrade, closed);
    this.#onClose = onClose;
  }

  get(): Promise<IDBPDatabase<S>> {
    if (!this.#db) {
      const opening = this.#open(() => {
        if (this.#db === opening) this.#db = undefined;
        this.#onClose?.();
      });
      this.#db = opening;
      opening.catch(() => {
        if (this.#db === opening) this.#db = undefined;
      });
    }
    return this.#db;
  }

  /** Forgets the connection (after it was closed under us); the next `get` reopens. */
  reset(): void {
    this.#db = undefined;
  }

  /** Closes the connection (if open); the next `get` reopens it. */
  async close(): Promise<void> {
    const db = this.#db;
    this.#db = undefined;
    if (db) (await db.catch(() => undefined))?.close();
  }
}

/**
 * Runs `body` in one transaction over `stores` and waits for the commit.
 * `body` must only await requests of `tx` (any other await lets the
 * transaction auto-commit early). Any failure aborts the transaction, so
 * none of its writes persist. IndexedDB failures are rethrown as
 * {@link StorageError}s (see {@link toStorageError}); other errors of `body`
 * propagate unchanged.
 */
export async function runTransaction<S extends DBSchema, N extends StoreNames<S>[], M extends IDBTransactionMode, T>(
  conn: LazyConnection<S>,
  stores: N,
  mode: M,
  operation: string,
  body: (tx: IDBPTransaction<S, N, M>) => Promise<T>,
): Promise<T> {
  let tx: IDBPTransaction<S, N, M>;
  try {
    tx = (await conn.get()).transaction(stores, mode);
  } catch (first) {
    if (first instanceof StorageError) throw first;
    // The connection was closed under us (another tab, a reset): reopen once.
    conn.reset();
    try {
      tx = (await conn.get()).transaction(stores, mode);
    } catch (again) {
      throw toStorageError(operation, again) ?? new StorageError("transaction_failed", `${operation}: ${String(again)}`, { cause: again });
    }
  }
  const done = tx.done;
  done.catch(() => undefined);
  try {
    const result = await body(tx);
    await done;
    return result;
  } catch (err) {
    const txError = tx.error;
    try {
      tx.abort();
    } catch {
      // already committed or aborted
    }
    throw toStorageError(operation, err, txError) ?? err;
  }
}

/** The distinct keys of an index, in order (a unique key cursor). */
export async function uniqueIndexKeys<K extends IDBValidKey>(index: {
  openKeyCursor(query: null, direction: "nextunique"): Promise<{ key: K; continue(): Promise<unknown> } | null>;
}): Promise<K[]> {
  const keys: K[] = [];
  let cursor = await index.openKeyCursor(null, "nextunique");
  while (cursor) {
    keys.push(cursor.key);
    cursor = (await cursor.continue()) as typeof cursor;
  }
  return keys;
}

/**
 * Marks a request's promise as handled: when a later request in the same
 * transaction throws synchronously, the transaction aborts and the requests
 * already issued reject with AbortError after nobody awaits them.
 */
export function settle<T>(request: Promise<T>): Promise<T> {
  request.catch(() => undefined);
  return request;
}
