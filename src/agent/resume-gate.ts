/**
 * Resumes are checked before the graph sees them. A `Command({ resume })` on
 * a paused thread answers exactly one pending approval: the main agent's, or
 * one subagent's (named by `taskId`, the `task` call that runs it). When
 * several subagents wait at once, a resume must say which one it answers; a
 * resume that names none of them, or whose decisions do not fit the request
 * (wrong count, a type the action does not allow, an edit without arguments,
 * a respond without text), is refused with `invalid_decision` before anything
 * is consumed, so the pause stays as it was. A resume for a single pending
 * subagent pause gets its `taskId` added, so the graph hands it to that child
 * and no other.
 *
 * The check reads the thread's state (one `getState`) and runs inside the
 * one-run-per-thread guard, so nothing changes the pause between the check
 * and the run.
 */
import { Command, isCommand } from "@langchain/langgraph/web";
import { HarnessError } from "../harness/errors.ts";
import { decisionsProblem, type HITLRequest } from "../middleware/hitl.ts";
import { isRecord } from "../core/is-record.ts";

/** A pending approval as an interrupt carries it; `taskId` is set when a subagent paused. */
type PendingRequest = HITLRequest & { subagent?: string; taskId?: string };

/** What the gate needs of a compiled graph. */
interface Gated {
  _streamIterator(input: never, options?: never): AsyncGenerator<unknown>;
  getState(config: {
    configurable?: Record<string, unknown>;
  }): Promise<{ tasks: ReadonlyArray<{ interrupts: ReadonlyArray<{ value?: unknown }> }> }>;
}

function isRequest(value: unknown): value is PendingRequest {
  return isRecord(value) && Array.isArray(value.actionRequests) && Array.isArray(value.reviewConfigs);
}

function refuse(message: string): HarnessError {
  return new HarnessError("invalid_decision", message);
}

/** The pending approval a resume value answers; throws `invalid_decision` when it names none, or several could be meant. */
function targetOf(resume: unknown, pending: readonly PendingRequest[]): PendingRequest {
  const names = pending.map((p) => p.taskId ?? "main agent").join(", ");
  const taskId = isRecord(resume) ? resume.taskId : undefined;
  if (taskId !== undefined) {
    const found = pending.find((p) => p.taskId !== undefined && p.taskId === taskId);
    if (!found) throw refuse(`No approval of task ${JSON.stringify(taskId)} is pending (pending: ${names}).`);
    return found;
  }
  if (pending.length > 1)
    throw refuse(`${pending.length} approvals are pending (tasks ${names}): add taskId to the resume value to say which one it answers.`);
  return pending[0]!;
}

/** The resume command checked against the thread's pending approvals, addressed to the one it answers. */
async function checked(graph: Gated, command: Command, configurable: Record<string, unknown>): Promise<Command> {
  const state = await graph.getState({ configurable });
  const pending = state.tasks.flatMap((t) => t.interrupts.map((i) => i.value)).filter(isRequest);
  if (pending.length === 0) return command;
  const target = targetOf(command.resume, pending);
  const problem = decisionsProblem(command.resume, target);
  if (problem) throw refuse(problem);
  if (target.taskId === undefined) return command;
  return new Command({
    resume: { ...(command.resume as Record<string, unknown>), taskId: target.taskId },
    ...(command.update !== undefined ? { update: command.update } : {}),
    ...(command.goto !== undefined ? { goto: command.goto } : {}),
    ...(command.graph !== undefined ? { graph: command.graph } : {}),
  });
}

function configurableOf(options: unknown): Record<string, unknown> | undefined {
  const conf = (options as { configurable?: Record<string, unknown> } | undefined)?.configurable;
  if (!conf || (typeof conf.thread_id !== "string" && typeof conf.thread_id !== "number")) return undefined;
  // Nested runs (a subgraph's own namespace) are checked by their parent.
  if (typeof conf.checkpoint_ns === "string" && conf.checkpoint_ns !== "") return undefined;
  return conf;
}

/** Makes `graph` check every resume before running it (see the module comment); returns the graph. */
export function checkResumes<G extends Gated>(graph: G): G {
  const original = graph._streamIterator.bind(graph) as (input: unknown, options?: unknown) => AsyncGenerator<unknown>;
  const gated = async function* (input: unknown, options?: unknown): AsyncGenerator<unknown> {
    const configurable = configurableOf(options);
    // `resume: null` counts: on a paused thread it is a decision that does not fit, and is refused as one.
    const resuming = configurable && isCommand(input) && input.resume !== undefined;
    yield* original(resuming ? await checked(graph, input, configurable) : input, options);
  };
  Object.defineProperty(graph, "_streamIterator", { value: gated, configurable: true, writable: true });
  return graph;
}
