/**
 * `interrupt()` with the run's config passed explicitly.
 *
 * LangGraph's own `interrupt()` finds the running task through
 * AsyncLocalStorage, which browsers and workers lack. This function does the
 * same work with the `config` a node receives: on the first run it throws a
 * GraphInterrupt carrying `value` (the run pauses, the value is surfaced as
 * `__interrupt__`); when the run is resumed with `Command({ resume })`, the
 * node runs again and this returns the resume value. With `check`, a resume
 * value it finds a problem with is refused (`invalid_decision`) before it is
 * taken or recorded, so one bad answer never poisons the pause.
 *
 * It relies on Pregel's per-task scratchpad in `config.configurable`
 * (`__pregel_scratchpad`, `__pregel_send`), the same internals `interrupt()`
 * uses; the HITL tests exercise this path against the installed LangGraph.
 */
import { GraphInterrupt, type LangGraphRunnableConfig } from "@langchain/langgraph/web";
import { HarnessError } from "./errors.ts";

const CONFIG_KEY_SCRATCHPAD = "__pregel_scratchpad";
const CONFIG_KEY_SEND = "__pregel_send";
const CONFIG_KEY_CHECKPOINTER = "__pregel_checkpointer";
const RESUME = "__resume__";

interface Scratchpad {
  interruptCounter: number;
  resume: unknown[];
  nullResume?: unknown;
  consumeNullResume(): unknown;
}

export function interruptWithConfig<R = unknown>(
  value: unknown,
  config: LangGraphRunnableConfig,
  check?: (resume: unknown) => string | undefined,
): R {
  const conf = config.configurable as Record<string, unknown> | undefined;
  if (!conf || !conf[CONFIG_KEY_SCRATCHPAD])
    throw new HarnessError("not_in_graph", "interruptWithConfig must be called with a graph node's config.");
  if (!conf[CONFIG_KEY_CHECKPOINTER])
    throw new HarnessError("invalid_option", "Approvals need a checkpointer: pass `checkpointer` to createDeepAgent.");
  const scratchpad = conf[CONFIG_KEY_SCRATCHPAD] as Scratchpad;
  const send = conf[CONFIG_KEY_SEND] as ((writes: Array<[string, unknown]>) => void) | undefined;
  scratchpad.interruptCounter += 1;
  const idx = scratchpad.interruptCounter;
  if (scratchpad.resume.length > 0 && idx < scratchpad.resume.length) {
    const recorded = scratchpad.resume[idx];
    if (check?.(recorded) === undefined) {
      send?.([[RESUME, scratchpad.resume.slice(0, idx + 1)]]);
      return recorded as R;
    }
    // A value `check` refuses was recorded by an older version (which kept bad decisions): drop it, ask again.
    scratchpad.resume.splice(idx);
  }
  if (scratchpad.nullResume !== undefined) {
    // A refused value is neither taken nor recorded: the pause stays as it was, for a better answer.
    const problem = check?.(scratchpad.nullResume);
    if (problem !== undefined) throw new HarnessError("invalid_decision", problem);
    const v = scratchpad.consumeNullResume();
    scratchpad.resume.push(v);
    send?.([[RESUME, scratchpad.resume]]);
    return v as R;
  }
  throw new GraphInterrupt([{ value }]);
}

/**
 * Takes the value of a `Command({ resume })` given for this run, if it has not
 * been taken yet in this node run and `accepts` it; otherwise pauses with
 * `value`. Unlike {@link interruptWithConfig} it never replays earlier resume
 * values, so several independent pauses in one node (parallel subagents) are
 * answered one per resume, each only by a value addressed to it (`accepts`
 * checks the address), whichever of them reaches this first.
 */
export function takeResumeOrInterrupt<R = unknown>(
  value: unknown,
  config: LangGraphRunnableConfig,
  accepts?: (resume: unknown) => boolean,
): R {
  const scratchpad = (config.configurable as Record<string, unknown> | undefined)?.[CONFIG_KEY_SCRATCHPAD] as Scratchpad | undefined;
  if (!scratchpad) throw new HarnessError("not_in_graph", "takeResumeOrInterrupt must be called with a graph node's config.");
  if (scratchpad.nullResume !== undefined && (accepts?.(scratchpad.nullResume) ?? true)) return scratchpad.consumeNullResume() as R;
  throw new GraphInterrupt([{ value }]);
}
