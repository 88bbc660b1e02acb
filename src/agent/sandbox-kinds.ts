/**
 * The sandbox kinds, the one table of them: where an agent's commands run. The prompt (deeptab-prompt.ts), the
 * worker's setting (`SandboxChoice` adds "auto"), agent folders' `sandbox` field and the site's agent list all take
 * their kinds from here. Plain data (no imports), in agent/ because the prompt, the lowest room that names a kind,
 * lives here; agent-folders/ and worker/ sit above it.
 */

/** Each kind, in the order offered, with what it is (as agent.yaml's error message names it). */
export const SANDBOX_TABLE = {
  shell: "the offline shell",
  webcontainer: "Node.js and npm in a WebContainer",
  none: "no commands",
} as const;

/** Where commands run: the offline shell, a WebContainer, or nowhere. */
export type SandboxKind = keyof typeof SANDBOX_TABLE;

/** The kinds, in the table's order (a tuple, for `z.enum`). */
export const SANDBOX_KINDS = Object.keys(SANDBOX_TABLE) as [SandboxKind, ...SandboxKind[]];
