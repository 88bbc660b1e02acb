/**
 * `saveDemo`: a thread's recorded run (the branch shown) as a demo of its agent. Each turn of the branch (a user
 * message that starts one) must have its record (runs/model-replies.ts), and the main agent's recorded replies must be
 * the thread's AI messages of that turn (a branch whose run was replaced or stopped does not match); the demo is then
 * stored as a new version of the agent folder through the library's edit path (validated whole, the secret check
 * included). Turns are found and matched by pure functions ({@link demoTurns}).
 */
import type { BaseMessage } from "@langchain/core/messages";
import { opensTurn } from "../../core/messages.ts";
import { ok } from "../../core/result.ts";
import { DEMOS_DIR, demoFileName, serializeDemo, type DemoCall } from "../../models/replay/format.ts";
import { conversationKey } from "../../models/replay/match.ts";
import { demoOf } from "../../models/replay/recorder.ts";
import type { TurnRecord } from "../runs/model-replies.ts";
import { agentFail } from "./agent-review.ts";
import type { AgentLibrary } from "./agent-library.ts";
import { GENERAL_AGENT_ID, type AgentLibraryApi } from "../../protocol/agents.ts";

/** A turn of a thread: its user message and the messages up to the next turn. */
interface Turn {
  id: string;
  text: string;
  messages: BaseMessage[];
}

/** The turns of `messages`, in order (a message without an id cannot be a turn's key: it is an unnamed turn). */
function threadTurns(messages: readonly BaseMessage[]): Array<Turn | { id: undefined; text: string }> {
  const turns: Array<Turn | { id: undefined; text: string }> = [];
  let current: Turn | undefined;
  for (const m of messages) {
    if (opensTurn(m)) {
      if (m.id) turns.push((current = { id: m.id, text: m.text, messages: [] }));
      else {
        turns.push({ id: undefined, text: m.text });
        current = undefined;
      }
      continue;
    }
    current?.messages.push(m);
  }
  return turns;
}

/** A reply as compared: its text and its tool calls' names. */
const shape = (text: string, tools: readonly { name: string }[]) => JSON.stringify([text.trim(), tools.map((t) => t.name)]);

/** Why a turn's record does not fit the thread's AI messages of that turn, or undefined when it does. */
function recordMismatch(turn: Turn, record: TurnRecord, conversation: string): string | undefined {
  const recorded = record.calls.filter((c) => c.conversation === conversation).map((c) => shape(c.reply.text, c.reply.toolCalls ?? []));
  const shown = turn.messages
    .filter((m) => m.getType() === "ai")
    .map((m) => shape(m.text, (m as { tool_calls?: Array<{ name: string }> }).tool_calls ?? []));
  if (recorded.length !== shown.length) return `it shows ${shown.length} replies of the agent and ${recorded.length} were recorded`;
  const at = recorded.findIndex((r, i) => r !== shown[i]);
  return at < 0 ? undefined : `its reply ${at + 1} is not the one recorded`;
}

/** A turn's message as the refusal names it. */
const named = (text: string) => {
  const line = text.replace(/\s+/g, " ").trim();
  return `"${line.length > 60 ? `${line.slice(0, 59)}…` : line}"`;
};

/** The calls and prompts of a branch's turns, each turn's record in order; or why they cannot make a demo. */
function demoTurns(
  messages: readonly BaseMessage[],
  records: ReadonlyMap<string, TurnRecord>,
): { ok: true; calls: DemoCall[]; prompts: string[]; model: string; window?: number } | { ok: false; message: string } {
  const turns = threadTurns(messages);
  if (!turns.length) return { ok: false, message: "This thread has no turn to save as a demo yet." };
  const conversation = conversationKey(messages);
  const calls: DemoCall[] = [];
  let model: string | undefined;
  let window: number | undefined;
  for (const turn of turns) {
    const record = turn.id === undefined ? undefined : records.get(turn.id);
    if (!record || turn.id === undefined)
      return { ok: false, message: `The turn ${named(turn.text)} was not recorded (it ran before recording, or elsewhere).` };
    const why = recordMismatch(turn, record, conversation);
    if (why)
      return { ok: false, message: `The turn ${named(turn.text)} does not match its recording (${why}): run it again to record it.` };
    calls.push(...record.calls);
    model ??= record.model;
    window ??= record.window;
  }
  if (!calls.length) return { ok: false, message: "No model reply was recorded on this branch." };
  return { ok: true, calls, prompts: turns.map((t) => t.text), model: model!, ...(window ? { window } : {}) };
}

/** What `saveDemo` needs of the worker. */
export interface SaveDemoDeps {
  library: Pick<AgentLibrary, "saveAgentEdit" | "resolve">;
  runningHere(threadId: string): boolean;
  /** The thread's agent id (undefined: the general agent). */
  agentOf(threadId: string): Promise<string | undefined>;
  /** The messages of the branch shown. */
  branchMessages(threadId: string): Promise<readonly BaseMessage[]>;
  /** A turn's record (runs/model-replies.ts). */
  record(threadId: string, turnId: string): Promise<TurnRecord | undefined>;
  now?(): Date;
}

/** `saveDemo`. */
export function demoSaver(deps: SaveDemoDeps): AgentLibraryApi["saveDemo"] {
  return async (threadId, info) => {
    if (deps.runningHere(threadId)) return agentFail("thread_busy", "A run works on this thread: save it as a demo when the run ends.");
    const messages = await deps.branchMessages(threadId);
    const records = new Map<string, TurnRecord>();
    for (const turn of threadTurns(messages)) {
      const record = turn.id === undefined ? undefined : await deps.record(threadId, turn.id);
      if (record && turn.id !== undefined) records.set(turn.id, record);
    }
    const turns = demoTurns(messages, records);
    if (!turns.ok) return agentFail("not_recorded", turns.message);
    const agentId = (await deps.agentOf(threadId)) ?? GENERAL_AGENT_ID;
    const resolved = await deps.library.resolve(agentId);
    if (!resolved.ok) return resolved;
    const taken = new Set([...(resolved.value.agent?.files.keys() ?? [])].filter((p) => p.startsWith(DEMOS_DIR)));
    const title = (info.title?.trim() || turns.prompts[0]!.replace(/\s+/g, " ").trim()).slice(0, 200);
    const recordedBy = info.recordedBy?.trim().slice(0, 200);
    const demo = demoOf(turns.calls, {
      title,
      model: turns.model,
      ...(recordedBy ? { recordedBy } : {}),
      recordedAt: (deps.now?.() ?? new Date()).toISOString(),
      ...(turns.window ? { window: turns.window } : {}),
      prompts: turns.prompts,
    });
    const file = demoFileName(title, taken);
    const saved = await deps.library.saveAgentEdit(agentId, [{ path: file, text: serializeDemo(demo) }]);
    return saved.ok ? ok({ agent: saved.value, file }) : saved;
  };
}
