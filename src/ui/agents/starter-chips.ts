/**
 * An agent's starter chips: each recorded demo it carries (its title, replayed when chosen), then its starter prompts.
 * On the scripted demo model a prompt a demo answers is offered as the demo only, and a prompt without a demo needs a
 * model of the person's own (the scripted model does not follow an agent's instructions; the general agent's prompts
 * are the scripted model's own). With a model of their own, every prompt is offered as well, to run with it.
 */
import { GENERAL_AGENT_ID, type AgentDemo, type AgentSummary } from "../../protocol/agents.ts";

/** One chip: the prompt it puts in the message box, the demo that replays it, or that it needs a model. */
export type StarterChip = { prompt: string; demo: AgentDemo } | { prompt: string; needsModel: boolean };

/** The chips of `agent`; `scriptedModel`: the person's model is the scripted demo model (no key set). */
export function starterChips(agent: Pick<AgentSummary, "id" | "suggestions" | "demos">, scriptedModel: boolean): StarterChip[] {
  const demos = agent.demos ?? [];
  const recorded = new Set(scriptedModel ? demos.map((d) => d.prompt) : []);
  const needsModel = scriptedModel && agent.id !== GENERAL_AGENT_ID;
  return [
    ...demos.map((demo) => ({ prompt: demo.prompt, demo })),
    ...agent.suggestions.filter((p) => !recorded.has(p)).map((prompt) => ({ prompt, needsModel })),
  ];
}

/** What a demo chip says besides its title: "Recorded demo" or "Recorded demo, scripted". */
export function demoMark(demo: Pick<AgentDemo, "scripted">): string {
  return demo.scripted ? "Recorded demo, scripted" : "Recorded demo";
}
