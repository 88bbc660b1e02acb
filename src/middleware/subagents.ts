/**
 * SubAgentMiddleware: the `task(description, subagent_type)` tool.
 *
 * A child starts from [HumanMessage(description)] plus the parent's shared,
 * non-private state (files included); the parent's messages and private
 * fields never cross either way. A fork child (deepagentsjs' `ForkedSubAgent`,
 * `mode: "fork"`) starts from the parent's conversation instead: the view the
 * parent's model last saw (after summarization), without the in-flight AI
 * message that holds the `task` call, then HumanMessage(preamble + description). The parent gets one tool result, the child's
 * last non-empty AI text, plus the child's file changes as an update with
 * explicit delete markers (a child's delete reaches the parent).
 *
 * Isolated children have no `task` tool; a fork's answers every call with a
 * refusal (it keeps the parent's tool list). Parallel `task` calls run concurrently. Each
 * child runs as its own thread `<parent thread>::task::<tool call id>` on the
 * parent's checkpointer, so a child's approval pauses the parent (the
 * interrupt value names the subagent and the `task` call, `taskId`) and
 * resuming the parent resumes it; a child that already finished is not run
 * again, and one cut off mid-run (the page reloaded; the parent's run is
 * continued) runs on from its checkpoint. When several children pause at once,
 * every pause is surfaced, and a resume value `{ decisions, taskId }` answers
 * only the child of that call (the agent refuses an unaddressed one while
 * several wait: resume-gate.ts). Child model tokens carry
 * `metadata.deeptab_subagent` / `deeptab_task_id` so a UI can nest them.
 */
import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { Command, type BaseCheckpointSaver, type LangGraphRunnableConfig } from "@langchain/langgraph/web";
import type { FileData, FilesUpdate } from "../backends/protocol.ts";
import { subagentThreadId } from "../backends/runtime.ts";
import { callLabel } from "../backends/step-file-notes.ts";
import { PARENT_STEP_KEY } from "../backends/step-ledger.ts";
import { takeResumeOrInterrupt } from "../harness/interrupt.ts";
import { messageText } from "../core/messages.ts";
import type { AgentMiddleware, AgentTool, StateField, ToolOutput } from "../harness/types.ts";
import { withClearedResults, type ClearedResults } from "../context/clear-results.ts";
import { compactLine } from "../context/tool-profile.ts";
import { renderView, type SummarizationEvent } from "../context/view.ts";
import { CLEARED_KEY, EVENT_KEY } from "./summarization.ts";
import { TOOL } from "../core/tool-names.ts";

export const SUBAGENTS = "SubAgentMiddleware";
export const GENERAL_PURPOSE = "general-purpose";
/** The delegation tool's name. */
export const TASK_TOOL = TOOL.task;
export const GENERAL_PURPOSE_DESCRIPTION =
  "General-purpose agent for researching complex questions, searching for files and content, and executing multi-step tasks. " +
  "When you are searching for a keyword or file and are not confident that you will find the right match in the first few tries " +
  "use this agent to perform the search for you. This agent has access to all tools as the main agent.";
export const GENERAL_PURPOSE_PROMPT =
  "In order to complete the objective that the user asks of you, you have access to a number of standard tools.";

/**
 * The call counters of LangChain's model/tool call-limit middleware (deepagentsjs 1.14.1 `CALL_COUNT_STATE_KEYS`,
 * #646): each agent counts only its own calls, so a child neither starts from the parent's count nor hands its own
 * (or its reset) back, and parallel children never write one last-value field at once.
 */
const CALL_COUNT_STATE_KEYS = ["threadModelCallCount", "runModelCallCount", "threadToolCallCount", "runToolCallCount"];

/** State keys that never cross into or out of a child, besides private fields. */
const EXCLUDED_STATE_KEYS = new Set([
  "messages",
  "todos",
  "structuredResponse",
  "skillsMetadata",
  "memoryContents",
  ...CALL_COUNT_STATE_KEYS,
]);

/** What a fork's `task` tool answers every call with (deepagentsjs 1.14.1, word for word): a fork cannot delegate. */
export const FORK_RECURSION_REFUSAL =
  "You are a subagent and cannot delegate to another subagent. Complete this task yourself instead of calling this tool again.";

/**
 * What comes before a fork child's task (deepagentsjs 1.14.1 `FORK_TASK_PREAMBLE`, word for word): the conversation
 * it inherits is one it continues as the subagent, not one in which it should delegate again.
 */
export const FORK_TASK_PREAMBLE =
  "[The messages above are a prior conversation you are continuing as the subagent that was just invoked. " +
  "Any mention in them of delegating to a subagent already happened — you are that subagent, not the one being asked " +
  "to delegate further. If you try to delegate to another subagent yourself, it will be refused — complete this task " +
  "directly. Use the specific facts, figures, and identifiers already established in that conversation when completing " +
  "the task below — do not answer generically when exact details are already available above. Your actual task is below.]\n\n";

/** What the task tool needs of a compiled child agent (a DeepAgent satisfies it). */
export interface ChildAgent {
  invoke(input: unknown, config?: LangGraphRunnableConfig): Promise<Record<string, unknown>>;
  getState(config: LangGraphRunnableConfig): Promise<{
    values: Record<string, unknown>;
    next: readonly string[];
    tasks: ReadonlyArray<{ interrupts: ReadonlyArray<{ value?: unknown }> }>;
  }>;
}

/** A subagent as the `task` tool lists it. */
export interface SubagentListing {
  name: string;
  description: string;
  /** Starts from the parent's conversation (`mode: "fork"`), not from the description alone. */
  fork?: boolean;
}

export interface SubagentEntry extends SubagentListing {
  agent: ChildAgent;
}

export interface SubagentMiddlewareOptions {
  subagents: readonly SubagentEntry[];
  /** Parent state fields (to know which are private). */
  stateFields: () => Readonly<Record<string, StateField>>;
  checkpointer?: BaseCheckpointSaver | undefined;
  /** Short tool texts (the compact profile, for small context windows). */
  compact?: boolean;
}

function lastAIText(messages: readonly BaseMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (!AIMessage.isInstance(m)) continue;
    const text = messageText(m);
    if (text.trim()) return text;
  }
  return "Task completed";
}

export function taskDescription(subagents: readonly SubagentListing[]): string {
  const forks = subagents.filter((s) => s.fork).map((s) => s.name);
  const sees = forks.length
    ? `The subagent sees only the description you write (except ${forks.join(", ")}, which also see this conversation), ` +
      "so make it self-contained; it returns a single report. "
    : "The subagent sees only the description you write, so make it self-contained; it returns a single report. ";
  return (
    `Launch an ephemeral subagent to handle complex, multi-step independent tasks with isolated context windows.

Available agent types and the tools they have access to:
${subagents.map((s) => `- ${s.name}: ${s.description}`).join("\n")}

When using the Task tool, you must specify a subagent_type parameter to select which agent type to use. ` +
    sees +
    "When tasks are independent, launch several agents concurrently by sending multiple task calls in one message."
  );
}

/**
 * The `task` tool's text in the compact profile (small windows): one line, then one line per subagent with its
 * description cut to COMPACT_DESCRIPTION_CHARS, so the model still knows what each one is for.
 */
function compactTaskDescription(subagents: readonly SubagentListing[]): string {
  return [
    "Delegate a self-contained task to a subagent; it returns one report. Subagents:",
    ...subagents.map((s) => `- ${s.name}: ${compactLine(s.description)}`),
  ].join("\n");
}

/** The child's file changes relative to what it started with; deletes as null. */
function filesDiff(before: Readonly<Record<string, FileData>>, after: Readonly<Record<string, FileData>>): FilesUpdate {
  const diff: FilesUpdate = {};
  for (const [path, data] of Object.entries(after))
    if (before[path] !== data && JSON.stringify(before[path]) !== JSON.stringify(data)) diff[path] = data;
  for (const path of Object.keys(before)) if (!(path in after)) diff[path] = null;
  return diff;
}

/**
 * What a fork child starts from: the parent's conversation as its model last
 * saw it (the summary and what follows it), without a trailing AI message that
 * still waits for tool results (the one holding this `task` call), then the task after `preamble` (upstream's fork
 * preamble for a child of this agent; an async subagent's remote thread passes `""`: its graph is another agent,
 * whose own delegation is not refused, so the preamble would tell it something untrue).
 */
export function forkMessages(
  state: Readonly<Record<string, unknown>>,
  description: string,
  preamble: string = FORK_TASK_PREAMBLE,
): BaseMessage[] {
  const messages = (state.messages ?? []) as BaseMessage[];
  const last = messages.at(-1);
  const inFlight = last !== undefined && AIMessage.isInstance(last) && (last.tool_calls?.length ?? 0) > 0;
  const settled = inFlight ? messages.slice(0, -1) : messages;
  const seen = withClearedResults(settled, state[CLEARED_KEY] as ClearedResults | undefined);
  return [...renderView(seen, state[EVENT_KEY] as SummarizationEvent | undefined), new HumanMessage(preamble + description)];
}

/** Is `resume` addressed to the task call `taskId` (a resume value `{ decisions, taskId }`)? */
function addressedTo(resume: unknown, taskId: string): boolean {
  return typeof resume === "object" && resume !== null && (resume as { taskId?: unknown }).taskId === taskId;
}

/** The resume value as the child gets it: without the address. */
function childResume(resume: unknown): unknown {
  if (typeof resume !== "object" || resume === null) return resume;
  const { taskId: _address, ...rest } = resume as Record<string, unknown>;
  return rest;
}

/** The `task` tool's name, text and arguments for these subagents (the same for the parent and its forks). */
function taskToolShape(subagents: readonly SubagentListing[], compact: boolean | undefined): Omit<AgentTool, "run"> {
  return {
    name: TASK_TOOL,
    description: compact ? compactTaskDescription(subagents) : taskDescription(subagents),
    schema: {
      type: "object",
      properties: {
        description: { type: "string", description: "The task to execute with the selected agent" },
        subagent_type: {
          type: "string",
          description: `Name of the agent to use. Available: ${subagents.map((s) => s.name).join(", ")}`,
        },
      },
      required: ["description", "subagent_type"],
      additionalProperties: false,
    },
  };
}

/**
 * The `task` tool of a fork child, as deepagentsjs 1.14 gives it: the parent's tool (name, text and arguments, so
 * the fork's request matches the parent's), which answers every call with {@link FORK_RECURSION_REFUSAL}.
 */
export function forkTaskMiddleware(subagents: readonly SubagentListing[], compact?: boolean): AgentMiddleware {
  const task: AgentTool = { ...taskToolShape(subagents, compact), run: () => Promise.resolve(FORK_RECURSION_REFUSAL) };
  return { name: SUBAGENTS, tools: [task] };
}

export function subagentMiddleware(options: SubagentMiddlewareOptions): AgentMiddleware {
  const byName = new Map(options.subagents.map((s) => [s.name, s]));
  const allowed = options.subagents.map((s) => `\`${s.name}\``).join(", ");

  const task: AgentTool = {
    ...taskToolShape(options.subagents, options.compact),
    async run(args, rt): Promise<ToolOutput> {
      const type = args.subagent_type as string;
      const entry = byName.get(type);
      if (!entry) {
        return {
          content: `We cannot invoke subagent ${type} because it does not exist, the only allowed types are ${allowed}`,
          status: "error",
        };
      }
      const fields = options.stateFields();
      const shared: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(rt.state)) {
        if (EXCLUDED_STATE_KEYS.has(key) || fields[key]?.private || key.startsWith("_")) continue;
        shared[key] = value;
      }
      const parentThread = String(rt.config.configurable?.thread_id ?? "thread");
      const childConfig: LangGraphRunnableConfig = {
        configurable: {
          thread_id: subagentThreadId(parentThread, rt.toolCall.id),
          // Its changes to shared stores count in this step too, as this call's (step-ledger.ts).
          [PARENT_STEP_KEY]: { ledger: rt.backendRuntime.stepFiles.ledger, call: callLabel(rt.toolCall) },
        },
        callbacks: rt.config.callbacks,
        signal: rt.config.signal,
        tags: [...(rt.config.tags ?? []), `subagent:${type}`],
        metadata: { ...(rt.config.metadata ?? {}), deeptab_subagent: type, deeptab_task_id: rt.toolCall.id },
        recursionLimit: 10_000,
      };
      const description = args.description as string;
      const start = () => (entry.fork ? forkMessages(rt.state, description) : [new HumanMessage(description)]);
      let result: Record<string, unknown>;
      if (options.checkpointer) {
        // A pause is answered only by a resume addressed to this call (`taskId`): a sibling's answer is never taken.
        const taskId = rt.toolCall.id;
        const askParent = (value: unknown) =>
          childResume(takeResumeOrInterrupt({ subagent: type, taskId, ...(value as object) }, rt.config, (r) => addressedTo(r, taskId)));
        const existing = await entry.agent.getState(childConfig);
        const started = Array.isArray(existing.values.messages) && existing.values.messages.length > 0;
        if (started && existing.next.length === 0) {
          result = existing.values;
        } else if (started) {
          const pending = existing.tasks.flatMap((t) => t.interrupts).map((i) => i.value);
          if (pending.length) {
            result = await entry.agent.invoke(new Command({ resume: askParent(pending[0]) }), childConfig);
          } else {
            // Cut off mid-run (the page went away): it runs on from its last checkpoint.
            result = await entry.agent.invoke(null, childConfig);
          }
        } else {
          result = await entry.agent.invoke({ ...shared, messages: start() }, childConfig);
        }
        const interrupts = result.__interrupt__ as Array<{ value?: unknown }> | undefined;
        if (interrupts?.length) {
          result = await entry.agent.invoke(new Command({ resume: askParent(interrupts[0]!.value) }), childConfig);
          const again = result.__interrupt__ as Array<{ value?: unknown }> | undefined;
          if (again?.length) askParent(again[0]!.value);
        }
      } else {
        result = await entry.agent.invoke({ ...shared, messages: start() }, childConfig);
      }

      const update: Record<string, unknown> = {};
      const diff = filesDiff(rt.state.files ?? {}, (result.files ?? {}) as Record<string, FileData>);
      if (Object.keys(diff).length) update.files = diff;
      for (const [key, value] of Object.entries(result)) {
        if (key === "files" || key.startsWith("__") || EXCLUDED_STATE_KEYS.has(key) || fields[key]?.private || key.startsWith("_"))
          continue;
        if (key in fields && value !== rt.state[key]) update[key] = value;
      }
      const content = lastAIText((result.messages ?? []) as BaseMessage[]);
      return Object.keys(update).length ? { content, update } : content;
    },
  };

  return { name: SUBAGENTS, tools: [task] };
}
