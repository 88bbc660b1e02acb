/**
 * Why the thread's agent is not among this browser's listed agents, as the picker says it after the agent's name:
 * not reviewed (stored with an imported thread), on a LangGraph server, an older version (an edit or a saved demo
 * made a new one, which the list shows; the thread keeps the version it ran with), or removed.
 */
import type { AgentSummary } from "../../protocol/agents.ts";
import { SERVER_AGENT_PREFIX } from "../../page/langgraph-runtime.ts";

export function unlistedMark(agent: { id: string; unreviewed?: boolean }, listed: readonly Pick<AgentSummary, "editedFrom">[]): string {
  if (agent.unreviewed) return "not reviewed";
  if (agent.id.startsWith(SERVER_AGENT_PREFIX)) return "on the server";
  return listed.some((a) => a.editedFrom === agent.id) ? "older version" : "removed";
}
