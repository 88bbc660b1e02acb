/**
 * The agent calls of the worker protocol, once (a leaf: the worker's startup and the page's client import it). Typed
 * against AgentLibraryApi, so a call added there and not here does not compile.
 */
import type { AgentLibraryApi } from "./agents.ts";

export const AGENT_CALLS = {
  listAgents: true,
  defaultAgent: true,
  previewAgentUrl: true,
  previewAgentUpload: true,
  reviewAgent: true,
  useAgent: true,
  removeAgent: true,
  exportAgent: true,
  agentFolder: true,
  saveAgentEdit: true,
  setThreadAgent: true,
  saveDemo: true,
} as const satisfies Record<keyof AgentLibraryApi, true>;
