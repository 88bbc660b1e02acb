/**
 * The sandbox kinds, the one list of them: where an agent's commands run (the offline shell, a WebContainer with
 * Node.js and npm, or nowhere). The prompt (deeptab-prompt.ts), the worker's setting (`SandboxChoice` adds "auto"),
 * agent folders' `sandbox` field and the site's agent list all take their kinds from here. Plain data (no imports),
 * in agent/ because the prompt, the lowest room that names a kind, lives here; agent-folders/ and worker/ sit above.
 */

/** Where commands run: the offline shell, a WebContainer, or nowhere. */
export type SandboxKind = "shell" | "webcontainer" | "none";

/** Every kind, keyed: a kind of `SandboxKind` missing here does not compile. */
const KINDS: Readonly<Record<SandboxKind, true>> = { shell: true, webcontainer: true, none: true };

/** The kinds, in the order offered (a tuple, for `z.enum`). */
export const SANDBOX_KINDS = Object.keys(KINDS) as [SandboxKind, ...SandboxKind[]];
