/**
 * CompositeBackend: routes each path to a backend by longest prefix.
 *
 * A routed backend sees paths with its prefix stripped ("/memories/a.md" →
 * "/a.md") and results get the prefix back. `ls /` shows the routes as
 * directories; grep and glob span every route under the searched path;
 * `execute` goes to the default backend (whose shell cannot reach the
 * routes, which is why they are reported as `isolatedRoutes`).
 */
import { DeeptabError } from "../core/errors.ts";
import { globFilter, sortByPath, sortMatches } from "./file-ops.ts";
import { compileGlob, isGlobError } from "./glob.ts";
import { isWithin, normalizePath } from "./paths.ts";
import { backendError, canExecute, isBackendError } from "./protocol.ts";
import type {
  BackendError,
  BackendErrorCode,
  BackendProtocol,
  DeleteOptions,
  DownloadOutcome,
  EditOutcome,
  ExecuteOptions,
  ExecuteResult,
  FileInfo,
  GrepMatch,
  Outcome,
  ReadSlice,
  UploadOutcome,
} from "./protocol.ts";
import { resolveBackend, type BackendOption, type BackendFactory } from "./runtime.ts";

interface Route {
  /** Normalized, without trailing slash: "/memories". */
  prefix: string;
  backend: BackendProtocol;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Errors whose message names paths only; the others (`string_not_found`, `not_unique`) echo the model's text. */
const PATH_ERRORS: ReadonlySet<BackendErrorCode> = new Set([
  "file_not_found",
  "is_directory",
  "invalid_path",
  "already_exists",
  "permission_denied",
  "invalid_argument",
  "conflict",
]);

/**
 * A routed backend's error with its paths as the caller wrote them: the
 * backend saw `/a.md` (or `/` for the route's own folder) where the caller
 * asked for `/memories/a.md` (`/memories`). Rewrites the inner path and its
 * folders where they stand as paths (after a quote, a space or the start).
 */
function outerError(res: BackendError, prefix: string, inner: string): BackendError {
  if (!prefix || !PATH_ERRORS.has(res.error)) return res;
  const paths = [inner];
  for (let cut = inner.lastIndexOf("/"); cut > 0; cut = inner.lastIndexOf("/", cut - 1)) paths.push(inner.slice(0, cut));
  const pattern = new RegExp(`(^|[\\s'"(])(${paths.map(escapeRegExp).join("|")})(?=$|[\\s'":,.)])`, "g");
  // A conflict quotes the call's own text after its first line: only that line names paths.
  const cut = res.error === "conflict" && res.message.includes("\n") ? res.message.indexOf("\n") : res.message.length;
  const head = res.message
    .slice(0, cut)
    .replace(pattern, (_, before: string, path: string) => before + prefix + (path === "/" ? "" : path));
  return { ...res, message: head + res.message.slice(cut) };
}

export class CompositeBackend implements BackendProtocol {
  readonly #default: BackendProtocol;
  readonly #routes: Route[];
  readonly isolatedRoutes: string[];
  readonly id?: string;
  delete?: BackendProtocol["delete"];
  execute?: (command: string, timeout?: number, options?: ExecuteOptions) => Promise<ExecuteResult>;

  constructor(defaultBackend: BackendProtocol, routes: Record<string, BackendProtocol>) {
    this.#default = defaultBackend;
    this.#routes = Object.entries(routes)
      .map(([prefix, backend]) => {
        const norm = normalizePath(prefix);
        if (isBackendError(norm) || norm === "/") throw new DeeptabError("invalid_option", `Invalid route prefix '${prefix}'.`);
        return { prefix: norm, backend };
      })
      .sort((a, b) => b.prefix.length - a.prefix.length);
    this.isolatedRoutes = this.#routes.map((r) => r.prefix + "/");
    if ([defaultBackend, ...this.#routes.map((r) => r.backend)].every((b) => b.delete)) {
      this.delete = (path, options) => this.#delete(path, options);
    }
    if (canExecute(defaultBackend)) {
      this.id = defaultBackend.id;
      this.execute = (command, timeout, options) => defaultBackend.execute(command, timeout, options);
    }
  }

  /** The backend for a path and the path as that backend sees it. */
  #route(raw: string): { backend: BackendProtocol; inner: string; prefix: string } | { error: Outcome<never> } {
    const path = normalizePath(raw);
    if (isBackendError(path)) return { error: path };
    for (const r of this.#routes) {
      if (isWithin(path, r.prefix)) return { backend: r.backend, inner: path.slice(r.prefix.length) || "/", prefix: r.prefix };
    }
    return { backend: this.#default, inner: path, prefix: "" };
  }

  #prefixed<T extends { path: string }>(items: T[], prefix: string): T[] {
    return prefix ? items.map((i) => ({ ...i, path: prefix + (i.path === "/" ? "" : i.path) })) : items;
  }

  async ls(raw: string): Promise<Outcome<FileInfo[]>> {
    const r = this.#route(raw);
    if ("error" in r) return r.error;
    const listed = await r.backend.ls(r.inner);
    const res = isBackendError(listed) ? outerError(listed, r.prefix, r.inner) : listed;
    const path = r.prefix + (r.inner === "/" ? "" : r.inner) || "/";
    const routeDirs = this.#routes.filter((rt) => rt.backend !== r.backend || r.prefix === "").filter((rt) => isChild(rt.prefix, path));
    if (isBackendError(res)) {
      if (res.error === "file_not_found" && routeDirs.length) return routeDirs.map((rt) => ({ path: rt.prefix, isDir: true, size: 0 }));
      return res;
    }
    const out = this.#prefixed(res, r.prefix).filter((e) => !routeDirs.some((rt) => rt.prefix === e.path));
    for (const rt of routeDirs) out.push({ path: rt.prefix, isDir: true, size: 0 });
    return sortByPath(out);
  }

  async read(raw: string, offset?: number, limit?: number): Promise<Outcome<ReadSlice>> {
    const r = this.#route(raw);
    if ("error" in r) return r.error;
    const res = await r.backend.read(r.inner, offset, limit);
    return isBackendError(res) ? outerError(res, r.prefix, r.inner) : res;
  }

  async write(raw: string, content: string): Promise<Outcome<{ path: string }>> {
    const r = this.#route(raw);
    if ("error" in r) return r.error;
    const res = await r.backend.write(r.inner, content);
    return isBackendError(res) ? outerError(res, r.prefix, r.inner) : { path: r.prefix + res.path };
  }

  async edit(raw: string, oldString: string, newString: string, replaceAll?: boolean): Promise<Outcome<EditOutcome>> {
    const r = this.#route(raw);
    if ("error" in r) return r.error;
    const res = await r.backend.edit(r.inner, oldString, newString, replaceAll);
    return isBackendError(res) ? outerError(res, r.prefix, r.inner) : { ...res, path: r.prefix + res.path };
  }

  /**
   * Deletes a file or directory; a directory that holds routes (`/` holds them all) loses their files too,
   * as deepagentsjs' CompositeBackend does. Routes are separate stores, so a delete spanning several is
   * checked first over all of them (the `refuse` hook sees every file, with its full path, before any is
   * removed), then made route by route, each atomic.
   */
  async #delete(raw: string, options: DeleteOptions = {}): Promise<Outcome<{ path: string }>> {
    const targets = this.#searchTargets(raw);
    if ("error" in targets) return targets.error;
    const outer = (t: { prefix: string }, refuse: NonNullable<DeleteOptions["refuse"]>): DeleteOptions => ({
      refuse: (paths) => refuse(t.prefix ? paths.map((p) => t.prefix + p) : paths),
    });
    const { refuse } = options;
    if (targets.length > 1 && refuse) {
      const all: string[] = [];
      const dryRun = backendError("invalid_argument", "dry run");
      for (const t of targets) {
        await t.backend.delete!(
          t.inner,
          outer(t, (paths) => {
            all.push(...paths);
            return dryRun;
          }),
        );
      }
      const refused = all.length ? refuse(all.sort()) : undefined;
      if (refused) return refused;
    }
    let first: Outcome<{ path: string }> | undefined;
    let deleted = false;
    for (const t of targets) {
      const res = await t.backend.delete!(t.inner, refuse ? outer(t, refuse) : {});
      if (!isBackendError(res)) deleted = true;
      else if (res.error !== "file_not_found") return outerError(res, t.prefix, t.inner);
      first ??= isBackendError(res) ? outerError(res, t.prefix, t.inner) : res;
    }
    const path = normalizePath(raw) as string;
    return deleted ? { path } : first!;
  }

  /** Does this path belong to the route with `prefix` (and not to a deeper route)? */
  #ownedBy(path: string, prefix: string): boolean {
    return !this.#routes.some((rt) => rt.prefix.length > prefix.length && isWithin(path, rt.prefix));
  }

  /** Backends a search rooted at `path` must visit, each with its inner root. */
  #searchTargets(raw: string): Array<{ backend: BackendProtocol; inner: string; prefix: string }> | { error: Outcome<never> } {
    const r = this.#route(raw);
    if ("error" in r) return r;
    const root = r.prefix + (r.inner === "/" ? "" : r.inner) || "/";
    const targets = [r];
    for (const rt of this.#routes) {
      if (rt.prefix !== r.prefix && rt.prefix.length > r.prefix.length && isWithin(rt.prefix, root)) {
        targets.push({ backend: rt.backend, inner: "/", prefix: rt.prefix });
      }
    }
    return targets;
  }

  async grep(pattern: string, path = "/", glob?: string): Promise<Outcome<GrepMatch[]>> {
    const targets = this.#searchTargets(path);
    if ("error" in targets) return targets.error;
    const all: GrepMatch[] = [];
    for (const t of targets) {
      const res = await t.backend.grep(pattern, t.inner, glob);
      if (isBackendError(res)) {
        if (t === targets[0]) return res;
        continue;
      }
      all.push(...this.#prefixed(res, t.prefix).filter((m) => this.#ownedBy(m.path, t.prefix)));
    }
    return sortMatches(all);
  }

  async glob(pattern: string, path = "/"): Promise<Outcome<FileInfo[]>> {
    const targets = this.#searchTargets(path);
    if ("error" in targets) return targets.error;
    const compiled = compileGlob(pattern);
    if (isGlobError(compiled)) return compiled;
    const root = normalizePath(path) as string;
    const all: FileInfo[] = [];
    for (const t of targets) {
      if (t === targets[0]) {
        const res = await t.backend.glob(pattern, t.inner);
        if (isBackendError(res)) return res;
        all.push(...this.#prefixed(res, t.prefix).filter((f) => this.#ownedBy(f.path, t.prefix)));
        continue;
      }
      // A route below the search root: match the pattern against paths relative to that root.
      const res = await t.backend.glob("**/*", "/");
      if (isBackendError(res)) continue;
      all.push(...this.#prefixed(res, t.prefix).filter((f) => globFilter(compiled, root, f.path)));
    }
    return sortByPath(all);
  }

  async uploadFiles(files: Array<{ path: string; content: Uint8Array }>): Promise<UploadOutcome[]> {
    return Promise.all(
      files.map(async (f) => {
        const r = this.#route(f.path);
        if ("error" in r) return { path: f.path, error: "invalid_path" as const };
        if (!r.backend.uploadFiles) return { path: f.path, error: "not_supported" as const };
        const [res] = await r.backend.uploadFiles([{ path: r.inner, content: f.content }]);
        return res?.error ? { path: f.path, error: res.error } : { path: r.prefix + r.inner };
      }),
    );
  }

  async downloadFiles(paths: string[]): Promise<DownloadOutcome[]> {
    return Promise.all(
      paths.map(async (p) => {
        const r = this.#route(p);
        if ("error" in r) return { path: p, error: "invalid_path" as const };
        if (!r.backend.downloadFiles) return { path: p, error: "not_supported" as const };
        const [res] = await r.backend.downloadFiles([r.inner]);
        return res?.content
          ? { path: r.prefix + r.inner, content: res.content }
          : { path: r.prefix + r.inner, error: res?.error ?? "file_not_found" };
      }),
    );
  }
}

function isChild(prefix: string, dir: string): boolean {
  const parent = prefix.slice(0, prefix.lastIndexOf("/")) || "/";
  return parent === dir;
}

/** A composite built per call from backend options (factories included). */
export function compositeBackend(defaultOption: BackendOption, routes: Record<string, BackendOption>): BackendFactory {
  return (rt) =>
    new CompositeBackend(
      resolveBackend(defaultOption, rt),
      Object.fromEntries(Object.entries(routes).map(([prefix, opt]) => [prefix, resolveBackend(opt, rt)])),
    );
}
