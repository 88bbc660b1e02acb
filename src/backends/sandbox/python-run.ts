/**
 * Python in the tab: CPython compiled to WebAssembly (Pyodide, self-hosted
 * from its npm package), run as the offline shell's `python3` command on the
 * shell's own thread, so the shell's timeout (the thread is terminated) and
 * Stop apply to it as to any command.
 *
 * Files: synced, not mounted. Before a run every workspace file the shell can
 * read is copied into Pyodide's in-memory filesystem at the same path; after
 * it, every file the code created or changed is written back through the
 * shell's filesystem (so the file tools, the file viewer and the shell's
 * permission routes see it) and every synced file the code deleted is removed.
 * Why not a mount: the shell's filesystem is asynchronous (each call a message
 * to the agent's thread), and Python's file calls are synchronous; a mount
 * would need a synchronous bridge (SharedArrayBuffer + Atomics) that not every
 * page has. A workspace is small (files of at most 10 MiB), so a copy is cheap.
 *
 * Each run gets fresh globals (`__name__ == "__main__"`); imported modules
 * stay loaded (as in one interpreter process), which is what makes a warm run
 * fast. The standard library is there, offline; packages only when the
 * person chose a source, fetched by the caller (python-wheels.ts).
 *
 * JavaScript: the program's `import js` (and `pyodide`, `pyodide_js`, …) is
 * refused with a clear error, and the `js` module Pyodide builds holds only
 * the timers its asyncio loop needs. That is a first barrier, not the
 * boundary (Python has no in-process sandbox): the thread itself is sealed
 * once Pyodide has loaded (python-seal.ts), so whatever JavaScript a program
 * reaches finds no network, no storage and no other thread.
 */
import type { IFileSystem } from "just-bash/browser";
import type { PyodideInterface } from "pyodide";
import { sameBytes } from "../../core/bytes.ts";
import { MAX_FILE_WRITE_BYTES } from "../file-ops.ts";
import { capPythonFiles, type PythonFileCaps } from "./python-caps.ts";
import type { PackageDelivery, PackageRequest } from "./python-packages.ts";
import { DEFAULT_MAX_SCRATCH_BYTES } from "./scratch-store.ts";

/** Where Pyodide comes from on this thread, and how the thread is cut off from the network once it has loaded. */
export interface PythonHost {
  /** Folder of pyodide.asm.mjs, pyodide.asm.wasm, python_stdlib.zip, pyodide-lock.json (the site's own files); Node: undefined. */
  indexURL?: string;
  /** Called once after Pyodide has loaded: seals the thread (python-seal.ts: no network, storage or other threads). */
  isolate?: () => void;
  /** Told when a load starts (the first `python3` on the thread) and when it is done, with a line for the terminal panel. */
  onStatus?: (phase: "loading" | "loaded", text: string) => void;
  /** Where packages beyond the standard library come from, when the person chose a source (python-wheels.ts). */
  packages?: { host: string; deliver(request: PackageRequest): Promise<PackageDelivery> };
}

/** Pyodide's own folders, never synced with the workspace. */
const SYSTEM = ["/lib", "/dev", "/proc", "/sys", "/home/pyodide", "/home/web_user"];
const isSystem = (path: string) => SYSTEM.some((dir) => path === dir || path.startsWith(`${dir}/`));

let loading: Promise<PyodideInterface> | undefined;
let loaded = false;

/** Python's `js` module: the timers Pyodide's own asyncio loop imports from it, and nothing else. */
function pythonJsGlobals(): object {
  const scope = globalThis;
  return Object.freeze({
    setTimeout: (callback: () => void, ms?: number) => scope.setTimeout(callback, ms),
    clearTimeout: (id?: number) => scope.clearTimeout(id),
    setInterval: (callback: () => void, ms?: number) => scope.setInterval(callback, ms),
    clearInterval: (id?: number) => scope.clearInterval(id),
  });
}

/** Whether Python has loaded on this thread (a later `python3` starts at once). */
export function pythonLoaded(): boolean {
  return loaded;
}

/** Pyodide's lock file from the site, or an error naming why it could not be fetched. */
async function fetchLock(indexURL: string): Promise<string> {
  const url = new URL("pyodide-lock.json", indexURL).href;
  const response = await fetch(url).catch((err: unknown) => {
    throw new Error(`${url}: ${err instanceof Error ? err.message : String(err)}`);
  });
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.text();
}

/** What the first load downloads (the core wasm and the standard library), for the status line and docs/code-tools.md. */
const PYTHON_DOWNLOAD = "about 13 MB";

/** Loads Pyodide once per thread (later calls share the first load). */
export function loadPython(host: PythonHost): Promise<PyodideInterface> {
  loading ??= (async () => {
    const started = performance.now();
    host.onStatus?.("loading", `[python3: loading Python, first use on this thread (${PYTHON_DOWNLOAD} from this site, then cached)…]\n`);
    // Over HTTP the lock file is fetched first, alone: unreachable files (offline before the first use) end here with
    // one clear error, instead of inside loadPyodide's parallel fetches (whose other failures would go unhandled).
    const lockFileContents = /^https?:/.test(host.indexURL ?? "") ? await fetchLock(host.indexURL ?? "") : undefined;
    const { loadPyodide } = await import("pyodide");
    const py = await loadPyodide({
      ...(host.indexURL ? { indexURL: host.indexURL } : {}),
      ...(lockFileContents ? { lockFileContents } : {}),
      packages: [],
      jsglobals: pythonJsGlobals(),
    });
    host.isolate?.();
    loaded = true;
    host.onStatus?.("loaded", `[python3: Python ready in ${((performance.now() - started) / 1000).toFixed(1)} s]\n`);
    return py;
  })();
  loading.catch(() => (loading = undefined));
  return loading;
}

/** One Python run. */
export interface PythonRun {
  /** The program's text. */
  source: string;
  /** Its name in tracebacks (`<string>`, `<stdin>` or the script's path). */
  filename: string;
  /** `sys.argv`. */
  argv: string[];
  /** The working directory (the shell's). */
  cwd: string;
  /** Bytes of stdout and of stderr kept; beyond it the output is cut and says so. */
  maxOutputBytes: number;
  /** The host packages come from, if any: a missing module's error names it (else it names the setting). */
  packagesFrom?: string;
  /** Installing this run's packages failed (its own line says why): a missing module's error points there. */
  packagesFailed?: boolean;
  /** The shell's file caps, held inside Python (python-caps.ts); default 10 MiB a file, 64 MiB of `/tmp`. */
  caps?: PythonFileCaps;
}

export interface PythonResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** Collects a stream's bytes up to a cap. */
function capture(max: number) {
  const chunks: Uint8Array[] = [];
  let kept = 0;
  let dropped = false;
  return {
    write(buffer: Uint8Array): number {
      const room = max - kept;
      if (room > 0) {
        const part = buffer.subarray(0, room);
        chunks.push(part.slice());
        kept += part.length;
      }
      if (buffer.length > room) dropped = true;
      return buffer.length;
    },
    text(): string {
      const all = new Uint8Array(kept);
      let at = 0;
      for (const chunk of chunks) {
        all.set(chunk, at);
        at += chunk.length;
      }
      const text = new TextDecoder().decode(all);
      return dropped ? `${text}\n[python: output cut at ${max} bytes]\n` : text;
    },
  };
}

const RUNNER = `
import sys, traceback, os, socket, builtins, gc, io
def _deeptab_no_network(*args, **kwargs):
    raise OSError(101, "Network is unreachable: the sandbox has no network access")
socket.socket.connect = socket.socket.connect_ex = _deeptab_no_network
_deeptab_hidden = {"js", "pyodide", "pyodide_js", "_pyodide", "_pyodide_core", "micropip"}
_deeptab_import = builtins.__import__
def _deeptab_guarded_import(name, globals=None, locals=None, fromlist=(), level=0):
    if level == 0 and name.split(".")[0] in _deeptab_hidden:
        raise ModuleNotFoundError(
            f"No module named {name!r}: Python in deeptab's sandbox has no access to JavaScript "
            "(no network, no browser storage)", name=name)
    try:
        return _deeptab_import(name, globals, locals, fromlist, level)
    except ModuleNotFoundError as e:
        top = name.split(".")[0]
        if level == 0 and e.name == top and top not in sys.stdlib_module_names:
            e.msg = (f"No module named {top!r}: its package could not be installed from {_deeptab_packages} (see above)"
                     ) if _deeptab_packages and _deeptab_packages_failed else (
                     f"No module named {top!r}: not in Python's standard library, and the package source "
                     f"({_deeptab_packages}) has no package that provides it") if _deeptab_packages else (
                     f"No module named {top!r}: only Python's standard library is available offline (packages "
                     "such as numpy or pandas load once a package source is chosen: Settings, Python packages)")
        raise
_deeptab_builtins = dict(builtins.__dict__, __import__=_deeptab_guarded_import)
_deeptab_packages = ""
_deeptab_packages_failed = False
def _deeptab_run(source, filename, argv, cwd, g, packages, failed):
    global _deeptab_packages, _deeptab_packages_failed
    _deeptab_packages = packages
    _deeptab_packages_failed = failed
    g["__builtins__"] = _deeptab_builtins
    sys.argv = list(argv)
    os.chdir(cwd)
    try:
        exec(compile(source, filename, "exec"), g)
        return 0
    except SystemExit as e:
        if e.code is None:
            return 0
        if isinstance(e.code, int):
            return e.code & 255
        print(e.code, file=sys.stderr)
        return 1
    except BaseException as e:
        traceback.print_exception(type(e), e, e.__traceback__.tb_next)
        return 1
    finally:
        # As at a process's exit: what files the program left open still buffer is flushed before they are written back.
        for o in gc.get_objects():
            try:
                if isinstance(o, io.IOBase) and not o.closed and o.writable():
                    o.flush()
            except Exception:
                pass
        sys.stdout.flush()
        sys.stderr.flush()
_deeptab_run
`;

type Snapshot = Map<string, Uint8Array>;

/** Copies the workspace into Pyodide's filesystem; returns what was copied. Unreadable files are left out. */
async function syncIn(py: PyodideInterface, fs: IFileSystem): Promise<Snapshot> {
  const copied: Snapshot = new Map();
  const walk = async (dir: string) => {
    let entries;
    try {
      entries = fs.readdirWithFileTypes ? await fs.readdirWithFileTypes(dir) : [];
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = dir === "/" ? `/${entry.name}` : `${dir}/${entry.name}`;
      if (isSystem(path)) continue;
      if (entry.isDirectory) {
        py.FS.mkdirTree(path);
        await walk(path);
      } else if (entry.isFile) {
        try {
          const data = await fs.readFileBuffer(path);
          py.FS.writeFile(path, data);
          copied.set(path, data);
        } catch (err) {
          if (err instanceof Error && err.name === "StorageError") throw err;
        }
      }
    }
  };
  await walk("/");
  return copied;
}

/** Every file in Pyodide's filesystem outside its own folders. */
function pythonFiles(py: PyodideInterface): Snapshot {
  const files: Snapshot = new Map();
  const walk = (dir: string) => {
    for (const name of py.FS.readdir(dir) as string[]) {
      if (name === "." || name === "..") continue;
      const path = dir === "/" ? `/${name}` : `${dir}/${name}`;
      if (isSystem(path)) continue;
      const { mode } = py.FS.lstat(path) as { mode: number };
      if (py.FS.isDir(mode)) walk(path);
      else if (py.FS.isFile(mode)) files.set(path, py.FS.readFile(path) as Uint8Array);
    }
  };
  walk("/");
  return files;
}

/** Writes back what the run changed, then empties Pyodide's filesystem of workspace files (the next run starts clean). */
async function syncOut(py: PyodideInterface, fs: IFileSystem, before: Snapshot): Promise<string[]> {
  const after = pythonFiles(py);
  const problems: string[] = [];
  for (const [path, data] of after) {
    const old = before.get(path);
    if (old && sameBytes(old, data)) continue;
    try {
      const dir = path.slice(0, path.lastIndexOf("/")) || "/";
      if (dir !== "/") await fs.mkdir(dir, { recursive: true });
      await fs.writeFile(path, data);
    } catch (err) {
      if (err instanceof Error && err.name === "StorageError") throw err;
      problems.push(`python: ${path} not saved: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  for (const path of before.keys()) {
    if (after.has(path)) continue;
    try {
      await fs.rm(path, { force: true });
    } catch (err) {
      if (err instanceof Error && err.name === "StorageError") throw err;
      problems.push(`python: ${path} not deleted: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  for (const name of py.FS.readdir("/") as string[]) {
    const path = `/${name}`;
    if (name !== "." && name !== "..") removeTree(py, path);
  }
  return problems;
}

/** Removes a workspace path from Pyodide's filesystem, keeping Pyodide's own folders (and /tmp, /home themselves). */
function removeTree(py: PyodideInterface, path: string): void {
  if (isSystem(path)) return;
  const { mode } = py.FS.lstat(path) as { mode: number };
  if (!py.FS.isDir(mode)) {
    py.FS.unlink(path);
    return;
  }
  for (const name of py.FS.readdir(path) as string[]) if (name !== "." && name !== "..") removeTree(py, `${path}/${name}`);
  if (path !== "/tmp" && path !== "/home") py.FS.rmdir(path);
}

/**
 * Runs a program over the shell's files. Python's errors (a traceback,
 * `sys.exit(n)`) are the program's: stderr and its exit code.
 *
 * @throws a `StorageError` from the filesystem, and nothing else the program causes.
 */
export async function runPython(py: PyodideInterface, fs: IFileSystem, run: PythonRun): Promise<PythonResult> {
  const stdout = capture(run.maxOutputBytes);
  const stderr = capture(run.maxOutputBytes);
  py.setStdout({ write: (buffer) => stdout.write(buffer) });
  py.setStderr({ write: (buffer) => stderr.write(buffer) });
  const before = await syncIn(py, fs);
  const cwd = py.FS.analyzePath(run.cwd).exists ? run.cwd : "/";
  const runner = py.runPython(RUNNER) as (...args: unknown[]) => number;
  const globals = py.toPy({ __name__: "__main__", __file__: run.filename });
  let exitCode: number;
  const uncap = capPythonFiles(py, run.caps ?? { fileBytes: MAX_FILE_WRITE_BYTES, tmpBytes: DEFAULT_MAX_SCRATCH_BYTES });
  try {
    exitCode = runner(run.source, run.filename, py.toPy(run.argv), cwd, globals, run.packagesFrom ?? "", run.packagesFailed === true);
  } finally {
    uncap();
    globals.destroy();
    (runner as unknown as { destroy(): void }).destroy();
  }
  const problems = await syncOut(py, fs, before);
  const errors = stderr.text() + problems.map((line) => `${line}\n`).join("");
  return { stdout: stdout.text(), stderr: errors, exitCode: problems.length && !exitCode ? 1 : exitCode };
}
