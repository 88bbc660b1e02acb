/** Which async subagent task a tool card is about (the card then opens the task's thread on its server). */
import { ASYNC_TASK_TOOL_NAMES } from "../../core/async-task-names.ts";
import type { RemoteTask } from "../../protocol/threads.ts";

const TOOLS: ReadonlySet<string> = new Set(ASYNC_TASK_TOOL_NAMES);

/**
 * The task a call of an async subagent tool names: its `taskId` argument (check, update, cancel), or the id its
 * launch answered with ("Launched async subagent. taskId: …"); only a task of `tasks` (one that names its server).
 */
export function remoteTaskOf(
  name: string,
  args: Record<string, unknown>,
  result: string | undefined,
  tasks: Readonly<Record<string, RemoteTask>> | undefined,
): RemoteTask | undefined {
  if (!tasks || !TOOLS.has(name)) return undefined;
  const id = typeof args.taskId === "string" ? args.taskId.trim() : /taskId: (\S+)/.exec(result ?? "")?.[1];
  return id ? tasks[id] : undefined;
}

/** A server URL's host for a label (the URL itself when it does not parse). */
export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
