/**
 * A replay's demo, read from the thread's agent folder (`UserInput.replay.file`): parsed whole before anything is
 * sent (a bad file is the run's error, naming every problem), with what the turn's user message is marked with.
 */
import type { AgentDefinition } from "../../agent-folders/definition.ts";
import { err, ok, type Result } from "../../core/result.ts";
import type { AgentSpec } from "./agents.ts";
import type { UserInput } from "../../protocol/worker-api.ts";

/** The replay a run plays, or why it cannot: no such demo in the folder, or a file that is not a demo. */
export async function replayOf(
  agent: AgentDefinition | undefined,
  replay: NonNullable<UserInput["replay"]>,
): Promise<Result<NonNullable<AgentSpec["replay"]>, string>> {
  const bytes = agent?.files.get(replay.file);
  if (!bytes) return err(`This thread's agent has no demo ${replay.file}: nothing was sent.`);
  // The schema loads with the first replay (the worker's startup code does not carry it).
  const { parseDemo } = await import("../../models/replay/parse.ts");
  const parsed = parseDemo(new TextDecoder().decode(bytes));
  if (!parsed.ok) return err(`The demo ${replay.file} cannot be replayed (${parsed.error.join("; ")}): nothing was sent.`);
  const demo = parsed.value;
  return ok({
    demo,
    speed: replay.speed,
    info: {
      file: replay.file,
      title: demo.title ?? demo.prompts[0] ?? replay.file,
      model: demo.model,
      ...(demo.recordedBy ? { recordedBy: demo.recordedBy } : {}),
      ...(demo.recordedAt ? { recordedAt: demo.recordedAt } : {}),
      scripted: demo.scripted === true,
      ...(replay.speed !== undefined ? { speed: replay.speed } : {}),
    },
  });
}
