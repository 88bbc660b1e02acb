/**
 * The sandbox kinds, the one list of them: where an agent's commands run (the offline shell, a WebContainer with
 * Node.js and npm, or nowhere). The prompt (deeptab-prompt.ts), the worker's setting (`SandboxChoice` adds "auto"),
 * agent folders' `sandbox` field and the site's agent list all take their kinds from here. Plain data (no imports),
 * in agent/ because the prompt, the lowest room that names a kind, lives here; agent-folders/ and worker/ sit above.
 */

/** The kinds, in the order offered. */
export const SANDBOX_KINDS = ["shell", "webcontainer", "none"] as const;

/** Where commands run: the offline shell, a WebContainer, or nowhere. */
export type SandboxKind = (typeof SANDBOX_KINDS)[number];
