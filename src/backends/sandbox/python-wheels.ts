/**
 * Python packages, the shell thread's side (the caller's side is
 * python-packages.ts): which of a program's imports nothing installed
 * provides, and installing the wheels the caller sent for them.
 *
 * The thread is sealed (python-seal.ts): it has no `fetch`. Pyodide's own
 * installer (which also loads a package's shared libraries) reads a wheel by
 * URL, so while it installs, and only then, the thread has a `fetch` that
 * answers the wheels handed over, at URLs of a reserved name (`.invalid`,
 * never a host), and refuses everything else; it is removed again before
 * the program runs.
 */
import type { PyodideInterface } from "pyodide";
import type { PackageDelivery, PackageRequest } from "./python-packages.ts";

/** Where handed-over wheels are served from on the sealed thread (RFC 2606: `.invalid` is never a real host). */
const WHEELS = "https://python-packages.invalid/";

/** Runs `install` with a `fetch` that serves `files` and nothing else, then puts back what `fetch` was (on a sealed thread: none). */
async function withWheels<T>(files: Map<string, Uint8Array>, install: () => Promise<T>): Promise<T> {
  const scope = globalThis as { fetch?: typeof fetch };
  const own = Object.getOwnPropertyDescriptor(scope, "fetch");
  const served = (input: RequestInfo | URL): Promise<Response> => {
    const url = input instanceof Request ? input.url : String(input);
    const bytes = files.get(url);
    return bytes
      ? Promise.resolve(new Response(bytes as Uint8Array<ArrayBuffer>))
      : Promise.reject(new TypeError(`${url}: the sandbox has no network access`));
  };
  Object.defineProperty(scope, "fetch", { value: served, configurable: true, writable: true });
  try {
    return await install();
  } finally {
    if (own) Object.defineProperty(scope, "fetch", own);
    else delete scope.fetch;
  }
}

/** Modules Python in the sandbox never gets (python-run.ts refuses them): never asked for either. */
const NEVER = ["js", "pyodide", "pyodide_js", "_pyodide", "_pyodide_core", "micropip"];

const NEEDED = `
def _deeptab_needed(source):
    import importlib.util, sys
    from pyodide.code import find_imports
    try:
        names = find_imports(source)
    except SyntaxError:
        return []
    tops = sorted({name.split(".")[0] for name in names})
    return [n for n in tops if n not in sys.modules and n not in ${JSON.stringify(NEVER)} and importlib.util.find_spec(n) is None]
_deeptab_needed
`;

/** Top-level modules `source` imports that nothing installed provides (statically found imports; none for a syntax error). */
export function neededImports(py: PyodideInterface, source: string): string[] {
  const needed = py.runPython(NEEDED) as ((source: string) => { toJs(): string[]; destroy(): void }) & { destroy(): void };
  try {
    const list = needed(source);
    try {
      return list.toJs();
    } finally {
      list.destroy();
    }
  } finally {
    needed.destroy();
  }
}

/** What to ask the caller for. */
export function packageRequest(py: PyodideInterface, imports: string[]): PackageRequest {
  return { imports, loaded: Object.keys(py.loadedPackages) };
}

/**
 * Installs the delivered wheels with Pyodide's installer; returns a status line for the terminal panel.
 *
 * @throws Error naming the packages when they are built for another Pyodide, or Pyodide refuses them
 */
export async function installWheels(py: PyodideInterface, delivery: PackageDelivery, seconds: number): Promise<string> {
  if (delivery.wheels.length === 0) return "";
  const own = py.lockfile.info.abi_version;
  if (delivery.abi !== own) {
    throw new Error(
      `${delivery.host} has packages for Pyodide's ABI ${delivery.abi}; this Python needs ${own} (a source for Pyodide ${py.version})`,
    );
  }
  const files = new Map(delivery.wheels.map((wheel) => [`${WHEELS}${wheel.fileName}`, wheel.bytes]));
  const errors: string[] = [];
  // Integrity was checked by the caller against the source's lock (SHA-256) before the bytes were sent.
  const options = { checkIntegrity: false, messageCallback: () => undefined, errorCallback: (line: string) => errors.push(line) };
  await withWheels(files, () => py.loadPackage([...files.keys()], options));
  if (errors.length) throw new Error(errors.join(" "));
  const names = delivery.wheels.map((wheel) => `${wheel.name} ${wheel.version}`).join(", ");
  return `[python3: installed ${names} from ${delivery.host} in ${seconds.toFixed(1)} s]\n`;
}
