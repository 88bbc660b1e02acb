/**
 * Filesystem permissions, enforced at the backend layer so every consumer
 * (tools, subagents, memory, skills, eviction) obeys them.
 *
 * Rules: `{ operations: ["read" | "write"], paths: [globs], mode }`, first
 * match wins, no match allows. Rule paths are normalized as file paths are
 * (a literal path covers everything below it); one that could never match is
 * refused when the agent is built. `deny` makes reads and writes of matching
 * paths fail with `permission_denied` and hides matching files from ls, glob
 * and grep results; an edit needs read permission as well as write, since
 * its answer tells what the file holds. `interrupt` rules are turned into approvals for the tool
 * calls that touch them (see permissionInterruptRules); at the backend they
 * allow, since the approval already happened.
 */
import { DeeptabError } from "../core/errors.ts";
import { compileGlob, isGlobError, matchCompiled, type CompiledGlob } from "./glob.ts";
import { isWithin, normalizePath } from "./paths.ts";
import {
  backendError,
  canExecute,
  isBackendError,
  type BackendProtocol,
  type DeleteOptions,
  type DownloadOutcome,
  type Outcome,
  type UploadOutcome,
} from "./protocol.ts";
import { resolveBackend, type BackendOption } from "./runtime.ts";

export type PermissionOperation = "read" | "write";
export type PermissionMode = "allow" | "deny" | "interrupt";

export interface FilesystemPermission {
  operations: PermissionOperation[];
  paths: string[];
  mode: PermissionMode;
}

/** A rule's glob, compiled; an invalid one is a broken setup. (`/dir/**` also covers `/dir` itself.) */
function ruleGlob(glob: string): CompiledGlob {
  const compiled = compileGlob(glob);
  if (isGlobError(compiled)) throw new DeeptabError("invalid_option", `Invalid permission rule path: ${compiled.message}`);
  return compiled;
}

const OPERATIONS: readonly PermissionOperation[] = ["read", "write"];
const MODES: readonly PermissionMode[] = ["allow", "deny", "interrupt"];
/** Characters that make a rule path a glob rather than one literal path. */
const GLOB_CHARS = /[*?[{\\]/;

/**
 * A rule path normalized the way file paths are (paths.ts): repeated slashes,
 * `.` segments and a trailing slash dropped, Unicode NFC. A path without glob
 * characters names a file or a folder, and covers it and everything below it
 * (`/secrets` and `/secrets/` are `/secrets/**`). Anything that could never
 * match a normalized path is refused with `invalid_option`, saying why: a
 * relative path (write `/**\/*.env` for every folder), `..`, `~`, a drive
 * letter, control characters, an invalid glob.
 */
export function normalizeRulePath(raw: unknown): string {
  const refuse = (why: string) => new DeeptabError("invalid_option", `Permission rule path ${JSON.stringify(raw)}: ${why}.`);
  if (typeof raw !== "string" || !raw.trim()) throw refuse("a rule path is a non-empty string such as /secrets/**");
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f]/.test(raw)) throw refuse("control characters are not allowed");
  if (/^[a-zA-Z]:/.test(raw)) throw refuse("Windows paths are not supported; use virtual paths starting with /");
  if (!raw.startsWith("/") && !raw.startsWith("**"))
    throw refuse("it must be absolute (/secrets/**), or start with ** to match in every folder (**/*.env)");
  const segments = raw.split("/").filter((s) => s !== "" && s !== ".");
  if (segments.some((s) => s === ".." || s === "~")) throw refuse("'..' and '~' segments are not allowed");
  const path = ("/" + segments.join("/")).normalize("NFC");
  const glob = GLOB_CHARS.test(path) ? path : path === "/" ? "/**" : `${path}/**`;
  ruleGlob(glob);
  return glob;
}

/**
 * Rules checked and normalized once, when an agent is built: known operations
 * and modes, at least one path, each path through {@link normalizeRulePath}.
 * A rule that could never match is an `invalid_option` error, not silence.
 */
export function normalizeRules(rules: readonly FilesystemPermission[]): FilesystemPermission[] {
  return rules.map((rule, i) => {
    const where = `Permission rule ${i + 1}`;
    if (typeof rule !== "object" || rule === null) throw new DeeptabError("invalid_option", `${where} is not an object.`);
    const { operations, paths, mode } = rule;
    if (!Array.isArray(operations) || !operations.length || !operations.every((o) => OPERATIONS.includes(o)))
      throw new DeeptabError("invalid_option", `${where}: operations must list "read" and/or "write", got ${JSON.stringify(operations)}.`);
    if (!MODES.includes(mode))
      throw new DeeptabError("invalid_option", `${where}: mode must be allow, deny or interrupt, got ${JSON.stringify(mode)}.`);
    if (!Array.isArray(paths) || !paths.length) throw new DeeptabError("invalid_option", `${where}: paths must list at least one path.`);
    return { operations: [...operations], paths: paths.map(normalizeRulePath), mode };
  });
}

/** The mode of the first rule matching this operation and path ("allow" when none does). */
export function permissionFor(rules: readonly FilesystemPermission[], op: PermissionOperation, path: string): PermissionMode {
  const rel = path.replace(/^\/+/, "");
  for (const rule of rules) {
    if (!rule.operations.includes(op)) continue;
    if (rule.paths.some((g) => matchCompiled(ruleGlob(g), rel))) return rule.mode;
  }
  return "allow";
}

/** The literal directory a glob starts with ("/secrets/**\/*.md" → "/secrets"). */
function staticPrefix(glob: string): string {
  const parts: string[] = [];
  for (const segment of glob.split("/").filter(Boolean)) {
    if (/[*?[{]/.test(segment)) break;
    parts.push(segment);
  }
  return "/" + parts.join("/");
}

/** Can a listing or search rooted at `scope` reach a path the rule covers? */
export function scopeOverlaps(scope: string, rule: FilesystemPermission): boolean {
  return rule.paths.some((g) => {
    const prefix = staticPrefix(g);
    return isWithin(prefix, scope) || isWithin(scope, prefix);
  });
}

function denied(op: PermissionOperation, path: string) {
  return backendError("permission_denied", `Error: permission denied for ${op} on ${path}`);
}

/** Wraps a backend so every call obeys the rules. */
export class PermissionedBackend implements BackendProtocol {
  readonly #inner: BackendProtocol;
  readonly #rules: readonly FilesystemPermission[];
  delete?: BackendProtocol["delete"];
  uploadFiles?: BackendProtocol["uploadFiles"];
  downloadFiles?: BackendProtocol["downloadFiles"];

  constructor(inner: BackendProtocol, rules: readonly FilesystemPermission[]) {
    this.#inner = inner;
    this.#rules = normalizeRules(rules);
    if (inner.delete) this.delete = (p, options) => this.#guardWrite(p, () => inner.delete!(p, this.#deleteOptions(p, options)));
    if (inner.uploadFiles) this.uploadFiles = (files) => this.#upload(files);
    if (inner.downloadFiles) this.downloadFiles = (paths) => this.#download(paths);
  }

  #blocked(op: PermissionOperation, raw: string): string | undefined {
    const path = normalizePath(raw);
    if (isBackendError(path)) return undefined; // the inner backend reports the bad path
    return permissionFor(this.#rules, op, path) === "deny" ? path : undefined;
  }

  async #guardWrite<T>(raw: string, run: () => Promise<Outcome<T>>): Promise<Outcome<T>> {
    const blocked = this.#blocked("write", raw);
    return blocked ? denied("write", blocked) : run();
  }

  async #guardRead<T>(raw: string, run: () => Promise<Outcome<T>>): Promise<Outcome<T>> {
    const blocked = this.#blocked("read", raw);
    return blocked ? denied("read", blocked) : run();
  }

  /**
   * A recursive delete removes every file below the path: each must be writable. The check runs inside the
   * backend's unit over the files actually there, so one denied file refuses the whole delete and nothing is
   * removed (a half-done delete cannot happen, even with a file added by a parallel call meanwhile).
   */
  #deleteOptions(raw: string, options: DeleteOptions = {}): DeleteOptions {
    return {
      refuse: (paths) => {
        const denied = paths.filter((p) => permissionFor(this.#rules, "write", p) === "deny");
        if (denied.length === 0) return options.refuse?.(paths);
        const more = denied.length > 1 ? ` and ${denied.length - 1} more` : "";
        return backendError(
          "permission_denied",
          `Error: permission denied for write on ${denied[0]}${more}; nothing under ${normalizePath(raw) as string} was deleted.`,
        );
      },
    };
  }

  #visible<T extends { path: string }>(items: Outcome<T[]>): Outcome<T[]> {
    if (isBackendError(items)) return items;
    return items.filter((i) => permissionFor(this.#rules, "read", i.path) !== "deny");
  }

  ls(path: string) {
    return this.#guardRead(path, async () => this.#visible(await this.#inner.ls(path)));
  }
  read(path: string, offset?: number, limit?: number) {
    return this.#guardRead(path, () => this.#inner.read(path, offset, limit));
  }
  write(path: string, content: string) {
    return this.#guardWrite(path, () => this.#inner.write(path, content));
  }
  /** An edit's answer ("String not found", a count) tells what the file holds: it needs read permission too. */
  edit(path: string, oldString: string, newString: string, replaceAll?: boolean) {
    return this.#guardWrite(path, () => this.#guardRead(path, () => this.#inner.edit(path, oldString, newString, replaceAll)));
  }
  grep(pattern: string, path?: string, glob?: string) {
    return this.#guardRead(path ?? "/", async () => this.#visible(await this.#inner.grep(pattern, path, glob)));
  }
  glob(pattern: string, path?: string) {
    return this.#guardRead(path ?? "/", async () => this.#visible(await this.#inner.glob(pattern, path)));
  }

  async #upload(files: Array<{ path: string; content: Uint8Array }>): Promise<UploadOutcome[]> {
    const allowed = files.filter((f) => !this.#blocked("write", f.path));
    const done = allowed.length ? await this.#inner.uploadFiles!(allowed) : [];
    const byFile = new Map(allowed.map((f, i) => [f, done[i]!]));
    return files.map((f) => byFile.get(f) ?? { path: f.path, error: "permission_denied" as const });
  }

  async #download(paths: string[]): Promise<DownloadOutcome[]> {
    const allowed = paths.filter((p) => !this.#blocked("read", p));
    const done = allowed.length ? await this.#inner.downloadFiles!(allowed) : [];
    const byPath = new Map(allowed.map((p, i) => [p, done[i]!]));
    return paths.map((p) => byPath.get(p) ?? { path: p, error: "permission_denied" as const });
  }
}

/**
 * Applies rules to a backend option. A backend that can run shell commands is
 * refused unless every rule lies inside one of its `isolatedRoutes` (paths
 * its shell cannot reach): a shell could bypass path rules.
 */
export function withPermissions(option: BackendOption, given: readonly FilesystemPermission[]): BackendOption {
  if (given.length === 0) return option;
  const rules = normalizeRules(given);
  return (rt) => {
    const inner = resolveBackend(option, rt);
    if (canExecute(inner)) assertShellSafe(inner, rules);
    return new PermissionedBackend(inner, rules);
  };
}

export function assertShellSafe(backend: BackendProtocol, given: readonly FilesystemPermission[]): void {
  if (!canExecute(backend)) return;
  const rules = normalizeRules(given);
  const isolated = (backend as { isolatedRoutes?: readonly string[] }).isolatedRoutes ?? [];
  const unsafe = rules.filter((r) => !r.paths.every((g) => isolated.some((route) => isWithin(staticPrefix(g), normalizeRoute(route)))));
  if (unsafe.length) {
    throw new DeeptabError(
      "unsupported_backend",
      "Filesystem permissions cannot be used with a backend that supports command execution " +
        "because shell commands can access any path, making path-based rules ineffective. " +
        `Scope every rule to a route the shell cannot reach (${isolated.join(", ") || "none declared"}).`,
    );
  }
}

function normalizeRoute(route: string): string {
  const n = normalizePath(route);
  return isBackendError(n) ? route : n;
}
