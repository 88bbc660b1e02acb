/**
 * Repairs the history before each run so the next request is always valid:
 * every AI tool call without a result gets an error ToolMessage saying it was
 * cancelled (placed right after its AI message), and tool results that answer
 * no call are dropped. An interrupted or crashed run leaves such gaps.
 */
import { AIMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { Overwrite } from "@langchain/langgraph/web";
import type { AgentMiddleware, AgentState } from "../harness/types.ts";

export const PATCH_TOOL_CALLS = "PatchToolCallsMiddleware";

export function cancelledToolCallContent(name: string, id: string): string {
  return `Tool call ${name} with id ${id} was cancelled - another message came in before it could be completed.`;
}

/**
 * `response_metadata` key marking a result that says only that its call got
 * none (its text is for the model): a UI shows the call as cancelled rather
 * than the text as the tool's error.
 */
export const CANCELLED_KEY = "deeptab_cancelled";

/** The error result of a call that never finished, marked {@link CANCELLED_KEY} (plus any `metadata`). */
export function cancelledToolMessage(call: { name: string; id: string }, metadata: Record<string, unknown> = {}): ToolMessage {
  return new ToolMessage({
    content: cancelledToolCallContent(call.name, call.id),
    name: call.name,
    tool_call_id: call.id,
    status: "error",
    response_metadata: { ...metadata, [CANCELLED_KEY]: true },
  });
}

/**
 * The repaired history, or undefined when nothing needs repair. Pure.
 *
 * Results pair with the calls of the AI message they follow (up to the next
 * AI message), never by id across the whole thread: providers repeat ids
 * across turns, and an id answered in an earlier turn must not hide a call
 * of a later one. A result that answers no call of its AI message, or
 * answers one a second time, is dropped; a call without a result gets a
 * "cancelled" error result right after the results its message has.
 */
export function patchDanglingToolCalls(messages: readonly BaseMessage[]): BaseMessage[] | undefined {
  // Pass 1: the ids answered in each AI message's window (up to the next non-tool message).
  const answeredIn = new Map<number, Set<string>>();
  let owner = -1;
  messages.forEach((m, i) => {
    if (ToolMessage.isInstance(m)) {
      if (owner >= 0) answeredIn.get(owner)!.add(m.tool_call_id);
      return;
    }
    owner = AIMessage.isInstance(m) ? i : -1;
    if (owner >= 0) answeredIn.set(i, new Set());
  });
  // Pass 2: cancelled results right after each AI message; orphan and repeated results dropped.
  let changed = false;
  const out: BaseMessage[] = [];
  let open = new Set<string>();
  messages.forEach((m, i) => {
    if (ToolMessage.isInstance(m)) {
      if (!open.delete(m.tool_call_id)) {
        changed = true;
        return;
      }
      out.push(m);
      return;
    }
    out.push(m);
    open = new Set();
    if (!AIMessage.isInstance(m)) return;
    const answered = answeredIn.get(i)!;
    for (const call of m.tool_calls ?? []) {
      if (typeof call.id !== "string" || call.id === "" || open.has(call.id)) continue;
      open.add(call.id);
      if (answered.has(call.id)) continue;
      changed = true;
      out.push(cancelledToolMessage({ name: call.name, id: call.id }));
      open.delete(call.id);
    }
  });
  return changed ? out : undefined;
}

export function patchToolCallsMiddleware(): AgentMiddleware {
  return {
    name: PATCH_TOOL_CALLS,
    beforeAgent(state: Readonly<AgentState>) {
      const patched = patchDanglingToolCalls(state.messages);
      return patched ? { messages: new Overwrite(patched) } : undefined;
    },
  };
}
