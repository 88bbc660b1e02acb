/**
 * Model files for the in-tab model, kept in the origin's private file system
 * (OPFS): downloads that report bytes, speed and ETA, can be cancelled and
 * resumed (HTTP Range requests; a partial file is kept), check the storage
 * quota first, and are listed with their size and deleted by id. A model is
 * one GGUF file or the shards of a split one (llama-gguf-split's
 * `-00001-of-00003.gguf`), each at most wllama's 2 GB per file.
 *
 * Layout: `deeptab-models/<id>/meta.json` and `deeptab-models/<id>/<n>.gguf`.
 * Works on a page and in a worker.
 */
import type { ErrorInfo } from "../../core/errors.ts";
import { err, fail, ok, type Result } from "../../core/result.ts";
import { MAX_FILE_BYTES } from "./model-ids.ts";

export { MAX_FILE_BYTES, modelIdFor, shardUrls } from "./model-ids.ts";
/** Headroom kept free when checking the quota. */
const QUOTA_MARGIN = 64 * 1024 * 1024;
/** A partial download is committed to disk this often, so a crash keeps what came. */
const COMMIT_EVERY = 32 * 1024 * 1024;
const ROOT = "deeptab-models";

export interface ModelSource {
  /** Stable id (the directory name): letters, digits, `.`, `_`, `-`. */
  id: string;
  name: string;
  /** The file, or the shards in order. */
  urls: string[];
}

export interface CachedModel {
  id: string;
  name: string;
  urls: string[];
  /** Bytes on disk. */
  bytes: number;
  /** Bytes of the whole model, when known. */
  totalBytes: number | undefined;
  complete: boolean;
}

export interface DownloadProgress {
  loaded: number;
  total: number | undefined;
  bytesPerSecond: number;
  /** Seconds left at the current speed, when the total is known. */
  etaSeconds: number | undefined;
}

/**
 * Why a download stopped:
 * - `cancelled`: the signal aborted it (what arrived stays; a later download resumes);
 * - `quota`: the model will not fit in the storage the browser allows this site;
 * - `too_large`: a file is over {@link MAX_FILE_BYTES} (refused before any byte; nothing is kept);
 * - `network`: the server could not be reached, refused a browser request (CORS), or the body ended early;
 * - `http`: the server answered an error status;
 * - `storage`: the browser's storage failed (set by callers that catch a thrown storage error);
 * - `invalid`: the source is not one the store can download (bad id, no URLs).
 */
export type DownloadErrorCode = "cancelled" | "quota" | "too_large" | "network" | "http" | "storage" | "invalid";

/** A failed download: deeptab's coded {@link ErrorInfo} (`name` "DownloadError"). */
export type DownloadError = ErrorInfo & { code: DownloadErrorCode };

/** A failed download as an Err. */
function downloadFailed(code: DownloadErrorCode, message: string) {
  return fail(code, message, "DownloadError");
}

interface Meta {
  source: ModelSource;
  /** Expected size of each shard (undefined until a response said). */
  sizes: Array<number | undefined>;
  complete: boolean;
}

type Dir = FileSystemDirectoryHandle;

function formatGb(bytes: number): string {
  return `${(bytes / 1024 / 1024 / 1024).toFixed(2)} GB`;
}

function totalFrom(res: Response, start: number): number | undefined {
  const range = res.headers.get("content-range");
  const m = range ? /\/(\d+)\s*$/.exec(range) : null;
  if (m) return Number(m[1]);
  const length = res.headers.get("content-length");
  return length === null ? undefined : start + Number(length);
}

export interface ModelStoreOptions {
  root?: () => Promise<Dir>;
  fetch?: typeof fetch;
  estimate?: () => Promise<StorageEstimate>;
  now?: () => number;
}

export class ModelStore {
  readonly #root: () => Promise<Dir>;
  readonly #fetch: typeof fetch;
  readonly #estimate: () => Promise<StorageEstimate>;
  readonly #now: () => number;

  constructor(options: ModelStoreOptions = {}) {
    this.#root = options.root ?? (() => navigator.storage.getDirectory());
    this.#fetch = options.fetch ?? ((input, init) => fetch(input, init));
    this.#estimate = options.estimate ?? (() => navigator.storage.estimate());
    this.#now = options.now ?? (() => performance.now());
  }

  async #models(): Promise<Dir> {
    return (await this.#root()).getDirectoryHandle(ROOT, { create: true });
  }

  async #meta(dir: Dir): Promise<Meta | undefined> {
    try {
      const text = await (await (await dir.getFileHandle("meta.json")).getFile()).text();
      return JSON.parse(text) as Meta;
    } catch {
      return undefined;
    }
  }

  async #writeMeta(dir: Dir, meta: Meta): Promise<void> {
    const w = await (await dir.getFileHandle("meta.json", { create: true })).createWritable();
    await w.write(JSON.stringify(meta));
    await w.close();
  }

  async #shardSize(dir: Dir, i: number): Promise<number> {
    try {
      return (await (await dir.getFileHandle(`${i}.gguf`)).getFile()).size;
    } catch {
      return 0;
    }
  }

  async #describe(id: string, dir: Dir, meta: Meta): Promise<CachedModel> {
    let bytes = 0;
    for (let i = 0; i < meta.source.urls.length; i++) bytes += await this.#shardSize(dir, i);
    const known = meta.sizes.every((s) => s !== undefined);
    return {
      id,
      name: meta.source.name,
      urls: meta.source.urls,
      bytes,
      totalBytes: known ? meta.sizes.reduce<number>((a, b) => a + (b ?? 0), 0) : undefined,
      complete: meta.complete,
    };
  }

  /** Every model on disk, complete or partly downloaded. */
  async list(): Promise<CachedModel[]> {
    const root = await this.#models();
    const out: CachedModel[] = [];
    for await (const [name, handle] of root.entries()) {
      if (handle.kind !== "directory") continue;
      const meta = await this.#meta(handle as Dir);
      if (meta) out.push(await this.#describe(name, handle as Dir, meta));
    }
    return out.sort((a, b) => a.name.localeCompare(b.name));
  }

  /** The files of a downloaded model, in shard order (to pass to wllama). */
  async files(id: string): Promise<File[] | undefined> {
    try {
      const dir = await (await this.#models()).getDirectoryHandle(id);
      const meta = await this.#meta(dir);
      if (!meta?.complete) return undefined;
      return Promise.all(meta.source.urls.map(async (_, i) => (await dir.getFileHandle(`${i}.gguf`)).getFile()));
    } catch {
      return undefined;
    }
  }

  async delete(id: string): Promise<void> {
    await (await this.#models()).removeEntry(id, { recursive: true }).catch(() => undefined);
  }

  /**
   * Downloads a model, or the rest of it: shards already complete are kept,
   * a partial shard continues from its last byte (a Range request; a server
   * that ignores Range restarts it). Nothing is fetched when the model is
   * complete. Errors are values: `cancelled`, `quota` (it will not fit),
   * `too_large` (a file over 2 GB: refused on the size the server states,
   * before any byte, and nothing of the model is kept), `network` (the server cannot be reached
   * or refuses a browser request), `http`, `storage`.
   */
  async download(
    source: ModelSource,
    options: { onProgress?: (p: DownloadProgress) => void; signal?: AbortSignal } = {},
  ): Promise<Result<CachedModel, DownloadError>> {
    if (!/^[A-Za-z0-9._-]{1,120}$/.test(source.id) || source.urls.length === 0)
      return downloadFailed("invalid", `Invalid model id or URLs for ${source.name}.`);
    const dir = await (await this.#models()).getDirectoryHandle(source.id, { create: true });
    const meta: Meta = (await this.#meta(dir)) ?? { source, sizes: source.urls.map(() => undefined), complete: false };
    if (meta.complete) return ok(await this.#describe(source.id, dir, meta));
    await this.#writeMeta(dir, meta);

    // Sizes first (HEAD), for the quota check and the total of the progress.
    for (let i = 0; i < source.urls.length; i++) {
      if (meta.sizes[i] !== undefined) continue;
      try {
        const head = await this.#fetch(source.urls[i]!, { method: "HEAD", ...(options.signal ? { signal: options.signal } : {}) });
        if (head.ok && head.headers.get("content-length") !== null) meta.sizes[i] = Number(head.headers.get("content-length"));
      } catch (cause) {
        if (options.signal?.aborted) return downloadFailed("cancelled", "The download was cancelled.");
        return err(networkError(source.urls[i]!, cause));
      }
    }
    const tooBig = meta.sizes.find((s) => s !== undefined && s > MAX_FILE_BYTES);
    if (tooBig !== undefined) {
      // Refused before any byte: nothing of it stays listed (it could never load).
      await this.delete(source.id);
      return downloadFailed("too_large", tooLargeMessage(tooBig));
    }
    let have = 0;
    for (let i = 0; i < source.urls.length; i++) have += await this.#shardSize(dir, i);
    const total = meta.sizes.every((s) => s !== undefined) ? meta.sizes.reduce<number>((a, b) => a + (b ?? 0), 0) : undefined;
    if (total !== undefined) {
      const { quota = 0, usage = 0 } = await this.#estimate();
      const free = quota - usage;
      if (total - have + QUOTA_MARGIN > free) {
        return downloadFailed(
          "quota",
          `Not enough storage for this model: it needs ${formatGb(total - have)} more ` +
            `and the browser allows ${formatGb(Math.max(0, free))} for this site. ` +
            "Delete other models or threads, or choose a smaller model.",
        );
      }
    }
    await this.#writeMeta(dir, meta);

    const started = this.#now();
    let sessionBytes = 0;
    let speed = 0;
    const report = () => {
      const seconds = Math.max(0.001, (this.#now() - started) / 1000);
      speed = sessionBytes / seconds;
      options.onProgress?.({
        loaded: have,
        total,
        bytesPerSecond: speed,
        etaSeconds: total !== undefined && speed > 0 ? (total - have) / speed : undefined,
      });
    };
    report();
    for (let i = 0; i < source.urls.length; i++) {
      const done = await this.#shardSize(dir, i);
      if (meta.sizes[i] !== undefined && done === meta.sizes[i]) continue;
      const outcome = await this.#downloadShard(dir, i, source.urls[i]!, done, meta, options.signal, (n) => {
        have += n;
        sessionBytes += n;
        report();
      });
      if (!outcome.ok) {
        if (outcome.error.code === "too_large") await this.delete(source.id);
        else await this.#writeMeta(dir, meta).catch(() => undefined);
        return outcome;
      }
    }
    meta.complete = true;
    await this.#writeMeta(dir, meta);
    return ok(await this.#describe(source.id, dir, meta));
  }

  async #downloadShard(
    dir: Dir,
    i: number,
    url: string,
    start: number,
    meta: Meta,
    signal: AbortSignal | undefined,
    onBytes: (n: number) => void,
  ): Promise<Result<null, DownloadError>> {
    let res: Response;
    try {
      res = await this.#fetch(url, { ...(start > 0 ? { headers: { Range: `bytes=${start}-` } } : {}), ...(signal ? { signal } : {}) });
    } catch (cause) {
      if (signal?.aborted) return downloadFailed("cancelled", "The download was cancelled; it resumes where it stopped.");
      return err(networkError(url, cause));
    }
    if (res.status === 416 && meta.sizes[i] === start) return ok(null);
    if (!res.ok || !res.body)
      return err({
        ...downloadFailed("http", `The server answered ${res.status} ${res.statusText} for ${url}.`).error,
        status: res.status,
      });
    const resumed = res.status === 206;
    let offset = resumed ? start : 0;
    meta.sizes[i] = totalFrom(res, offset) ?? meta.sizes[i];
    if ((meta.sizes[i] ?? 0) > MAX_FILE_BYTES) {
      await res.body.cancel().catch(() => undefined);
      return downloadFailed("too_large", tooLargeMessage(meta.sizes[i]!));
    }
    if (!resumed && start > 0) onBytes(-start);
    const handle = await dir.getFileHandle(`${i}.gguf`, { create: true });
    let writable = await handle.createWritable({ keepExistingData: resumed });
    if (resumed) await writable.seek(offset);
    let sinceCommit = 0;
    const reader = res.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        await writable.write(value as Uint8Array<ArrayBuffer>);
        offset += value.length;
        sinceCommit += value.length;
        onBytes(value.length);
        if (sinceCommit >= COMMIT_EVERY) {
          await writable.close();
          writable = await handle.createWritable({ keepExistingData: true });
          await writable.seek(offset);
          sinceCommit = 0;
        }
      }
      await writable.close();
    } catch (cause) {
      // Keep what arrived: the next download resumes from it.
      await writable.close().catch(() => undefined);
      if (signal?.aborted) return downloadFailed("cancelled", "The download was cancelled; it resumes where it stopped.");
      if (cause instanceof DOMException && cause.name === "QuotaExceededError")
        return downloadFailed("quota", "The browser's storage for this site is full; delete models or threads and resume.");
      return err(networkError(url, cause));
    }
    if (meta.sizes[i] !== undefined && offset !== meta.sizes[i])
      return downloadFailed("network", `The download of ${url} ended early (${offset} of ${meta.sizes[i]} bytes); resume it.`);
    meta.sizes[i] = offset;
    return ok(null);
  }
}

function tooLargeMessage(bytes: number): string {
  return (
    `One file of this model is ${formatGb(bytes)}; the in-tab engine reads files of at most 2 GB. ` +
    "Use a split GGUF (llama-gguf-split, shards of at most 2 GB) or a smaller quantization."
  );
}

function networkError(url: string, cause: unknown): DownloadError {
  const why = cause instanceof Error ? cause.message : String(cause);
  return {
    name: "DownloadError",
    code: "network",
    message: `Could not reach ${new URL(url).host} (${why}). Check the connection; the server must allow downloads from a browser (CORS).`,
  };
}
