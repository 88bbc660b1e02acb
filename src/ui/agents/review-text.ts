/**
 * What an agent brings, as sentences for its review screen (agents/review-body.svelte): tools, approval rules,
 * permissions, a suggested model, the problems of a refused agent. Pure; every value comes from the agent's files,
 * so everything here is shown as text, never as HTML.
 */
import type { AgentError, ErrorInfo } from "../../protocol/errors.ts";
import type { AgentReview, AgentSummary } from "../../protocol/agents.ts";

type ModelRef = NonNullable<AgentSummary["model"]>;
type Rule = AgentReview["interruptOn"][string];
type Permission = AgentReview["permissions"][number];
export type AgentProblemInfo = NonNullable<AgentError["problems"]>[number];

/** The built-in tools the agent has: all, all but some, or only some. */
export function toolsText(tools: AgentReview["tools"]): string {
  if (!tools) return "All built-in tools.";
  const off = tools.disallowed.length ? tools.disallowed.join(", ") : "";
  if (tools.allowed) {
    const on = tools.allowed.filter((t) => !tools.disallowed.includes(t));
    return on.length ? `Only: ${on.join(", ")}.` : "No built-in tools.";
  }
  return off ? `All built-in tools except ${off}.` : "All built-in tools.";
}

/** One approval rule: the tool and what the person is asked. */
export function ruleText(tool: string, rule: Rule): string {
  if (rule === false) return `${tool}: the agent asks for no approval (the app's own rules still hold).`;
  if (rule === true) return `${tool}: asks you before it runs (approve, edit or reject).`;
  const decisions = rule.allowedDecisions?.length ? rule.allowedDecisions.join(", ") : "approve, edit or reject";
  return `${tool}: asks you before it runs (${decisions})${rule.description ? ` — “${rule.description}”` : ""}.`;
}

const MODE_TEXT: Readonly<Record<Permission["mode"], string>> = { allow: "allowed", deny: "denied", interrupt: "asks you first" };

/** One path rule: operations on paths, and what happens. */
export function permissionText(p: Permission): string {
  return `${p.operations.join(" and ")} ${p.paths.join(", ")}: ${MODE_TEXT[p.mode]}`;
}

/** A suggested model (never a key): provider, model, window and server, as far as it names them. */
export function modelText(m: ModelRef | undefined): string {
  if (!m) return "";
  const parts = [m.provider, m.model].filter(Boolean).join(" · ");
  const window = m.contextWindow ? `${m.contextWindow.toLocaleString("en-US")} tokens` : "";
  const server = m.baseUrl ? `at ${m.baseUrl}` : "";
  return [parts || "your provider", window, server].filter(Boolean).join(", ");
}

/** The problems an error lists (an agent's refusal lists every one; other errors none). */
export function problemsOf(error: AgentError | ErrorInfo): AgentProblemInfo[] {
  return "problems" in error && Array.isArray(error.problems) ? (error.problems as AgentProblemInfo[]) : [];
}

/** Where a problem is: file, line and field, as far as known ("agents/critic.md, line 3, field description"). */
export function problemPlace(p: AgentProblemInfo): string {
  return [p.file, p.line !== undefined ? `line ${p.line}` : "", p.field ? `field ${p.field}` : ""].filter(Boolean).join(", ");
}

const SANDBOX_TEXT: Readonly<Record<NonNullable<AgentSummary["sandbox"]>, string>> = {
  shell: "the offline shell",
  webcontainer: "WebContainer (Node.js and npm in the tab)",
  none: "no shell: the agent runs no commands",
};

export function sandboxText(sandbox: AgentSummary["sandbox"]): string {
  return sandbox ? SANDBOX_TEXT[sandbox] : "";
}

const ORIGIN_TEXT: Readonly<Record<AgentSummary["origin"], string>> = {
  builtin: "Built into deeptab",
  site: "Comes with this site",
  link: "From a link",
  local: "Opened from your files",
};

/** Where the agent comes from, with its link when it has one. */
export function originText(summary: AgentSummary): string {
  return summary.url ? `${ORIGIN_TEXT[summary.origin]}: ${summary.url}` : ORIGIN_TEXT[summary.origin];
}

/** The first characters of a content hash, enough to tell two versions apart. */
export function shortHash(hash: string | undefined): string {
  return hash ? hash.replace(/^sha256[:-]/, "").slice(0, 12) : "";
}
