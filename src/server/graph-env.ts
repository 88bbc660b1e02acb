/** The graph's settings read from the environment (pure; graph.ts builds the graph from them). */
import type { InterruptOnConfig } from "../middleware/hitl.ts";

export type Env = Readonly<Record<string, string | undefined>>;

/** Tool names from `DEEPTAB_INTERRUPT_ON` (comma-separated); `none` or empty: no approvals. */
export function interruptOnFromEnv(env: Env): InterruptOnConfig {
  const raw = env.DEEPTAB_INTERRUPT_ON ?? "execute";
  const names = raw
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "" && s !== "none");
  return Object.fromEntries(names.map((name) => [name, true]));
}
