import { GraphInterrupt, type LangGraphRunnableConfig } from "@langchain/langgraph/web";

const CONFIG_KEY_SCRATCHPAD = "__pregel_scratchpad";

/**
 * Takes the value of a `Command({ resume })` given for this run, if it has not
 * been taken yet in this node run; otherwise pauses with `value`. Unlike
 * {@link interruptWithConfig} it never replays earlier resume values, so
 * several independent pauses in one node (parallel subagents) are answered
 * one per resume, in call order.
 */
export function takeResumeOrInterrupt<R = unknown>(value: unknown, config: LangGraphRunnableConfig): R {
  const scratchpad = (config.configurable as Record<string, unknown> | undefined)?.[CONFIG_KEY_SCRATCHPAD] as
    | { nullResume?: unknown; consumeNullResume(): unknown }
    | undefined;
  if (!scratchpad) throw new Error("takeResumeOrInterrupt must be called with a graph node's config.");
  if (scratchpad.nullResume !== undefined) return scratchpad.consumeNullResume() as R;
  throw new GraphInterrupt([{ value }]);
}
