/**
 * The workspace's files at each turn's start and end, kept so a turn can be
 * reviewed and the workspace rewound. The app's workspace lives in IndexedDB
 * and is changed in place (not in checkpoints), so the worker records it at
 * the turn's boundaries, keyed by the user message's id (stable across the
 * branches that share it):
 *
 * - `before:<id>`: the workspace just before the message was sent;
 * - `after:<id>`: the workspace when the turn's last run ended.
 *
 * A manifest maps each tracked path to its content's SHA-256; contents are
 * stored once per thread by hash, so an unchanged file costs nothing more.
 * Both live in the IndexedDB store under `["workspace_snapshots", thread]`
 * and `["workspace_blobs", thread]`, deleted with the thread.
 */
import type { BaseStore } from "@langchain/langgraph-checkpoint";
import { fileDataFromBytes } from "../../backends/file-ops.ts";
import { isBackendError, type BackendProtocol, type FileData, type FileInfo } from "../../backends/protocol.ts";
import { isTracked, type Manifest } from "./workspace-changes.ts";

/** The namespaces snapshots live under (each followed by the thread's id). */
const SNAPSHOT_NAMESPACES = [["workspace_snapshots"], ["workspace_blobs"]] as const;
const [MANIFESTS, BLOBS] = SNAPSHOT_NAMESPACES;

/** A stored content: the file's text, or base64 for binary files. */
export type StoredContent = Pick<FileData, "content" | "encoding">;

/** The moment a snapshot records. */
export type SnapshotKey = `before:${string}` | `after:${string}`;

/** The workspace as read now: its manifest, the contents read (by hash; unchanged files are not read), the listing. */
export interface WorkspaceNow {
  manifest: Record<string, string>;
  blobs: Map<string, StoredContent>;
  listed: FileInfo[];
}

async function hashOf(blob: StoredContent): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`${blob.encoding}:${blob.content}`));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export class WorkspaceSnapshots {
  readonly #store: Pick<BaseStore, "get" | "batch" | "search">;
  /** Hashes known to be stored, by thread (a put of a known one is skipped). */
  readonly #stored = new Map<string, Set<string>>();
  /** By thread, each file's stamp (size and modification time) and hash as last recorded. */
  readonly #stamps = new Map<string, Map<string, { stamp: string; hash: string }>>();

  constructor(store: Pick<BaseStore, "get" | "batch" | "search">) {
    this.#store = store;
  }

  /**
   * The workspace as it is now: its manifest, and the content of each tracked file read (by hash). With `threadId`,
   * a file whose size and modification time are those of its last recording is not read again: its hash is reused
   * (its content is stored already), so a turn over a large, unchanged workspace reads only what changed.
   */
  async read(fs: BackendProtocol, threadId?: string): Promise<WorkspaceNow> {
    const listed = await fs.glob("**/*", "/");
    const stamps = threadId === undefined ? undefined : this.#stamps.get(threadId);
    const manifest: Record<string, string> = {};
    const blobs = new Map<string, StoredContent>();
    const toRead: string[] = [];
    for (const f of isBackendError(listed) ? [] : listed) {
      if (f.isDir || !isTracked(f.path)) continue;
      const known = f.modifiedAt ? stamps?.get(f.path) : undefined;
      if (known && known.stamp === `${f.size}|${f.modifiedAt}`) manifest[f.path] = known.hash;
      else toRead.push(f.path);
    }
    if (toRead.length && fs.downloadFiles) {
      for (const d of await fs.downloadFiles(toRead)) {
        if (!d.content) continue;
        const data = fileDataFromBytes(d.content, "");
        const blob = { content: data.content, encoding: data.encoding };
        const hash = await hashOf(blob);
        manifest[d.path] = hash;
        blobs.set(hash, blob);
      }
    }
    return { manifest, blobs, listed: isBackendError(listed) ? [] : listed };
  }

  /** Records the workspace now under `key`; returns its manifest. */
  async take(threadId: string, key: SnapshotKey, fs: BackendProtocol): Promise<Manifest> {
    const { manifest, blobs, listed } = await this.read(fs, threadId);
    const known = this.#stored.get(threadId) ?? new Set<string>();
    this.#stored.set(threadId, known);
    const fresh = [...blobs].filter(([hash]) => !known.has(hash));
    await this.#store.batch([
      ...fresh.map(([hash, blob]) => ({ namespace: [...BLOBS, threadId], key: hash, value: { ...blob } })),
      { namespace: [...MANIFESTS, threadId], key, value: { files: manifest, at: new Date().toISOString() } },
    ]);
    for (const [hash] of fresh) known.add(hash);
    // Each recorded file's stamp: the next recording reuses its hash while the stamp is unchanged.
    const stamps = new Map<string, { stamp: string; hash: string }>();
    for (const f of listed) {
      const hash = manifest[f.path];
      if (hash && f.modifiedAt) stamps.set(f.path, { stamp: `${f.size}|${f.modifiedAt}`, hash });
    }
    this.#stamps.set(threadId, stamps);
    return manifest;
  }

  /** The manifest recorded under `key`, if one was. */
  async manifest(threadId: string, key: SnapshotKey): Promise<Manifest | undefined> {
    const item = await this.#store.get([...MANIFESTS, threadId], key);
    const files = (item?.value as { files?: unknown } | undefined)?.files;
    return files && typeof files === "object" ? (files as Manifest) : undefined;
  }

  /** A stored content by its hash. */
  async blob(threadId: string, hash: string): Promise<StoredContent | undefined> {
    const value = (await this.#store.get([...BLOBS, threadId], hash))?.value as Partial<StoredContent> | undefined;
    if (typeof value?.content !== "string") return undefined;
    return { content: value.content, encoding: value.encoding === "base64" ? "base64" : "utf-8" };
  }

  /** Deletes every thread's recordings (Forget everything). */
  async forgetAll(): Promise<void> {
    this.#stored.clear();
    this.#stamps.clear();
    for (const ns of SNAPSHOT_NAMESPACES) {
      const items = await this.#store.search([...ns], { limit: 1_000_000 });
      if (items.length) await this.#store.batch(items.map((i) => ({ namespace: i.namespace, key: i.key, value: null })));
    }
  }

  /** Forgets a thread's snapshots (the thread is deleted). */
  async deleteThread(threadId: string): Promise<void> {
    this.#stored.delete(threadId);
    this.#stamps.delete(threadId);
    for (const ns of SNAPSHOT_NAMESPACES) {
      const items = await this.#store.search([...ns, threadId], { limit: 1_000_000 });
      if (items.length) await this.#store.batch(items.map((i) => ({ namespace: i.namespace, key: i.key, value: null })));
    }
  }
}
