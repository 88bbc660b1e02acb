/**
 * deepagentsjs 1.13.3–1.14.1 synchronous-subagent behaviours (issue 42), one row each, through whole agent runs with
 * scripted models: the modes' names, forks (own prompt, no skills, a `task` that refuses), one name per subagent,
 * inherited tools, harness profiles inside subagents, and the call counters that stay with their agent (#646).
 * Chromium runs this file too (upstream-parity-winter-2026-subagents.browser.test.ts).
 */
import { HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph/web";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentMiddleware, AgentTool } from "../harness/types.ts";
import { FORK_RECURSION_REFUSAL } from "../middleware/subagents.ts";
import { ScriptedChatModel, type RecordedCall, type ScriptedTurn } from "../models/scripted.ts";
import { createDeepAgent, type CreateDeepAgentOptions, type ForkedSubAgent, type SubAgent } from "./create-deep-agent.ts";
import { registerHarnessProfile } from "./profiles/index.ts";
import { _resetRegistryForTesting } from "./profiles/registry.ts";

afterEach(() => _resetRegistryForTesting());

/** A scripted model that reports a provider and a model name, as ChatAnthropic / ChatOpenAI do (profiles key on them). */
class NamedModel extends ScriptedChatModel {
  constructor(
    readonly provider: string,
    readonly model: string,
    script: ScriptedTurn[],
  ) {
    super({ script });
  }
  override _llmType(): string {
    return this.provider;
  }
}

const scripted = (...script: ScriptedTurn[]) => new ScriptedChatModel({ script });
const task = (subagent_type: string, description = "do it", id = `t-${subagent_type}`): ScriptedTurn => ({
  toolCalls: [{ name: "task", args: { description, subagent_type }, id }],
});
const system = (call: RecordedCall) =>
  call.messages
    .filter((m) => SystemMessage.isInstance(m))
    .map((m) => m.text)
    .join("\n");
const results = (messages: readonly BaseMessage[]) => messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m));

/** One turn of an agent ("go"); its final state. */
async function run(options: CreateDeepAgentOptions): Promise<Record<string, unknown> & { messages: BaseMessage[] }> {
  const agent = createDeepAgent({ checkpointer: new MemorySaver(), ...options });
  return (await agent.invoke({ messages: [new HumanMessage("go")] }, { configurable: { thread_id: crypto.randomUUID() } })) as Record<
    string,
    unknown
  > & { messages: BaseMessage[] };
}

/** What building the agent throws (its message), or undefined. */
function refusal(subagents: (SubAgent | ForkedSubAgent)[]): string | undefined {
  try {
    createDeepAgent({ model: scripted(), subagents });
  } catch (e) {
    return (e as Error).message;
  }
  return undefined;
}

/**
 * A middleware counting its agent's model calls in `threadModelCallCount`, a plain last-value field as LangChain's
 * `modelCallLimitMiddleware` declares it; `seen` records the count each call started from.
 */
function callCounter(seen: number[]): AgentMiddleware {
  return {
    name: "CallCounter",
    stateSchema: { threadModelCallCount: { default: () => 0 } },
    async wrapModelCall(request, next) {
      const count = (request.state.threadModelCallCount as number | undefined) ?? 0;
      seen.push(count);
      const response = await next(request);
      return { ...response, update: { ...response.update, threadModelCallCount: count + 1 } };
    },
  };
}

const lookup: AgentTool = {
  name: "lookup",
  description: "Looks a word up.",
  schema: { type: "object", properties: { word: { type: "string" } }, required: ["word"] },
  run: (args) => Promise.resolve(`found ${String(args.word)}`),
};

interface Row {
  behaviour: string;
  upstream: string;
  check(): Promise<void>;
}

const ROWS: Row[] = [
  {
    behaviour: 'mode: "isolated" names the default mode: the child sees only its task',
    upstream: "1.14.0",
    async check() {
      const child = scripted({ text: "isolated report" });
      const out = await run({
        model: scripted(task("critic", "review the plan"), { text: "done" }),
        subagents: [{ name: "critic", description: "Critiques.", systemPrompt: "CRITIC", mode: "isolated", model: child }],
      });
      expect(child.calls[0]!.messages.map((m) => [m.getType(), m.text])).toEqual([
        ["system", "CRITIC"],
        ["human", "review the plan"],
      ]);
      expect(results(out.messages).map((m) => m.content)).toEqual(["isolated report"]);
    },
  },
  {
    behaviour: 'mode: "handoff" (the old name) is still accepted, as "isolated"',
    upstream: "1.14.0",
    async check() {
      const child = scripted({ text: "r" });
      await run({
        model: scripted(task("critic"), { text: "done" }),
        subagents: [{ name: "critic", description: "Critiques.", systemPrompt: "CRITIC", mode: "handoff", model: child }],
      });
      expect(child.calls[0]!.messages.map((m) => m.getType())).toEqual(["system", "human"]);
    },
  },
  {
    behaviour: "a fork's own systemPrompt is appended to the parent's after a blank line",
    upstream: "1.14.0 (#810)",
    async check() {
      const fork = scripted({ text: "checked" });
      await run({
        model: scripted(task("checker"), { text: "done" }),
        systemPrompt: "PARENT PROMPT",
        subagents: [{ name: "checker", description: "Checks.", mode: "fork", systemPrompt: "CHECK EVERY FIGURE", model: fork }],
      });
      expect(system(fork.calls[0]!)).toContain("PARENT PROMPT\n\nCHECK EVERY FIGURE");
    },
  },
  {
    behaviour: "a fork that names skills is refused when the agent is built",
    upstream: "1.14.0 (#810)",
    check() {
      expect(refusal([{ name: "f", description: "d", mode: "fork", skills: ["/skills/"] as unknown as [] }])).toBe(
        `SubAgent 'f' cannot set skills under mode: "fork"; the parent's skills are inherited instead.`,
      );
      return Promise.resolve();
    },
  },
  {
    behaviour: "a fork that calls task gets upstream's refusal as its tool result, and carries on",
    upstream: "1.14.1",
    async check() {
      const fork = scripted(task("general-purpose", "you do it"), { text: "did it myself" });
      const out = await run({
        model: scripted(task("continuer"), { text: "done" }),
        subagents: [{ name: "continuer", description: "Continues.", mode: "fork", model: fork }],
      });
      const refused = results(fork.calls[1]!.messages).at(-1)!;
      expect([refused.name, refused.content, refused.status]).toEqual(["task", FORK_RECURSION_REFUSAL, "success"]);
      expect(results(out.messages).map((m) => m.content)).toEqual(["did it myself"]);
    },
  },
  {
    behaviour: "two subagents with one name are refused when the agent is built, in upstream's words",
    upstream: "1.14.1",
    check() {
      const a = { name: "a", description: "d", systemPrompt: "p" };
      expect(refusal([a, { ...a }])).toBe("Duplicate subagent name 'a'; each subagent must have a unique name.");
      expect(
        refusal([
          { name: "general-purpose", description: "d", systemPrompt: "p" },
          { name: "general-purpose", description: "e", mode: "fork" },
        ]),
      ).toBe("Duplicate subagent name 'general-purpose'; each subagent must have a unique name.");
      return Promise.resolve();
    },
  },
  {
    behaviour: "a user's general-purpose replaces the built-in one (createDeepAgent; not beside it)",
    upstream: "1.14.1 createDeepAgent",
    async check() {
      const parent = scripted(task("general-purpose"), { text: "done" });
      const gp = scripted({ text: "mine" });
      await run({
        model: parent,
        subagents: [{ name: "general-purpose", description: "My own helper.", systemPrompt: "MINE", model: gp }],
      });
      const taskText = JSON.stringify(parent.calls[0]!.toolDefinitions);
      expect(taskText.match(/- general-purpose:/g)).toHaveLength(1);
      expect(taskText).toContain("- general-purpose: My own helper.");
      expect(system(gp.calls[0]!)).toBe("MINE");
    },
  },
  {
    behaviour: "a subagent that names no tools gets the parent's tools",
    upstream: "1.14.1",
    async check() {
      const child = scripted({ text: "r" });
      const held = scripted({ text: "r" });
      await run({
        model: scripted({ toolCalls: [...task("a").toolCalls!, ...task("b").toolCalls!] }, { text: "done" }),
        tools: [lookup],
        subagents: [
          { name: "a", description: "A.", systemPrompt: "A", model: child },
          { name: "b", description: "B.", systemPrompt: "B", model: held, tools: [] },
        ],
      });
      expect(child.calls[0]!.tools).toContain("lookup");
      expect(held.calls[0]!.tools).not.toContain("lookup");
    },
  },
  {
    behaviour: "a harness profile's excluded tools are left out inside subagents, and a call of one is refused",
    upstream: "1.14.0 (_ToolExclusionMiddleware)",
    async check() {
      const model = scripted(
        task("general-purpose"),
        { toolCalls: [{ name: "grep", args: { pattern: "x" } }] },
        { text: "child done" },
        {
          toolCalls: [{ name: "grep", args: { pattern: "y" } }],
        },
        { text: "done" },
      );
      const out = await run({ model, harnessProfile: { excludedTools: ["grep"] } });
      const [parentFirst, childFirst, childSecond] = model.calls;
      expect(parentFirst!.tools).not.toContain("grep");
      expect(childFirst!.tools).not.toContain("grep");
      expect(childFirst!.tools).toContain("read_file");
      const childRefusal = results(childSecond!.messages).at(-1)!;
      expect([childRefusal.content, childRefusal.status]).toEqual(["Error: grep is not available.", "error"]);
      expect(results(out.messages).at(-1)!.content).toBe("Error: grep is not available.");
    },
  },
  {
    behaviour: "each subagent runs under its own model's harness profile",
    upstream: "1.14.0 (resolveSubagentProfile)",
    async check() {
      registerHarnessProfile("acme", { excludedTools: ["glob"], toolDescriptionOverrides: { ls: "ACME LS" } });
      registerHarnessProfile("beta", {
        excludedTools: ["grep"],
        excludedMiddleware: ["PatchToolCallsMiddleware"],
        toolDescriptionOverrides: { ls: "BETA LS" },
      });
      const parent = new NamedModel("acme", "m1", [task("scout"), task("general-purpose"), { text: "gp report" }, { text: "done" }]);
      const scout = new NamedModel("beta", "m2", [{ text: "scouted" }]);
      await run({ model: parent, subagents: [{ name: "scout", description: "Scouts.", systemPrompt: "SCOUT", model: scout }] });
      const lsText = (call: RecordedCall) => JSON.stringify(call.toolDefinitions).match(/"name":"ls","description":"([^"]*)"/)?.[1];
      // The scout (its own model): beta's exclusions and texts, not acme's.
      expect(scout.calls[0]!.tools).toContain("glob");
      expect(scout.calls[0]!.tools).not.toContain("grep");
      expect(lsText(scout.calls[0]!)).toBe("BETA LS");
      // general-purpose (the parent's model): acme's.
      const gp = parent.calls[2]!;
      expect(gp.tools).not.toContain("glob");
      expect(gp.tools).toContain("grep");
      expect(lsText(gp)).toBe("ACME LS");
    },
  },
  {
    behaviour: "a profile's own general-purpose prompt is used as it is (no profile suffix added)",
    upstream: "1.14.1 createDeepAgent",
    async check() {
      const model = scripted(task("general-purpose"), { text: "r" }, { text: "done" });
      await run({ model, harnessProfile: { systemPromptSuffix: "SUFFIX", generalPurposeSubagent: { systemPrompt: "GP OWN" } } });
      expect(system(model.calls[0]!)).toContain("SUFFIX");
      expect(system(model.calls[1]!)).toContain("GP OWN");
      expect(system(model.calls[1]!)).not.toContain("SUFFIX");
    },
  },
  {
    behaviour: "the model/tool call-count fields are not forwarded to subagents, nor back (parallel children included)",
    upstream: "1.14.1 (#646, #842)",
    async check() {
      const parentSeen: number[] = [];
      const childSeen: number[] = [];
      const child = scripted({ text: "r1" }, { text: "r2" });
      const out = await run({
        model: scripted({ toolCalls: [...task("a", "one", "t1").toolCalls!, ...task("a", "two", "t2").toolCalls!] }, { text: "done" }),
        middleware: [callCounter(parentSeen)],
        subagents: [{ name: "a", description: "A.", systemPrompt: "A", model: child, middleware: [callCounter(childSeen)] }],
      });
      expect(childSeen).toEqual([0, 0]);
      expect(parentSeen).toEqual([0, 1]);
      expect(out.threadModelCallCount).toBe(2);
    },
  },
];

describe("upstream parity, winter 2026: synchronous subagents (deepagentsjs 1.13.3–1.14.1)", () => {
  for (const row of ROWS) it(`${row.behaviour} (deepagentsjs ${row.upstream})`, () => row.check());
});
