import { describe, expect, it } from "vitest";
import type { AgentDemo } from "../../protocol/agents.ts";
import { demoMark, starterChips } from "./starter-chips.ts";

const demo = (prompt: string, scripted = false): AgentDemo => ({
  file: `demos/${prompt}.json`,
  title: `Demo of ${prompt}`,
  prompt,
  replies: 2,
  tools: [],
  model: "m",
  scripted,
});

describe("starterChips", () => {
  it("puts the demos first; on the scripted model a prompt a demo answers is the demo only, with a model it is offered too", () => {
    const a = demo("Summarize");
    const agent = { id: "site:x", suggestions: ["Summarize", "Plot it"], demos: [a] };
    expect(starterChips(agent, true)).toEqual([
      { prompt: "Summarize", demo: a },
      { prompt: "Plot it", needsModel: true },
    ]);
    expect(starterChips(agent, false)).toEqual([
      { prompt: "Summarize", demo: a },
      { prompt: "Summarize", needsModel: false },
      { prompt: "Plot it", needsModel: false },
    ]);
  });

  it("on the scripted demo model an agent's prompts without a demo need a model; the general agent's do not", () => {
    expect(starterChips({ id: "site:x", suggestions: ["Plot it"] }, true)).toEqual([{ prompt: "Plot it", needsModel: true }]);
    expect(starterChips({ id: "general", suggestions: ["hello"] }, true)).toEqual([{ prompt: "hello", needsModel: false }]);
  });

  it("marks a scripted demo", () => {
    expect([demoMark(demo("a")), demoMark(demo("b", true))]).toEqual(["Recorded demo", "Recorded demo, scripted"]);
  });
});
