/**
 * The filesystem the offline shell (just-bash) sees: the backend's own
 * FileStore at `/`, so `cat /notes.md` and `read_file("/notes.md")` read the
 * same bytes and a file a command writes is at once visible to the file
 * tools. Two things are the shell's own and never reach the store:
 *
 * - `/tmp` (an in-memory filesystem kept for the shell session) and
 *   `/dev/null` (reads empty, swallows writes);
 * - empty directories (`mkdir` without files below): the store keeps files
 *   only and implies their directories, so an empty directory lives as long
 *   as the session.
 *
 * Errors are Node-style (`ENOENT: no such file or directory, open '/x'`,
 * with a `code`), which just-bash's commands understand.
 */
import type { BufferEncoding, CpOptions, FileContent, FsStat, IFileSystem, MkdirOptions, RmOptions } from "just-bash/browser";
import { InMemoryFs } from "just-bash/browser";
import { fileDataFromBytes, fileDataToBytes } from "../file-ops.ts";
import type { FileStore, FileTx } from "../file-store.ts";
import { dirPrefix, isWithin, normalizePath } from "../paths.ts";
import { isBackendError } from "../protocol.ts";

type Code = "ENOENT" | "EISDIR" | "ENOTDIR" | "EEXIST" | "ENOTEMPTY" | "EINVAL" | "EPERM";
const TEXT: Record<Code, string> = {
  ENOENT: "no such file or directory",
  EISDIR: "illegal operation on a directory",
  ENOTDIR: "not a directory",
  EEXIST: "file already exists",
  ENOTEMPTY: "directory not empty",
  EINVAL: "invalid argument",
  EPERM: "operation not permitted",
};

function fsError(code: Code, op: string, path: string, detail?: string): Error {
  return Object.assign(new Error(`${code}: ${detail ?? TEXT[code]}, ${op} '${path}'`), { code });
}

/** State a shell keeps between commands: its /tmp and its empty directories. */
export interface ShellSession {
  readonly tmp: InMemoryFs;
  readonly dirs: Set<string>;
}

export function newShellSession(): ShellSession {
  return { tmp: new InMemoryFs(), dirs: new Set() };
}

const DEV_NULL = "/dev/null";
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
  if (encoding === "binary" || encoding === "latin1") return Uint8Array.from(content, (ch) => ch.charCodeAt(0) & 0xff);
  return encoder.encode(content);
}

/** POSIX resolution of `path` against `base` (`..` and `.` resolved). */
function resolve(base: string, path: string): string {
  const out: string[] = [];
  for (const seg of (path.startsWith("/") ? path : `${base}/${path}`).split("/")) {
    if (!seg || seg === ".") continue;
    if (seg === "..") out.pop();
    else out.push(seg);
  }
  return "/" + out.join("/");
}

function isTmp(path: string): boolean {
  return isWithin(path, "/tmp") && path !== "/";
}

function fileStat(size: number, mtime: string): FsStat {
  return { isFile: true, isDirectory: false, isSymbolicLink: false, mode: 0o644, size, mtime: new Date(mtime) };
}

const DIR_STAT: FsStat = { isFile: false, isDirectory: true, isSymbolicLink: false, mode: 0o755, size: 0, mtime: new Date(0) };

export class ShellFs implements IFileSystem {
  readonly #store: FileStore;
  readonly #session: ShellSession;
  readonly #now: () => string;

  constructor(store: FileStore, session: ShellSession, now: () => string) {
    this.#store = store;
    this.#session = session;
    this.#now = now;
  }

  /** The store key of a shell path, or an EINVAL error for names the store refuses. */
  #key(path: string, op: string): string {
    const key = normalizePath(path);
    if (isBackendError(key)) throw fsError("EINVAL", op, path, key.message.replace(/^Error: /, ""));
    return key;
  }

  async #isDir(path: string): Promise<boolean> {
    if (path === "/" || path === "/tmp" || path === "/dev") return true;
    if (this.#session.dirs.has(path)) return true;
    return (await this.#store.snapshot()).isDir(path);
  }

  async #bytes(path: string, op: string): Promise<Uint8Array> {
    if (path === DEV_NULL) return new Uint8Array();
    if (isTmp(path)) return this.#session.tmp.readFileBuffer(path);
    const file = await this.#store.get(this.#key(path, op));
    if (file) return fileDataToBytes(file.data);
    throw fsError((await this.#isDir(path)) ? "EISDIR" : "ENOENT", op, path);
  }

  async readFile(path: string, options?: { encoding?: BufferEncoding | null } | BufferEncoding): Promise<string> {
    return decode(await this.#bytes(path, "open"), encodingOf(options));
  }

  readFileBuffer(path: string): Promise<Uint8Array> {
    return this.#bytes(path, "open");
  }

  /** Stores bytes at `path` in one unit: refused below a file or onto a directory. */
  async #put(path: string, bytes: Uint8Array, tx?: FileTx): Promise<void> {
    const key = this.#key(path, "open");
    const write = async (t: FileTx) => {
      if (key === "/" || this.#session.dirs.has(key) || (await t.isDir(key))) throw fsError("EISDIR", "open", path);
      for (let i = key.indexOf("/", 1); i !== -1; i = key.indexOf("/", i + 1)) {
        if (await t.get(key.slice(0, i))) throw fsError("ENOTDIR", "open", path);
      }
      const prev = await t.get(key);
      await t.put(key, fileDataFromBytes(bytes, this.#now(), prev?.createdAt));
    };
    if (tx) await write(tx);
    else await this.#store.mutate(`shell write ${key}`, write);
  }

  async writeFile(path: string, content: FileContent, options?: { encoding?: BufferEncoding } | BufferEncoding): Promise<void> {
    if (path === DEV_NULL) return;
    if (isTmp(path)) return this.#session.tmp.writeFile(path, content, options);
    await this.#put(path, toBytes(content, encodingOf(options)));
  }

  async appendFile(path: string, content: FileContent, options?: { encoding?: BufferEncoding } | BufferEncoding): Promise<void> {
    if (path === DEV_NULL) return;
    if (isTmp(path)) return this.#session.tmp.appendFile(path, content, options);
    const key = this.#key(path, "open");
    const add = toBytes(content, encodingOf(options));
    await this.#store.mutate(`shell append ${key}`, async (tx) => {
      const prev = await tx.get(key);
      const old = prev ? fileDataToBytes(prev) : new Uint8Array();
      const next = new Uint8Array(old.length + add.length);
      next.set(old);
      next.set(add, old.length);
      await this.#put(path, next, tx);
    });
  }

  async exists(path: string): Promise<boolean> {
    if (path === DEV_NULL) return true;
    if (isTmp(path)) return this.#session.tmp.exists(path);
    const key = normalizePath(path);
    if (isBackendError(key)) return false;
    return (await this.#store.get(key)) !== undefined || (await this.#isDir(key));
  }

  async stat(path: string): Promise<FsStat> {
    if (path === DEV_NULL) return { ...fileStat(0, new Date(0).toISOString()), mode: 0o666 };
    if (isTmp(path)) return this.#session.tmp.stat(path);
    const key = this.#key(path, "stat");
    const file = await this.#store.get(key);
    if (file) return fileStat(file.size, file.data.modifiedAt);
    if (await this.#isDir(key)) return DIR_STAT;
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
    if (isTmp(path)) return this.#session.tmp.mkdir(path, options);
    const key = this.#key(path, "mkdir");
    if (await this.#store.get(key)) throw fsError("EEXIST", "mkdir", path);
    if (await this.#isDir(key)) {
      if (options?.recursive) return;
      throw fsError("EEXIST", "mkdir", path);
    }
    const parent = key.slice(0, key.lastIndexOf("/")) || "/";
    if (!(await this.#isDir(parent))) {
      if (!options?.recursive) throw fsError((await this.#store.get(parent)) ? "ENOTDIR" : "ENOENT", "mkdir", path);
      await this.mkdir(parent, { recursive: true });
    }
    this.#session.dirs.add(key);
  }

  /** Names directly below a store directory: implied by files, or empty directories of the session. */
  async #children(dir: string): Promise<Array<{ name: string; isDir: boolean }>> {
    const prefix = dirPrefix(dir);
    const out = new Map<string, boolean>();
    for (const [path] of (await this.#store.snapshot()).entries()) {
      if (!path.startsWith(prefix)) continue;
      const rest = path.slice(prefix.length);
      const slash = rest.indexOf("/");
      out.set(slash === -1 ? rest : rest.slice(0, slash), slash !== -1 || out.get(rest) === true);
    }
    for (const d of this.#session.dirs) {
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
    if (isTmp(path) || path === "/tmp") return this.#session.tmp.readdirWithFileTypes(path === "/tmp" ? "/tmp" : path);
    const key = this.#key(path, "scandir");
    if (await this.#store.get(key)) throw fsError("ENOTDIR", "scandir", path);
    if (!(await this.#isDir(key))) throw fsError("ENOENT", "scandir", path);
    return (await this.#children(key)).map(({ name, isDir }) => ({ name, isFile: !isDir, isDirectory: isDir, isSymbolicLink: false }));
  }

  async rm(path: string, options?: RmOptions): Promise<void> {
    if (isTmp(path)) return this.#session.tmp.rm(path, options);
    const key = this.#key(path, "rm");
    const snapshot = await this.#store.snapshot();
    if (snapshot.get(key)) {
      await this.#store.mutate(`shell rm ${key}`, (tx) => tx.delete(key));
      return;
    }
    if (!(await this.#isDir(key))) {
      if (options?.force) return;
      throw fsError("ENOENT", "rm", path);
    }
    const below = [...snapshot.entries()].map(([p]) => p).filter((p) => isWithin(p, key) && p !== key);
    const emptyBelow = [...this.#session.dirs].filter((d) => isWithin(d, key) && d !== key);
    if ((below.length || emptyBelow.length) && !options?.recursive) throw fsError("ENOTEMPTY", "rm", path);
    if (below.length) {
      await this.#store.mutate(`shell rm -r ${key}`, async (tx) => {
        for (const p of below) await tx.delete(p);
      });
    }
    for (const d of [...emptyBelow, key]) this.#session.dirs.delete(d);
  }

  async cp(src: string, dest: string, options?: CpOptions): Promise<void> {
    if (isTmp(src) || isTmp(dest)) {
      const st = await this.stat(src);
      if (st.isDirectory) throw fsError("EPERM", "cp", src, "copying directories to or from /tmp is not supported");
      return this.writeFile(dest, await this.readFileBuffer(src));
    }
    const from = this.#key(src, "cp");
    const to = this.#key(dest, "cp");
    const snapshot = await this.#store.snapshot();
    const file = snapshot.get(from);
    if (file) return this.#put(dest, fileDataToBytes(file.data));
    if (!(await this.#isDir(from))) throw fsError("ENOENT", "cp", src);
    if (!options?.recursive) throw fsError("EISDIR", "cp", src);
    if (isWithin(to, from)) throw fsError("EINVAL", "cp", dest, "cannot copy a directory into itself");
    const files = [...snapshot.entries()].filter(([p]) => isWithin(p, from) && p !== from);
    await this.#store.mutate(`shell cp -r ${from}`, async (tx) => {
      for (const [p, f] of files) await this.#put(to + p.slice(from.length), fileDataToBytes(f.data), tx);
    });
    for (const d of [...this.#session.dirs]) if (isWithin(d, from)) this.#session.dirs.add(to + d.slice(from.length));
    if (!files.length) this.#session.dirs.add(to);
  }

  async mv(src: string, dest: string): Promise<void> {
    if (isTmp(src) || isTmp(dest)) {
      await this.cp(src, dest);
      return this.rm(src);
    }
    const from = this.#key(src, "rename");
    const to = this.#key(dest, "rename");
    const snapshot = await this.#store.snapshot();
    const moves = snapshot.get(from)
      ? [[from, to] as const]
      : [...snapshot.entries()].filter(([p]) => isWithin(p, from) && p !== from).map(([p]) => [p, to + p.slice(from.length)] as const);
    if (!moves.length && !(await this.#isDir(from))) throw fsError("ENOENT", "rename", src);
    if (isWithin(to, from) && to !== from) throw fsError("EINVAL", "rename", dest, "cannot move a directory into itself");
    await this.#store.mutate(`shell mv ${from}`, async (tx) => {
      for (const [a, b] of moves) {
        const data = await tx.get(a);
        if (!data) continue;
        await this.#put(b, fileDataToBytes(data), tx);
        await tx.delete(a);
      }
    });
    for (const d of [...this.#session.dirs]) {
      if (!isWithin(d, from)) continue;
      this.#session.dirs.delete(d);
      this.#session.dirs.add(to + d.slice(from.length));
    }
  }

  resolvePath(base: string, path: string): string {
    return resolve(base, path);
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
