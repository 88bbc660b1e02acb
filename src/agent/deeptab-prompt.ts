/**
 * deeptab's own system prompt: what the agent is, where its files live, and what it can run. One text for both
 * places deeptab's agent runs: the tab (worker/runs/agents.ts, and the start of every agent folder's prompt) and a
 * LangGraph server (server/agent.ts).
 */

import type { SandboxKind } from "./sandbox-kinds.ts";

export type { SandboxKind } from "./sandbox-kinds.ts";

/** Where the agent runs: in the person's tab, or on a LangGraph server (files with the thread, no python3 there). */
export type PromptHost = "tab" | "server";

export const MEMORY_FILE = "/memories/AGENTS.md";
export const SKILLS_DIR = "/skills/";

/** Which of the code-running tools an agent has: an agent folder may leave `execute` or `python` out (default: both kept). */
export interface OfferedCodeTools {
  execute?: boolean;
  python?: boolean;
  /** The offline shell has `python3` (the tab's, on its own worker); false on a server, where the shell runs inline. Default true. */
  shellPython?: boolean;
  /** The host Python's packages come from, when the person chose a package source (the Python packages setting). */
  packages?: string | undefined;
}

/** What Python has: the standard library, and the source's packages when the person chose one (its host). */
function pythonLibraries(packages: string | undefined): string {
  return packages
    ? `standard library, and packages such as numpy, pandas and matplotlib, installed from ${packages} when imported`
    : "standard library only";
}

/** What the prompt says the agent can run: only the tools it has. */
function codeSentence(sandbox: SandboxKind, { execute = true, python = true, shellPython = true, packages }: OfferedCodeTools): string {
  const pythonTool = `the \`python\` tool runs Python 3 (${pythonLibraries(packages)}, no network) over the same files`;
  if (sandbox === "shell") {
    if (!execute) return "You cannot run shell commands.";
    const commands = "Commands (`execute`) run in an offline bash interpreter over the same files: coreutils, grep, sed, awk, jq, find";
    return shellPython
      ? `${commands}, and python3 (${pythonLibraries(packages)}); no node, npm, pip, git or network.`
      : `${commands}; no node, npm, python, git or network.`;
  }
  if (sandbox === "webcontainer" && execute) {
    return (
      "Commands (`execute`) run in a WebContainer: Node.js and npm, no Python there" +
      (python ? `; ${pythonTool.replace(", no network", "")}.` : ".")
    );
  }
  return python ? `You cannot run shell commands; ${pythonTool}.` : "You cannot run shell commands or Python.";
}

const WHERE: Record<PromptHost, string> = {
  tab: "running in the user's browser tab. Your files persist in the browser",
  server: "running on a LangGraph server. Your files persist with the thread",
};

/**
 * deeptab's own system prompt for a sandbox: the general agent's, and the start of every agent folder's (with the
 * code-running tools the folder keeps); on a server (`host: "server"`), the server's agent's.
 */
export function basePrompt(sandbox: SandboxKind, offered: OfferedCodeTools = {}, host: PromptHost = "tab"): string {
  return (
    `You are deeptab, a deep agent ${WHERE[host]}: the workspace at /, ` +
    `memories shared by every thread at /memories/ (keep ${MEMORY_FILE} up to date with what you learn about the user), ` +
    `and skills at ${SKILLS_DIR}. ${codeSentence(sandbox, offered)} Be concise; use Markdown.`
  );
}
