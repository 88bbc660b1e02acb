/**
 * Fuzz: histories crafted the way a hostile export file can be (issue 21 #10).
 * A thread's messages go through the checkpoint serializer, one random field
 * of the JSON is replaced by a random value (a number, null, text, a list, an
 * object, or removed), and the result is read back. The checks of
 * stored-state.ts must either name a problem, or everything that reads a
 * stored history (the thread view, the pending calls, the token estimate, a
 * copy of the AI message, the message reducer) must read it without
 * throwing. A failure prints its seed; `FUZZ_SEED=<seed>` replays it (Node;
 * stored-state.browser.test.ts runs the same in Chromium).
 */
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { messagesStateReducer } from "@langchain/langgraph/web";
import { JsonPlusSerializer } from "@langchain/langgraph-checkpoint";
import { describe, expect, it } from "vitest";
import { copyAIMessage, pendingToolCalls, transcriptText } from "../../core/messages.ts";
import { estimateMessagesTokens } from "../../context/tokens.ts";
import { pick, seededRandom } from "../../testing/random.ts";
import { plain, toMessageInfo, visibleCount } from "../runs/messages.ts";
import { checkpointProblem } from "./stored-state.ts";

const RUNS = 1_500;
const BASE_SEED = Number((typeof process === "undefined" ? undefined : process.env.FUZZ_SEED) ?? 20_261_204);

const HISTORY: BaseMessage[] = [
  new SystemMessage("be brief"),
  new HumanMessage({ content: [{ type: "text", text: "hello" }], id: "h1" }),
  new AIMessage({
    content: "",
    id: "a1",
    tool_calls: [{ id: "call_0", name: "write_file", args: { file_path: "/a.md", content: "x" }, type: "tool_call" }],
    invalid_tool_calls: [{ id: "call_1", name: "edit_file", args: "{", error: "bad JSON", type: "invalid_tool_call" }],
    usage_metadata: { input_tokens: 3, output_tokens: 2, total_tokens: 5 },
    response_metadata: { model: "m" },
  }),
  new ToolMessage({ content: "Updated file /a.md", tool_call_id: "call_0", name: "write_file", status: "success" }),
  new AIMessage({ content: [{ type: "text", text: "done" }], id: "a2" }),
];

/** Hostile values a field is replaced with (`undefined`: the field is removed). */
const VALUES: unknown[] = [undefined, null, 5, -1, true, "", "x", [], [null], [5], {}, { type: 5 }, { type: "text" }, [{}], "call_0"];

/** Every place in the JSON below the messages: [parent, key] pairs. */
function places(node: unknown, out: Array<[Record<string, unknown> | unknown[], string | number]> = []) {
  if (Array.isArray(node)) node.forEach((v, i) => (out.push([node, i]), places(v, out)));
  else if (typeof node === "object" && node !== null)
    for (const [k, v] of Object.entries(node)) {
      out.push([node as Record<string, unknown>, k]);
      places(v, out);
    }
  return out;
}

/** Everything deeptab does with a stored history when a thread opens or a run continues; throws what they throw. */
function readAll(messages: BaseMessage[]): void {
  plain(messages.map(toMessageInfo));
  visibleCount(messages);
  estimateMessagesTokens(messages);
  pendingToolCalls(messages);
  messages.forEach(transcriptText);
  for (const m of messages) if (AIMessage.isInstance(m)) copyAIMessage(m);
  messagesStateReducer(messages, [new HumanMessage("go on")]);
}

describe(`fuzz: ${RUNS} histories with one crafted field (base seed ${BASE_SEED})`, () => {
  it("are either refused naming a problem, or read everywhere without throwing", async () => {
    const serde = new JsonPlusSerializer();
    const [type, bytes] = await serde.dumpsTyped({ messages: HISTORY });
    const json = new TextDecoder().decode(bytes);
    let refused = 0;
    let accepted = 0;
    for (let run = 0; run < RUNS; run++) {
      const seed = BASE_SEED + run;
      const random = seededRandom(seed);
      const doc = JSON.parse(json) as { messages: unknown[] };
      const [parent, key] = pick(random, places(doc.messages));
      const value = structuredClone(pick(random, VALUES));
      if (value === undefined && !Array.isArray(parent)) delete parent[key as string];
      else (parent as Record<string | number, unknown>)[key] = value;
      const crafted = new TextEncoder().encode(JSON.stringify(doc));
      const loaded = (await serde.loadsTyped(type, crafted).catch(() => null)) as { messages?: unknown } | null;
      if (!loaded) continue; // The serializer itself refuses it: the import says "cannot be read".
      const problem = checkpointProblem({ checkpoint: { channel_values: loaded }, pendingWrites: [] });
      if (problem) {
        refused++;
        continue;
      }
      accepted++;
      try {
        readAll(loaded.messages as BaseMessage[]);
      } catch (err) {
        throw new Error(`seed ${seed}: ${String(key)} := ${JSON.stringify(value)} was accepted but reading it threw ${String(err)}`, {
          cause: err,
        });
      }
    }
    // Both sides are exercised: crafted fields that break a message, and ones that do not matter.
    expect(refused).toBeGreaterThan(RUNS / 10);
    expect(accepted).toBeGreaterThan(RUNS / 10);
  });
});
