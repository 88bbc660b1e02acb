// Types of scripts/check-imports.mjs (a plain Node script; `npm run check` runs it without a build step).

export interface ImportReport {
  /** Non-test modules checked. */
  modules: number;
  /** One line per violation: "<file>:<line> <what>: <why>". */
  violations: string[];
  /** One line per cycle: "a.ts -> b.ts -> a.ts". */
  cycles: string[];
}

export declare const LAYERS: string[][];
export declare const ROOT_FILES: Record<string, { what: string; imports: string[] }>;
export declare const NODE_ONLY: string[];
export declare const BROWSER_ONLY: { rooms: string[]; packages: string[] };
export declare const UNFOLLOWED: { file: string; kind: string; why: string }[];
export declare const VITE_RESOLVE: { extensions: string[]; conditions: string[]; mainFields: string[]; alias: unknown[] };

export declare function areaOf(root: string, file: string): string;
export declare function roomViolation(from: string, to: string): string | undefined;
export declare function checkImports(root: string): ImportReport;
