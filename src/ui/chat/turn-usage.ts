/**
 * Provider-reported usage of each user turn: every model call from a user's
 * message up to the next one, the main agent's (tool-only calls included)
 * its subagents' and its rubric grader's. Subagents' and the grader's calls
 * count in the turn's totals and are also named on their own. Pure.
 */
import { addUsage } from "../../core/usage.ts";
import type { MessageInfo, UsageInfo } from "../../protocol/messages.ts";

export interface TurnUsage extends UsageInfo {
  /** Model calls that reported usage. */
  calls: number;
  /** The part of the totals that subagents' calls used, when they reported any. */
  subagents?: UsageInfo & { calls: number };
  /** The part of the totals the rubric grader's calls used (one per grade), when they reported any. */
  grader?: UsageInfo & { calls: number };
}

type Tally = UsageInfo & { calls: number };

/** One more call, of usage `u`. */
const add = (t: Tally, u: UsageInfo): Tally => ({ ...addUsage(t, u), calls: t.calls + 1 });

const empty = (): Tally => ({ input: 0, output: 0, calls: 0 });

/**
 * The usage of the turn made of `messages` (a user message and what
 * followed it). `childrenOf` gives a `task` call's subagent messages (from
 * the thread view, or live while it runs).
 */
export function turnUsage(
  messages: readonly MessageInfo[],
  childrenOf: (call: { id: string; children?: MessageInfo[] }) => readonly MessageInfo[],
): TurnUsage | undefined {
  let own = empty();
  let sub = empty();
  let grader = empty();
  for (const m of messages) {
    if (m.role !== "assistant") continue;
    if (m.usage) own = add(own, m.usage);
    if (m.grade?.usage) grader = add(grader, m.grade.usage);
    for (const call of m.toolCalls ?? []) {
      if (call.name !== "task") continue;
      for (const c of childrenOf(call)) if (c.role === "assistant" && c.usage) sub = add(sub, c.usage);
    }
  }
  if (!own.calls && !sub.calls && !grader.calls) return undefined;
  return {
    ...addUsage(addUsage(own, sub), grader),
    calls: own.calls + sub.calls + grader.calls,
    ...(sub.calls ? { subagents: sub } : {}),
    ...(grader.calls ? { grader } : {}),
  };
}

const n = (value: number) => value.toLocaleString("en-US");

/** "3 model calls · 1,234 in · 56 out · 1,000 cached (subagents: 1 call · 300 in · 20 out; grader: 1 call · …)". */
export function turnUsageText(u: TurnUsage): string {
  const calls = (count: number) => `${count} ${count === 1 ? "model call" : "model calls"}`;
  const part = (v: UsageInfo) => `${n(v.input)} in · ${n(v.output)} out${v.cacheRead ? ` · ${n(v.cacheRead)} cached` : ""}`;
  const named = (label: string, v: (UsageInfo & { calls: number }) | undefined) =>
    v ? [`${label}: ${calls(v.calls).replace("model ", "")} · ${part(v)}`] : [];
  const parts = [...named("subagents", u.subagents), ...named("grader", u.grader)];
  return `${calls(u.calls)} · ${part(u)}${parts.length ? ` (${parts.join("; ")})` : ""}`;
}
