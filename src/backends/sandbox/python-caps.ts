/**
 * The shell's file caps inside Python: Pyodide's filesystem is memory of its
 * own, so without this a program could write a 1 GiB file into `/tmp` (the
 * write-back alone would refuse it, after the fact, with exit 0 when the
 * program had finished). While a run lasts, every write and truncate that
 * grows a file is checked first: a file over `fileBytes` fails with `EFBIG`,
 * `/tmp` over `tmpBytes` in all with `ENOSPC`, as an `OSError` inside
 * Python; nothing past a cap is written.
 */
import type { PyodideInterface } from "pyodide";

/** The caps of one run, in bytes. */
export interface PythonFileCaps {
  /** Largest file (the file tools' and the shell's 10 MiB). */
  fileBytes: number;
  /** All of `/tmp` together (the shell session's 64 MiB). */
  tmpBytes: number;
}

interface Stream {
  path: string;
  position: number;
  flags: number;
}

const O_APPEND = 0o2000;
const inTmp = (path: string) => path === "/tmp" || path.startsWith("/tmp/");

/** Bytes of every file below `dir` (Pyodide's filesystem). */
function treeBytes(py: PyodideInterface, dir: string): number {
  let total = 0;
  for (const name of py.FS.readdir(dir) as string[]) {
    if (name === "." || name === "..") continue;
    const path = `${dir}/${name}`;
    const { mode, size } = py.FS.lstat(path) as { mode: number; size: number };
    if (py.FS.isDir(mode)) total += treeBytes(py, path);
    else if (py.FS.isFile(mode)) total += size;
  }
  return total;
}

/** Installs the caps on Pyodide's filesystem; the returned function removes them. */
export function capPythonFiles(py: PyodideInterface, caps: PythonFileCaps): () => void {
  const fs = py.FS as unknown as {
    write(stream: Stream, buffer: unknown, offset: number, length: number, position?: number, canOwn?: boolean): number;
    ftruncate(fd: number, length: number): void;
    truncate(path: string | object, length: number): void;
    getStream(fd: number): Stream | null;
    stat(path: string): { size: number };
    ErrnoError: new (errno: number) => Error;
  };
  const { write, ftruncate, truncate } = fs;
  const fail = (code: "EFBIG" | "ENOSPC") => new fs.ErrnoError(py.ERRNO_CODES[code]!);
  /** Throws when `path` growing to `size` bytes would pass a cap. */
  const check = (path: string, size: number) => {
    const now = fs.stat(path).size;
    if (size <= now) return;
    if (size > caps.fileBytes) throw fail("EFBIG");
    if (inTmp(path) && treeBytes(py, "/tmp") + (size - now) > caps.tmpBytes) throw fail("ENOSPC");
  };
  fs.write = function (stream, buffer, offset, length, position, canOwn) {
    const at = stream.flags & O_APPEND ? fs.stat(stream.path).size : (position ?? stream.position);
    check(stream.path, at + length);
    return write.call(this, stream, buffer, offset, length, position, canOwn);
  };
  fs.ftruncate = function (fd, length) {
    const stream = fs.getStream(fd);
    if (stream) check(stream.path, length);
    return ftruncate.call(this, fd, length);
  };
  fs.truncate = function (path, length) {
    if (typeof path === "string") check(path, length);
    return truncate.call(this, path, length);
  };
  return () => {
    Object.assign(fs, { write, ftruncate, truncate });
  };
}
