/**
 * The filesystem the offline shell (just-bash) sees: the backend's own
 * FileStore at `/`, so `cat /notes.md` and `read_file("/notes.md")` read the
 * same bytes and a file a command writes is at once visible to the file
 * tools. Three things are the shell's own and never reach the store:
 *
 * - `/tmp`, the session's scratch space: a {@link ScratchStore} in memory,
 *   kept between commands, holding at most 64 MiB altogether (beyond it a
 *   write fails with `ENOSPC`, nothing of it written);
 * - `/dev/null` (reads empty, swallows writes);
 * - empty directories (`mkdir` without files below): the store keeps files
 *   only and implies their directories, so an empty directory lives as long
 *   as the session.
 *
 * Every write is one atomic unit of its store: a file is replaced whole or not
 * at all. A file written here (workspace or `/tmp`) may hold at most
 * `maxFileBytes` (10 MiB by default): beyond it the write fails with `EFBIG`
 * and nothing is written. `mv` moves a file of any size.
 *
 * `stat` gives each file an identity (its path: the store has no links), so
 * `mv` and `cp` onto an existing file work; a directory's time is that of the
 * newest file below it (or when the session made it), never 1970.
 *
 * Errors are Node-style (`ENOENT: no such file or directory, open '/x'`,
 * with a `code`), which just-bash's commands understand.
 */
import type { BufferEncoding, CpOptions, FileContent, FsStat, IFileSystem, MkdirOptions, RmOptions } from "just-bash/browser";
import { fileDataFromBytes, fileDataToBytes, MAX_FILE_WRITE_BYTES, sizeText } from "../file-ops.ts";
import type { FileStore, FileTx } from "../file-store.ts";
import { dirPrefix, isWithin, normalizePath } from "../paths.ts";
import { isBackendError } from "../protocol.ts";
import type { ShellSession } from "./shell-session.ts";

type Code = "ENOENT" | "EISDIR" | "ENOTDIR" | "EEXIST" | "ENOTEMPTY" | "EINVAL" | "EPERM" | "EFBIG";
const TEXT: Record<Code, string> = {
  ENOENT: "no such file or directory",
  EISDIR: "illegal operation on a directory",
  ENOTDIR: "not a directory",
  EEXIST: "file already exists",
  ENOTEMPTY: "directory not empty",
  EINVAL: "invalid argument",
  EPERM: "operation not permitted",
  EFBIG: "file too large",
};

function fsError(code: Code, op: string, path: string, detail?: string): Error {
  return Object.assign(new Error(`${code}: ${detail ?? TEXT[code]}, ${op} '${path}'`), { code });
}

const DEV_NULL = "/dev/null";
/** Directories that always exist and are never the store's. */
const FIXED_DIRS = new Set(["/", "/tmp", "/dev"]);
const encoder = new TextEncoder();
const decoder = new TextDecoder();

function encodingOf(options?: { encoding?: BufferEncoding | null } | BufferEncoding | null): BufferEncoding | undefined {
  return typeof options === "string" ? options : (options?.encoding ?? undefined);
}

function latin1(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return s;
}

function decode(bytes: Uint8Array, encoding: BufferEncoding | undefined): string {
  switch (encoding) {
    case "binary":
    case "latin1":
      return latin1(bytes);
    case "base64":
      return btoa(latin1(bytes));
    case "hex":
      return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    default:
      return decoder.decode(bytes);
  }
}

/** just-bash writes text with "utf8" and bytes as a latin1-shaped string with "binary". */
function toBytes(content: FileContent, encoding: BufferEncoding | undefined): Uint8Array {
  if (typeof content !== "string") return content;
  if (encoding !== "binary" && encoding !== "latin1") return encoder.encode(content);
  // A plain loop: Uint8Array.from with a mapping function takes seconds for a few MB.
  const bytes = new Uint8Array(content.length);
  for (let i = 0; i < content.length; i++) bytes[i] = content.charCodeAt(i) & 0xff;
  return bytes;
}

/** POSIX resolution of `path` against `base` (`..` and `.` resolved). */
export function resolveShellPath(base: string, path: string): string {
  const out: string[] = [];
  for (const seg of (path.startsWith("/") ? path : `${base}/${path}`).split("/")) {
    if (!seg || seg === ".") continue;
    if (seg === "..") out.pop();
    else out.push(seg);
  }
  return "/" + out.join("/");
}

/** A normalized path in the session's /tmp. */
function isTmp(key: string): boolean {
  return key === "/tmp" || key.startsWith("/tmp/");
}

function fileStat(size: number, mtime: string, identity: string): FsStat {
  return { isFile: true, isDirectory: false, isSymbolicLink: false, mode: 0o644, size, mtime: new Date(mtime), identity };
}

function dirStat(mtime: string, identity: string): FsStat {
  return { isFile: false, isDirectory: true, isSymbolicLink: false, mode: 0o755, size: 0, mtime: new Date(mtime), identity };
}

export class ShellFs implements IFileSystem {
  readonly #store: FileStore;
  readonly #session: ShellSession;
  readonly #now: () => string;
  readonly #maxFileBytes: number;

  constructor(store: FileStore, session: ShellSession, now: () => string, maxFileBytes = MAX_FILE_WRITE_BYTES) {
    this.#store = store;
    this.#session = session;
    this.#now = now;
    this.#maxFileBytes = maxFileBytes;
  }

  /** The store key of a shell path, or an EINVAL error for names the store refuses. */
  #key(path: string, op: string): string {
    const key = normalizePath(path);
    if (isBackendError(key)) throw fsError("EINVAL", op, path, key.message.replace(/^Error: /, ""));
    return key;
  }

  /** The store a normalized path lives in: the session's /tmp, or the workspace. */
  #storeOf(key: string): FileStore {
    return isTmp(key) ? this.#session.tmp : this.#store;
  }

  async #isDir(key: string): Promise<boolean> {
    if (FIXED_DIRS.has(key) || this.#session.dirs.has(key)) return true;
    return (await this.#storeOf(key).snapshot()).isDir(key);
  }

  /** A directory's time: its newest file's, else when the session made it, else the session's start. */
  async #dirTime(key: string): Promise<string> {
    let newest = this.#session.dirs.get(key) ?? "";
    const prefix = dirPrefix(key);
    for (const [path, file] of (await this.#storeOf(key).snapshot()).entries()) {
      if (path.startsWith(prefix) && file.data.modifiedAt > newest) newest = file.data.modifiedAt;
    }
    return newest || this.#session.createdAt;
  }

  async #bytes(path: string, op: string): Promise<Uint8Array> {
    if (path === DEV_NULL) return new Uint8Array();
    const key = this.#key(path, op);
    const file = await this.#storeOf(key).get(key);
    if (file) return fileDataToBytes(file.data);
    throw fsError((await this.#isDir(key)) ? "EISDIR" : "ENOENT", op, path);
  }

  readFile(path: string, options?: { encoding?: BufferEncoding | null } | BufferEncoding): Promise<string> {
    return this.#bytes(path, "open").then((bytes) => decode(bytes, encodingOf(options)));
  }

  readFileBuffer(path: string): Promise<Uint8Array> {
    return this.#bytes(path, "open");
  }

  #checkSize(path: string, size: number): void {
    if (size > this.#maxFileBytes)
      throw fsError("EFBIG", "write", path, `file too large: ${sizeText(size)}, a file may hold at most ${sizeText(this.#maxFileBytes)}`);
  }

  /**
   * Stores bytes at `key` in one unit of its store (`tx`, when given, must be
   * that store's): refused below a file, onto a directory, or over the size cap
   * (unless `capped` is false: a move makes no new bytes).
   */
  async #put(key: string, bytes: Uint8Array, tx?: FileTx, capped = true): Promise<void> {
    if (capped) this.#checkSize(key, bytes.length);
    const write = async (t: FileTx) => {
      if (FIXED_DIRS.has(key) || this.#session.dirs.has(key) || (await t.isDir(key))) throw fsError("EISDIR", "open", key);
      for (let i = key.indexOf("/", 1); i !== -1; i = key.indexOf("/", i + 1)) {
        if (await t.get(key.slice(0, i))) throw fsError("ENOTDIR", "open", key);
      }
      const prev = await t.get(key);
      await t.put(key, fileDataFromBytes(bytes, this.#now(), prev?.createdAt));
    };
    if (tx) await write(tx);
    else await this.#storeOf(key).mutate(`shell write ${key}`, write);
  }

  async writeFile(path: string, content: FileContent, options?: { encoding?: BufferEncoding } | BufferEncoding): Promise<void> {
    if (path === DEV_NULL) return;
    await this.#put(this.#key(path, "open"), toBytes(content, encodingOf(options)));
  }

  async appendFile(path: string, content: FileContent, options?: { encoding?: BufferEncoding } | BufferEncoding): Promise<void> {
    if (path === DEV_NULL) return;
    const key = this.#key(path, "open");
    const add = toBytes(content, encodingOf(options));
    await this.#storeOf(key).mutate(`shell append ${key}`, async (tx) => {
      const prev = await tx.get(key);
      const old = prev ? fileDataToBytes(prev) : new Uint8Array();
      this.#checkSize(key, old.length + add.length);
      const next = new Uint8Array(old.length + add.length);
      next.set(old);
      next.set(add, old.length);
      await this.#put(key, next, tx);
    });
  }

  async exists(path: string): Promise<boolean> {
    if (path === DEV_NULL) return true;
    const key = normalizePath(path);
    if (isBackendError(key)) return false;
    return (await this.#storeOf(key).get(key)) !== undefined || (await this.#isDir(key));
  }

  async stat(path: string): Promise<FsStat> {
    if (path === DEV_NULL) return { ...fileStat(0, this.#session.createdAt, "dev:null"), mode: 0o666 };
    const key = this.#key(path, "stat");
    const file = await this.#storeOf(key).get(key);
    if (file) return fileStat(file.size, file.data.modifiedAt, `file:${key}`);
    if (await this.#isDir(key)) return dirStat(await this.#dirTime(key), `dir:${key}`);
    throw fsError("ENOENT", "stat", path);
  }

  lstat(path: string): Promise<FsStat> {
    return this.stat(path);
  }

  async realpath(path: string): Promise<string> {
    if (!(await this.exists(path))) throw fsError("ENOENT", "realpath", path);
    return path;
  }

  async chmod(path: string): Promise<void> {
    await this.stat(path);
  }

  async utimes(path: string): Promise<void> {
    await this.stat(path);
  }

  async mkdir(path: string, options?: MkdirOptions): Promise<void> {
    const key = this.#key(path, "mkdir");
    if (await this.#storeOf(key).get(key)) throw fsError("EEXIST", "mkdir", path);
    if (await this.#isDir(key)) {
      if (options?.recursive) return;
      throw fsError("EEXIST", "mkdir", path);
    }
    const parent = key.slice(0, key.lastIndexOf("/")) || "/";
    if (!(await this.#isDir(parent))) {
      if (!options?.recursive) throw fsError((await this.#storeOf(parent).get(parent)) ? "ENOTDIR" : "ENOENT", "mkdir", path);
      await this.mkdir(parent, { recursive: true });
    }
    this.#session.dirs.set(key, this.#now());
  }

  /** Names directly below a directory: implied by files, or empty directories of the session. */
  async #children(dir: string): Promise<Array<{ name: string; isDir: boolean }>> {
    const prefix = dirPrefix(dir);
    const out = new Map<string, boolean>();
    for (const [path] of (await this.#storeOf(dir).snapshot()).entries()) {
      if (!path.startsWith(prefix)) continue;
      const rest = path.slice(prefix.length);
      const slash = rest.indexOf("/");
      out.set(slash === -1 ? rest : rest.slice(0, slash), slash !== -1 || out.get(rest) === true);
    }
    for (const d of this.#session.dirs.keys()) {
      if (d.startsWith(prefix) && !d.slice(prefix.length).includes("/")) out.set(d.slice(prefix.length), true);
    }
    return [...out].map(([name, isDir]) => ({ name, isDir })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  async readdir(path: string): Promise<string[]> {
    return (await this.readdirWithFileTypes(path)).map((e) => e.name);
  }

  async readdirWithFileTypes(
    path: string,
  ): Promise<Array<{ name: string; isFile: boolean; isDirectory: boolean; isSymbolicLink: boolean }>> {
    const key = this.#key(path, "scandir");
    if (await this.#storeOf(key).get(key)) throw fsError("ENOTDIR", "scandir", path);
    if (!(await this.#isDir(key))) throw fsError("ENOENT", "scandir", path);
    return (await this.#children(key)).map(({ name, isDir }) => ({ name, isFile: !isDir, isDirectory: isDir, isSymbolicLink: false }));
  }

  async rm(path: string, options?: RmOptions): Promise<void> {
    const key = this.#key(path, "rm");
    const store = this.#storeOf(key);
    const snapshot = await store.snapshot();
    if (snapshot.get(key)) {
      await store.mutate(`shell rm ${key}`, (tx) => tx.delete(key));
      return;
    }
    if (!(await this.#isDir(key))) {
      if (options?.force) return;
      throw fsError("ENOENT", "rm", path);
    }
    const below = [...snapshot.entries()].map(([p]) => p).filter((p) => isWithin(p, key) && p !== key);
    const emptyBelow = [...this.#session.dirs.keys()].filter((d) => isWithin(d, key) && d !== key);
    if ((below.length || emptyBelow.length) && !options?.recursive) throw fsError("ENOTEMPTY", "rm", path);
    if (below.length) {
      await store.mutate(`shell rm -r ${key}`, async (tx) => {
        for (const p of below) await tx.delete(p);
      });
    }
    for (const d of [...emptyBelow, key]) this.#session.dirs.delete(d);
  }

  async cp(src: string, dest: string, options?: CpOptions): Promise<void> {
    const from = this.#key(src, "cp");
    const to = this.#key(dest, "cp");
    const snapshot = await this.#storeOf(from).snapshot();
    const file = snapshot.get(from);
    if (file) return this.#put(to, fileDataToBytes(file.data));
    if (!(await this.#isDir(from))) throw fsError("ENOENT", "cp", src);
    if (!options?.recursive) throw fsError("EISDIR", "cp", src);
    if (isWithin(to, from)) throw fsError("EINVAL", "cp", dest, "cannot copy a directory into itself");
    const files = [...snapshot.entries()].filter(([p]) => isWithin(p, from) && p !== from);
    for (const [p, f] of files) this.#checkSize(to + p.slice(from.length), f.size);
    if (files.length) {
      await this.#storeOf(to).mutate(`shell cp -r ${from}`, async (tx) => {
        for (const [p, f] of files) await this.#put(to + p.slice(from.length), fileDataToBytes(f.data), tx);
      });
    }
    const now = this.#now();
    for (const d of [...this.#session.dirs.keys()]) if (isWithin(d, from)) this.#session.dirs.set(to + d.slice(from.length), now);
    if (!files.length) this.#session.dirs.set(to, now);
  }

  async mv(src: string, dest: string): Promise<void> {
    const from = this.#key(src, "rename");
    const to = this.#key(dest, "rename");
    if (from === to) return;
    if (isWithin(to, from)) throw fsError("EINVAL", "rename", dest, "cannot move a directory into itself");
    if (isTmp(from) !== isTmp(to)) {
      // Between /tmp and the workspace: a copy, then the removal (two units, as across filesystems).
      await this.cp(src, dest, { recursive: true });
      return this.rm(src, { recursive: true, force: true });
    }
    const store = this.#storeOf(from);
    const snapshot = await store.snapshot();
    const moves = snapshot.get(from)
      ? [[from, to] as const]
      : [...snapshot.entries()].filter(([p]) => isWithin(p, from) && p !== from).map(([p]) => [p, to + p.slice(from.length)] as const);
    if (!moves.length && !(await this.#isDir(from))) throw fsError("ENOENT", "rename", src);
    if (moves.length) {
      await store.mutate(`shell mv ${from}`, async (tx) => {
        for (const [a, b] of moves) {
          const data = await tx.get(a);
          if (!data) continue;
          await tx.delete(a);
          await this.#put(b, fileDataToBytes(data), tx, false);
        }
      });
    }
    for (const [d, made] of [...this.#session.dirs]) {
      if (!isWithin(d, from)) continue;
      this.#session.dirs.delete(d);
      this.#session.dirs.set(to + d.slice(from.length), made);
    }
  }

  resolvePath(base: string, path: string): string {
    return resolveShellPath(base, path);
  }

  /** Only `ls` with a still-quoted glob uses it; an empty list is what bash would print for no match. */
  getAllPaths(): string[] {
    return [];
  }

  async symlink(_target: string, linkPath: string): Promise<void> {
    throw fsError("EPERM", "symlink", linkPath, "links are not supported in the offline shell");
  }

  async link(_existing: string, newPath: string): Promise<void> {
    throw fsError("EPERM", "link", newPath, "links are not supported in the offline shell");
  }

  async readlink(path: string): Promise<string> {
    throw fsError("EINVAL", "readlink", path, "not a symbolic link");
  }
}
