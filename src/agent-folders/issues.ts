/**
 * zod's issues as agent-folder problems: each names its file, its field (dotted, as the file spells it) and the
 * line the field is on; a union's issue is the one of the branch the value was meant for.
 */
import type { z } from "zod";
import { problem, type AgentProblem } from "./problems.ts";
import type { LocatedYaml } from "./yaml.ts";

type Issue = z.core.$ZodIssue;

/** The dotted field of a path (`interrupt_on.execute.allowed_decisions.0`). */
function fieldOf(path: ReadonlyArray<PropertyKey>): string {
  return path.map(String).join(".");
}

/** Does the raw value have something at `path`? */
function present(data: unknown, path: ReadonlyArray<PropertyKey>): boolean {
  let node = data;
  for (const key of path) {
    if (typeof node !== "object" || node === null || !Object.hasOwn(node, key)) return false;
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  return node !== undefined;
}

/** A union's issues, or those of the one branch that got past the value's type. */
function flatten(issue: Issue, prefix: readonly PropertyKey[]): Array<{ issue: Issue; path: PropertyKey[] }> {
  const path = [...prefix, ...issue.path];
  if (issue.code === "invalid_union" && issue.errors.length) {
    const typed = issue.errors.filter((branch) => !branch.some((i) => i.code === "invalid_type" && i.path.length === 0));
    if (typed.length === 1) return typed[0]!.flatMap((i) => flatten(i, path));
  }
  return [{ issue, path }];
}

/**
 * Problems for zod issues over YAML `yaml` of `file` (its raw data, for telling a missing field from a wrong one).
 * Issues at or below a path in `skip` (already reported, as a secret) are left out.
 */
export function issueProblems(
  issues: readonly Issue[],
  file: string,
  yaml: LocatedYaml,
  skip: ReadonlyArray<ReadonlyArray<PropertyKey>> = [],
): AgentProblem[] {
  const out: AgentProblem[] = [];
  const skipped = (path: readonly PropertyKey[]) => skip.some((s) => s.length <= path.length && s.every((k, i) => path[i] === k));
  for (const { issue, path } of issues.flatMap((i) => flatten(i, []))) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        const at = [...path, key];
        if (skipped(at)) continue;
        out.push(problem("unknown_field", "an unknown field (a typo?)", { file, field: fieldOf(at), ...line(yaml, at) }));
      }
      continue;
    }
    if (skipped(path)) continue;
    const at = { file, ...(path.length ? { field: fieldOf(path) } : {}), ...line(yaml, path) };
    if (issue.code === "invalid_type" && !present(yaml.data, path)) out.push(problem("missing_field", "missing", at));
    else out.push(problem("invalid_field", issue.message, at));
  }
  return out;
}

/**
 * `data` without the fields zod refused (an unknown field; a wrong one, or the field whose list holds a wrong item),
 * so the rest can still be read and checked in the same pass; undefined when an issue is about the whole value.
 */
export function withoutRefused(data: object, issues: readonly Issue[]): object | undefined {
  const copy = structuredClone(data) as Record<PropertyKey, unknown>;
  for (const { issue, path } of issues.flatMap((i) => flatten(i, []))) {
    const paths = issue.code === "unrecognized_keys" ? issue.keys.map((key) => [...path, key]) : [path];
    for (const at of paths) {
      // The nearest field that is an object's key (not a list's index): the whole list goes.
      let end = at.length;
      while (end > 0 && typeof at[end - 1] === "number") end--;
      if (end === 0) return undefined;
      let node: unknown = copy;
      for (const key of at.slice(0, end - 1))
        node = typeof node === "object" && node !== null ? (node as Record<PropertyKey, unknown>)[key] : undefined;
      if (typeof node === "object" && node !== null) delete (node as Record<PropertyKey, unknown>)[at[end - 1]!];
    }
  }
  return copy;
}

/** `{ line }` of a path in the YAML, when known. */
export function line(yaml: LocatedYaml, path: ReadonlyArray<PropertyKey>): { line?: number } {
  const found = yaml.lineOf(path);
  return found === undefined ? {} : { line: found };
}
