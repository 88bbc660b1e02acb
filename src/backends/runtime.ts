import type { BaseStore, LangGraphRunnableConfig } from "@langchain/langgraph/web";
import type { BackendProtocol, FileData, FilesUpdate } from "./protocol.ts";
import { StepFiles } from "./step-files.ts";

/**
 * What a backend may see of the run that uses it. Built per tool call (and
 * per model call for capability checks); never shared between parallel calls.
 */
export interface BackendRuntime {
  /** Files in graph state as of this step (StateBackend reads them). */
  readonly stateFiles: Readonly<Record<string, FileData>>;
  /** File changes made by this call; the harness merges them into the step's update. */
  readonly pendingFiles: FilesUpdate;
  /**
   * State files as this call sees them: `stateFiles` plus the changes of
   * this call and of the calls of the same step that share this object.
   */
  readonly stepFiles: StepFiles;
  readonly config: LangGraphRunnableConfig;
  readonly store?: BaseStore | undefined;
  /** The run's clock (ISO strings); tests pass a fixed one. */
  readonly now: () => string;
}

/** A backend, or a function building one for each call's runtime. */
export type BackendFactory = (runtime: BackendRuntime) => BackendProtocol;
export type BackendOption = BackendProtocol | BackendFactory;

export function resolveBackend(option: BackendOption, runtime: BackendRuntime): BackendProtocol {
  return typeof option === "function" ? option(runtime) : option;
}

/**
 * A runtime for one call. Pass the same `stepFiles` (over the same state
 * files) to the runtimes of calls that run together in one step, so their
 * writes see each other's; by default the call sees only its own.
 */
export function createBackendRuntime(
  stateFiles: Record<string, FileData> | undefined,
  config: LangGraphRunnableConfig,
  now: () => string = () => new Date().toISOString(),
  stepFiles?: StepFiles,
): BackendRuntime {
  const files = stateFiles ?? {};
  return { stateFiles: files, pendingFiles: {}, stepFiles: stepFiles ?? new StepFiles(files), config, store: config.store, now };
}

/** Separates a subagent's own thread id from its parent's: `<parent>::task::<tool call id>`. */
export const SUBAGENT_THREAD_SEPARATOR = "::task::";

/** The thread id a subagent run by tool call `toolCallId` uses. */
export function subagentThreadId(parentThreadId: string, toolCallId: string): string {
  return `${parentThreadId}${SUBAGENT_THREAD_SEPARATOR}${toolCallId}`;
}

/** The top-level thread of a (possibly subagent) thread id. */
export function rootThreadId(threadId: string): string {
  const cut = threadId.indexOf(SUBAGENT_THREAD_SEPARATOR);
  return cut === -1 ? threadId : threadId.slice(0, cut);
}

/**
 * One tool call of one step of one thread, the same when that step runs
 * again (after a fault, or on resuming from an approval) and different on any
 * other step, a fork included: `step` is the id LangGraph gives the step's
 * task, derived from the checkpoint the step runs from.
 */
export interface CallIdentity {
  readonly thread: string;
  readonly step: string;
  readonly call: string;
}

/** The identity of the tool call `config` belongs to; undefined outside a tool call of a graph step. */
export function callIdentity(config: LangGraphRunnableConfig): CallIdentity | undefined {
  const call = (config as { toolCall?: { id?: unknown } }).toolCall?.id;
  // LangGraph's CONFIG_KEY_TASK_ID; a test holds it to the installed version.
  const step: unknown = config.configurable?.__pregel_task_id;
  if (typeof call !== "string" || !call || typeof step !== "string" || !step) return undefined;
  const thread: unknown = config.configurable?.thread_id;
  return { thread: typeof thread === "string" || typeof thread === "number" ? String(thread) : "", step, call };
}
