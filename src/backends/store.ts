/**
 * StoreBackend: files kept in a LangGraph BaseStore under a namespace, shared
 * by every thread (deeptab routes /memories/ here). Item key = path, value =
 * FileData. A mutation is staged and applied as one `store.batch` (which
 * IndexedDBStore runs as one transaction).
 *
 * Built for a tool call (`call`), a write, edit or delete (FileStore's
 * `once`) records its result in the same batch, in the item of the call's
 * thread under `["deeptab_effects", ...namespace]` (only the thread's latest
 * step that wrote is kept): the call re-run after a fault (its step run again)
 * gets that result back and changes nothing twice, as IndexedDB files do.
 */
import { AsyncBatchedStore, type BaseStore, type PutOperation } from "@langchain/langgraph/web";
import { byteLength } from "./file-ops.ts";
import { FileBackend } from "./file-backend.ts";
import {
  exclusive,
  mapSnapshot,
  pathsBelow,
  stagedMutation,
  type FileStore,
  type FileTx,
  type MutateOptions,
  type StoredFile,
} from "./file-store.ts";
import type { FileData } from "./protocol.ts";
import type { BackendRuntime, CallIdentity } from "./runtime.ts";
import { stepGuard, type StepGuard } from "./step-guard.ts";

const PAGE = 1_000;

function isFileData(v: unknown): v is FileData {
  return (
    typeof v === "object" && v !== null && typeof (v as FileData).content === "string" && typeof (v as FileData).modifiedAt === "string"
  );
}

/** FileData as a store item value. */
function asValue(data: FileData): Record<string, unknown> {
  return { ...data };
}

/** A thread's effect record: the step that wrote, and each of its calls' results by `call\0what`. */
interface Effects {
  step: string;
  results: Record<string, unknown>;
}

const EFFECTS_NS = "deeptab_effects";

class StoreFileStore implements FileStore {
  readonly #store: BaseStore;
  readonly #ns: string[];
  readonly #call: CallIdentity | undefined;

  constructor(store: BaseStore, namespace: string[], call: CallIdentity | undefined) {
    this.#store = store;
    this.#ns = namespace;
    this.#call = call;
  }

  async #data(path: string): Promise<FileData | undefined> {
    const item = await this.#store.get(this.#ns, path);
    return item && isFileData(item.value) ? item.value : undefined;
  }

  async get(path: string): Promise<StoredFile | undefined> {
    const data = await this.#data(path);
    return data ? { data, size: byteLength(data) } : undefined;
  }

  async snapshot() {
    const files = new Map<string, StoredFile>();
    const ns = this.#ns.join("/");
    for (let offset = 0; ; offset += PAGE) {
      const page = await this.#store.search(this.#ns, { limit: PAGE, offset });
      for (const item of page) {
        if (isFileData(item.value) && item.namespace.join("/") === ns)
          files.set(item.key, { data: item.value, size: byteLength(item.value) });
      }
      if (page.length < PAGE) return mapSnapshot(files);
    }
  }

  /**
   * A BaseStore has no transaction spanning a read and a batch, so units of
   * one namespace take a lock: within this realm per underlying store, and
   * across tabs and workers (a Web Lock) for a store with a database name
   * (IndexedDBStore).
   */
  mutate<T>(what: string, body: (tx: FileTx) => Promise<T>, options?: MutateOptions): Promise<T> {
    // Each graph run wraps the store in its own AsyncBatchedStore: the lock belongs to the store inside (a protected field).
    const store = innerStore(this.#store);
    const dbName = (store as { dbName?: unknown }).dbName;
    const ns = this.#ns.join(":");
    const lockName = typeof dbName === "string" ? `deeptab-store-files:${dbName}:${ns}` : undefined;
    return exclusive(store, ns, () => this.#mutate(what, body, options?.once ? this.#call : undefined), lockName);
  }

  async #mutate<T>(what: string, body: (tx: FileTx) => Promise<T>, call: CallIdentity | undefined): Promise<T> {
    const effectsNs = [EFFECTS_NS, ...this.#ns];
    const effectKey = `${call?.call}\0${what}`;
    const item = call && (await this.#store.get(effectsNs, call.thread));
    const recorded = item?.value as Effects | undefined;
    if (call && recorded?.step === call.step && effectKey in recorded.results) return recorded.results[effectKey] as T;
    let out: T | undefined;
    await stagedMutation(
      {
        get: (path) => this.#data(path),
        isDir: async (dir) => (await this.snapshot()).isDir(dir),
        below: async (dir) =>
          pathsBelow(
            [...(await this.snapshot()).entries()].map(([path]) => path),
            dir,
          ),
      },
      async (tx) => (out = await body(tx)),
      async (changes) => {
        const ops: PutOperation[] = [...changes].map(([key, data]) => ({ namespace: this.#ns, key, value: data ? asValue(data) : null }));
        if (call && ops.length > 0) {
          // The thread's record of an earlier step goes: that step was saved, or this one would not run.
          const results = recorded?.step === call.step ? recorded.results : {};
          ops.push({ namespace: effectsNs, key: call.thread, value: { step: call.step, results: { ...results, [effectKey]: out } } });
        }
        const store = this.#store;
        // LangGraph hands nodes an AsyncBatchedStore: it has no `batch` of its own, but gathers the
        // operations issued in one tick into one batch of the store it wraps.
        if (store instanceof AsyncBatchedStore) {
          await Promise.all(ops.map((op) => (op.value ? store.put(op.namespace, op.key, op.value) : store.delete(op.namespace, op.key))));
          return;
        }
        await store.batch(ops);
      },
    );
    return out as T;
  }
}

/** Deletes the effect records `namespace`'s files keep for the threads `thread` picks (a deleted thread's, its subagents'). */
export async function deleteStoreEffects(store: BaseStore, namespace: string[], thread: (id: string) => boolean): Promise<void> {
  const ns = [EFFECTS_NS, ...namespace];
  const keys: string[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = await store.search(ns, { limit: PAGE, offset });
    for (const item of page) if (item.namespace.length === ns.length && thread(item.key)) keys.push(item.key);
    if (page.length < PAGE) break;
  }
  if (keys.length) await store.batch(keys.map((key) => ({ namespace: ns, key, value: null })));
}

/** The store under the AsyncBatchedStore each graph run wraps it in (the one all runs share). */
function innerStore(store: BaseStore): BaseStore {
  return store instanceof AsyncBatchedStore ? (store as unknown as { store: BaseStore }).store : store;
}

/** The step guard of a tool call over `namespace` of `store` (see step-guard.ts); undefined outside a tool call. */
export function storeStepGuard(rt: BackendRuntime, store: BaseStore, namespace: string[]): StepGuard | undefined {
  return stepGuard(rt, innerStore(store), namespace.join("\0"));
}

export class StoreBackend extends FileBackend {
  /**
   * `call`: the tool call it serves (backends/runtime.ts callIdentity), so its write, edit and delete are done once;
   * `guard`: its step's ledger (`storeStepGuard`), so a sibling's change is never silently overwritten.
   */
  constructor(
    store: BaseStore,
    namespace: string[] = ["filesystem"],
    now: () => string = () => new Date().toISOString(),
    call?: CallIdentity,
    guard?: StepGuard,
  ) {
    super(new StoreFileStore(store, namespace, call), now, guard);
  }
}
