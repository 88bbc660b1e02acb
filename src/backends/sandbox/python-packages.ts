/**
 * Python packages beyond the standard library (numpy, pandas, matplotlib…),
 * the caller's side: only when the person chose a source, read on the
 * agent's thread (whose requests the request log lists), never on the
 * shell's sealed thread, which gets the wheels' bytes in a message and has
 * no network of its own (python-wheels.ts installs them).
 *
 * A source is a folder of a Pyodide distribution: its `pyodide-lock.json`
 * and the wheels it names. Pyodide's CDN is one (a third party, so off by
 * default); a copy the person hosts is another. The lock maps an import to
 * its package and the package to its dependencies, and gives each wheel's
 * SHA-256, checked here before the bytes go anywhere.
 */

export { PYODIDE_CDN, PYODIDE_VERSION } from "./pyodide-release.ts";

/** What the shell's thread asks for: imports its program makes that nothing installed provides. */
export interface PackageRequest {
  imports: string[];
  /** Packages already installed on the thread (Pyodide's `loadedPackages`): not sent again. */
  loaded: string[];
}

/** One wheel, checked against the lock's SHA-256. */
export interface Wheel {
  name: string;
  version: string;
  fileName: string;
  bytes: Uint8Array;
}

/** The answer: the wheels to install, dependencies first. */
export interface PackageDelivery {
  /** The source's host, for status lines and errors ("cdn.jsdelivr.net"). */
  host: string;
  /** The lock's `info.abi_version`: wheels built for another Pyodide do not load, and the thread says so. */
  abi: string;
  wheels: Wheel[];
  /** Imports no package of the source provides (the program's own ImportError then says so). */
  missing: string[];
}

interface LockPackage {
  name: string;
  version: string;
  file_name: string;
  sha256: string;
  imports: string[];
  depends: string[];
}

interface Lock {
  abi: string;
  packages: Map<string, LockPackage>;
  /** Import name → package key. */
  byImport: Map<string, string>;
}

const normal = (name: string) => name.toLowerCase().replace(/[-_.]+/g, "-");

function isText(value: unknown): value is string {
  return typeof value === "string" && value.length > 0;
}

/** The lock's parts this needs; anything malformed is an error naming the file. */
export function parseLock(text: string, url: string): Lock {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new Error(`${url} is not JSON`);
  }
  const root = (typeof data === "object" && data !== null ? data : {}) as { info?: { abi_version?: unknown }; packages?: unknown };
  const abi = root.info?.abi_version;
  if (!isText(abi) || typeof root.packages !== "object" || root.packages === null) {
    throw new Error(`${url} is not a Pyodide lock file (no info.abi_version or packages)`);
  }
  const packages = new Map<string, LockPackage>();
  const byImport = new Map<string, string>();
  for (const [key, value] of Object.entries(root.packages as Record<string, unknown>)) {
    const p = (value ?? {}) as Partial<Record<keyof LockPackage, unknown>>;
    const fileName = p.file_name;
    // A wheel's name is a file in the source's folder: no path, no URL of another host.
    if (!isText(p.name) || !isText(fileName) || !/^[\w.+-]+$/.test(fileName) || !isText(p.sha256)) continue;
    const list = (v: unknown) => (Array.isArray(v) ? v.filter(isText) : []);
    const entry = { name: p.name, version: String(p.version ?? ""), file_name: fileName, sha256: p.sha256.toLowerCase() };
    packages.set(normal(key), { ...entry, imports: list(p.imports), depends: list(p.depends).map(normal) });
    for (const name of list(p.imports)) if (!byImport.has(name)) byImport.set(name, normal(key));
  }
  return { abi, packages, byImport };
}

/** The packages `imports` need, dependencies before dependents, leaving out `loaded`; and the imports none provides. */
export function planPackages(lock: Lock, request: PackageRequest): { order: LockPackage[]; missing: string[] } {
  const loaded = new Set(request.loaded.map(normal));
  const order: LockPackage[] = [];
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key) || loaded.has(key)) return;
    seen.add(key);
    const p = lock.packages.get(key);
    if (!p) return;
    for (const dep of p.depends) visit(dep);
    order.push(p);
  };
  const missing: string[] = [];
  for (const name of request.imports) {
    const key = lock.byImport.get(name);
    if (key === undefined) missing.push(name);
    else visit(key);
  }
  return { order, missing };
}

async function sha256(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * One source of packages. Its lock and wheels are fetched once (a failed
 * fetch is tried again next time) and kept for the session, so a second
 * thread's `import numpy` does not download it again.
 */
export class PythonPackages {
  readonly url: string;
  readonly host: string;
  readonly #fetch: typeof fetch;
  #lock: Promise<Lock> | undefined;
  readonly #wheels = new Map<string, Promise<Uint8Array>>();

  /**
   * @param url the source folder (http or https; a missing final slash is added)
   * @param fetcher how to reach it (the app passes the request log's fetch)
   * @throws TypeError when `url` is not an http(s) URL
   */
  constructor(url: string, fetcher: typeof fetch = (input, init) => globalThis.fetch(input, init)) {
    const parsed = new URL(url.endsWith("/") ? url : `${url}/`);
    if (parsed.protocol !== "https:" && parsed.protocol !== "http:") throw new TypeError(`${url}: not an http(s) URL`);
    this.url = parsed.href;
    this.host = parsed.host;
    this.#fetch = fetcher;
  }

  async #get(url: string): Promise<Response> {
    // No cookies or credentials go to the source: it gets the page's origin and the file's name, nothing else.
    const response = await this.#fetch(url, { credentials: "omit" }).catch((err: unknown) => {
      const why = err instanceof Error ? err.message : String(err);
      throw new Error(`${url} could not be fetched (${why}); the host may be offline or not allow this page's origin (CORS)`);
    });
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
    return response;
  }

  #loadLock(): Promise<Lock> {
    const url = `${this.url}pyodide-lock.json`;
    this.#lock ??= this.#get(url).then(async (response) => parseLock(await response.text(), url));
    this.#lock.catch(() => (this.#lock = undefined));
    return this.#lock;
  }

  #wheel(p: LockPackage): Promise<Uint8Array> {
    let bytes = this.#wheels.get(p.file_name);
    if (!bytes) {
      const url = `${this.url}${p.file_name}`;
      bytes = this.#get(url).then(async (response) => {
        const data = new Uint8Array(await response.arrayBuffer());
        if ((await sha256(data)) !== p.sha256) throw new Error(`${url} does not match its SHA-256 in pyodide-lock.json: not installed`);
        return data;
      });
      this.#wheels.set(p.file_name, bytes);
      bytes.catch(() => this.#wheels.delete(p.file_name));
    }
    return bytes;
  }

  /**
   * The wheels a program's imports need, checked.
   *
   * @throws Error (with the URL and why) when the lock or a wheel cannot be fetched or a wheel fails its check
   */
  async deliver(request: PackageRequest): Promise<PackageDelivery> {
    const lock = await this.#loadLock();
    const { order, missing } = planPackages(lock, request);
    const bytes = await Promise.all(order.map((p) => this.#wheel(p)));
    const wheels = order.map((p, i) => ({ name: p.name, version: p.version, fileName: p.file_name, bytes: bytes[i] as Uint8Array }));
    return { host: this.host, abi: lock.abi, wheels, missing };
  }
}
