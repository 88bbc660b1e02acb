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

/** The repaired history, or undefined when nothing needs repair. Pure. */
export function patchDanglingToolCalls(messages: readonly BaseMessage[]): BaseMessage[] | undefined {
  const callIds = new Set<string>();
  const answered = new Set<string>();
  for (const m of messages) {
    if (AIMessage.isInstance(m)) {
      for (const c of m.tool_calls ?? []) if (c.id) callIds.add(c.id);
    } else if (ToolMessage.isInstance(m)) {
      answered.add(m.tool_call_id);
    }
  }
  let changed = false;
  const out: BaseMessage[] = [];
  const emitted = new Set<string>();
  for (const m of messages) {
    if (ToolMessage.isInstance(m)) {
      if (!callIds.has(m.tool_call_id) || emitted.has(m.tool_call_id)) {
        changed = true;
        continue;
      }
      emitted.add(m.tool_call_id);
      out.push(m);
      continue;
    }
    out.push(m);
    if (!AIMessage.isInstance(m)) continue;
    for (const call of m.tool_calls ?? []) {
      if (!call.id || answered.has(call.id)) continue;
      changed = true;
      emitted.add(call.id);
      out.push(
        new ToolMessage({
          content: cancelledToolCallContent(call.name, call.id),
          name: call.name,
          tool_call_id: call.id,
          status: "error",
        }),
      );
    }
  }
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
