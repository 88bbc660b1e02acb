/** deeptab's own general agent, as the agent calls list it (a leaf: the worker's startup imports it). */
import { GENERAL_AGENT_ID, type AgentSummary } from "../../protocol/agents.ts";

/** The summary of deeptab's own general agent. */
export const GENERAL_AGENT: AgentSummary = {
  id: GENERAL_AGENT_ID,
  origin: "builtin",
  name: "deeptab",
  description: "The general agent: files, a shell, todos, memory, skills and subagents.",
  suggestions: [],
};
