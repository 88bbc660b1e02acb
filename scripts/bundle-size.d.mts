/** Types of bundle-size.mjs (plain JavaScript, so `node scripts/check-bundle.mjs` runs it without a TypeScript loader). */
export interface LoadedFile {
  /** The dist-relative path. */
  file: string;
  raw: number;
  gzip: number;
}

export interface Closure {
  files: LoadedFile[];
  raw: number;
  gzip: number;
}

export const WORKER_STARTUP_GOAL: number;
export const WORKER_STARTUP_BUDGET: number;
export const FIRST_LOAD_TARGET: number;
export const FIRST_VISIT_GOAL: number;
export const PRECACHE_BUDGET: number;
export function staticImports(code: string, name?: string): string[];
export function closure(dist: string, entries: readonly string[]): Closure;
export function workerEntry(dist: string): string;
export function workerStartup(dist: string): Closure;
export function firstLoad(dist: string): Closure;
export function appShell(dist: string): Closure;
