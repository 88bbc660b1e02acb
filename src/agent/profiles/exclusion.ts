/**
 * A harness profile's excluded tools, refused when called anyway (deepagentsjs 1.14 `_ToolExclusionMiddleware`). The
 * tools are already left out of the agent's tool list; a model that calls one regardless gets upstream's answer.
 */
import { errorToolMessage } from "../../harness/execute-tool.ts";
import type { AgentMiddleware } from "../../harness/types.ts";

/** The middleware's name. */
const TOOL_EXCLUSION = "ToolExclusionMiddleware";

/** Refuses a call of any of `excluded` with `Error: <name> is not available.` (an error result, as upstream). */
export function toolExclusionMiddleware(excluded: ReadonlySet<string>): AgentMiddleware {
  return {
    name: TOOL_EXCLUSION,
    wrapToolCall(request, next) {
      const { name, id } = request.toolCall;
      if (!excluded.has(name)) return next(request);
      return Promise.resolve({ message: errorToolMessage(id, name, `Error: ${name} is not available.`) });
    },
  };
}
