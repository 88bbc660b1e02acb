/**
 * Agents in the protocol: where an agent comes from, how the gallery and a review show it, what a person uploads,
 * and the agent library's calls.
 */
import type { AgentManifest, McpServerSpec, ModelRef } from "../agent-folders/definition.ts";
import { MAX_AGENT_ARCHIVE_BYTES, MAX_AGENT_BYTES, MAX_AGENT_FILES } from "../agent-folders/limits.ts";
import type { AgentHost } from "../agent-folders/hosts.ts";
import type { DemoSummary } from "../models/replay/format.ts";
import type { AgentResult } from "./errors.ts";

/** A recorded demo an agent folder carries (`demos/<name>.json`), as a review and the starter chips show it. */
export interface AgentDemo extends DemoSummary {
  /** Its file in the folder (`demos/summarize.json`): what a replay names. */
  file: string;
}

/**
 * Where an agent comes from:
 * - `builtin`: deeptab's general agent (always there; id {@link GENERAL_AGENT_ID}, no files, no hash);
 * - `site`: a folder under `agents/` bundled with the site by `npm run build` (`site:<folder>`);
 * - `link`: loaded from `?agent=<url>` after the person chose **Use this agent** (`url` is set);
 * - `local`: dropped or picked (a folder, a zip or a JSON bundle), or a local edit of any agent.
 */
export type AgentOrigin = "builtin" | "site" | "link" | "local";

/** The id of deeptab's own general agent. */
export const GENERAL_AGENT_ID = "general";

/**
 * What the page may hand the worker as an {@link AgentUpload} (agent-folders/limits.ts): a zip or JSON bundle of at
 * most `archiveBytes`, a folder of at most `files` files and `folderBytes` bytes. The page refuses a larger drop
 * from the files' sizes, before reading a byte of them (a 200 MB file is never read into memory).
 */
export const AGENT_UPLOAD_LIMITS = { archiveBytes: MAX_AGENT_ARCHIVE_BYTES, folderBytes: MAX_AGENT_BYTES, files: MAX_AGENT_FILES } as const;

/** An agent as the gallery, the header's picker and a thread show it. */
export interface AgentSummary {
  /**
   * Stable for as long as the agent is kept: {@link GENERAL_AGENT_ID}, `site:<folder>`, or `agent:<hash>` for one
   * stored in this browser (a link's or a local one; a new version gets a new id and the old one stays for the
   * threads that used it).
   */
  id: string;
  origin: AgentOrigin;
  /** agent.yaml's `name`, else the folder's name. */
  name: string;
  description: string;
  /** Starter prompts, shown as chips. */
  suggestions: string[];
  /** The content hash of its files (agent-folders/hash.ts); none for the general agent. */
  hash?: string;
  /** `link`: the URL it was loaded from (a changed agent at this URL is asked about again). */
  url?: string;
  /** The model the agent suggests (never a key): the person's own choice still decides. */
  model?: ModelRef;
  /** Where its commands run when it says (agent.yaml `sandbox`); otherwise the setting's. */
  sandbox?: AgentManifest["sandbox"];
  /** When it was stored in this browser (ISO); none for built-in and site agents. */
  addedAt?: string;
  /** `local` edits: the id of the agent (the version) it was edited from. */
  editedFrom?: string;
  /** Stored with an imported thread and not reviewed yet: it does not run until the person uses it from its review. */
  unreviewed?: true;
  /** The recorded demos it carries (`demos/*.json`), in file order; none: unset or empty. */
  demos?: AgentDemo[];
}

/**
 * Everything an agent brings, for the screen a person sees before using an agent from a link, a drop or a picker:
 * shown as text, never rendered as HTML.
 */
export interface AgentReview {
  summary: AgentSummary;
  /** AGENTS.md. */
  instructions: string;
  /**
   * `fork`: it sees the conversation so far, not only its task (`mode: fork`). `keyNotSent`: the origin its model is
   * called at, when none of the person's keys is bound to it: it gets no key there (an OpenAI-compatible server is
   * called without one; OpenAI or Anthropic there runs on the main model instead).
   */
  subagents: Array<{
    name: string;
    description: string;
    tools?: string[];
    model?: ModelRef;
    keyNotSent?: string;
    fork?: boolean;
    file: string;
  }>;
  /** The folder's skills; `pinned`: its SKILL.md is in every request (agent.yaml `pinned_skills`), not read on demand. */
  skills: Array<{ name: string; description: string; file: string; pinned?: boolean }>;
  /** Starter files a new thread gets: workspace path and size in bytes. */
  files: Array<{ path: string; size: number }>;
  /** Which built-in tools are on (agent.yaml `tools`); unset: all. */
  tools?: AgentManifest["tools"];
  /** Approval rules the agent adds (the app's own always hold: an agent cannot switch approval for `execute` off). */
  interruptOn: AgentManifest["interruptOn"];
  permissions: AgentManifest["permissions"];
  /** The rubric every answer is graded against before a run ends (agent.yaml `rubric`), with its cap. */
  rubric?: AgentManifest["rubric"];
  /** Every host the agent would contact besides the person's own provider. */
  hosts: AgentHost[];
  /** The MCP servers agent.yaml names (`mcp_servers`): none is connected unless the person adds it. */
  mcpServers: McpServerSpec[];
  /** Graphs on LangGraph servers the agent may start long tasks on (agent.yaml `async_subagents`). */
  asyncSubagents: AgentManifest["asyncSubagents"];
  /** Every file of the folder with its size (what "Share" exports and the hash covers). */
  allFiles: Array<{ path: string; size: number }>;
  /**
   * `link`: this URL was used before with other content (the hash the person accepted then): the review says the agent
   * changed and asks again.
   */
  changedFrom?: string;
  /** This exact agent (same hash) is already stored: using it does not store a second copy. */
  stored?: boolean;
}

/** What a person drops or picks: a folder's files (paths relative to the folder), a zip, or a JSON bundle. */
export type AgentUpload = { files: Array<{ path: string; content: Uint8Array }> } | { zip: Uint8Array } | { bundle: Uint8Array };

/** An agent shared as files: a zip of its folder and the single-file JSON bundle (agent-folders/bundle.ts). */
export interface AgentExport {
  /** The folder's name (agent.yaml `name`, slugged), for file names. */
  slug: string;
  zip: Uint8Array;
  bundle: string;
  /** The link it came from, when it came from one (copied by "Share agent"). */
  url?: string;
}

/** An agent's folder as the editor shows it: every file, its text when it is UTF-8 text (else only its size). */
export interface AgentFolderView {
  summary: AgentSummary;
  files: Array<{ path: string; size: number; text?: string }>;
}

/** One change of an edit: a file's new text (a new file when the path is new), or its removal. */
export type AgentFileChange = { path: string; text: string } | { path: string; remove: true };

/** What the person gives when a thread is saved as a demo: a title (else the first prompt) and who recorded it. */
export interface DemoSaveInput {
  title?: string;
  recordedBy?: string;
}

/**
 * The agent calls. A review comes first (nothing is stored by a preview); `useAgent` stores the reviewed agent,
 * pinned by the hash the person saw. Validation is all or nothing: an agent with a problem is refused whole.
 */
export interface AgentLibraryApi {
  /** The general agent, the site's agents (agents/ bundled by the build), then the stored ones, newest first. */
  listAgents(): Promise<AgentSummary[]>;
  /** The site's default agent (`DEEPTAB_DEFAULT_AGENT`, or the only bundled one), if any: the page opens on it. */
  defaultAgent(): Promise<string | undefined>;
  /** Fetches and validates an agent from a link (a zip of its folder or a JSON bundle); nothing is stored. */
  previewAgentUrl(url: string): Promise<AgentResult<AgentReview>>;
  /** Validates a dropped or picked agent; nothing is stored. */
  previewAgentUpload(upload: AgentUpload): Promise<AgentResult<AgentReview>>;
  /** The review of an agent already listed (the picker's "About", the site's agents). */
  reviewAgent(agentId: string): Promise<AgentResult<AgentReview>>;
  /**
   * Stores the agent last previewed with this hash (from `previewAgentUrl`/`previewAgentUpload`) and returns it;
   * `not_found` when no such preview is pending (the page must preview again).
   */
  useAgent(hash: string): Promise<AgentResult<AgentSummary>>;
  /** Forgets a stored agent (`in_use` while a thread uses it). Built-in and site agents cannot be removed. */
  removeAgent(agentId: string): Promise<AgentResult<null>>;
  /** The agent's folder as a zip and a JSON bundle (the general agent included). */
  exportAgent(agentId: string): Promise<AgentResult<AgentExport>>;
  /** The agent's files for the editor (the general agent's too: its agent.yaml and AGENTS.md). */
  agentFolder(agentId: string): Promise<AgentResult<AgentFolderView>>;
  /**
   * Saves an edit of any agent as a new local version (`editedFrom` names the version it came from): the whole folder
   * with the changes is validated first (`invalid_agent` with every problem, nothing stored), then stored in one
   * transaction. Threads keep the version they ran with; the version edited is no longer listed, and a local one no
   * thread uses is forgotten in the same transaction. `unchanged` when the files end up as they were.
   */
  saveAgentEdit(agentId: string, changes: AgentFileChange[]): Promise<AgentResult<AgentSummary>>;
  /**
   * The agent of a thread that has no messages yet (a thread's agent is fixed by its first message): its starter
   * files and skills are written to the thread's workspace then.
   */
  setThreadAgent(threadId: string, agentId: string): Promise<AgentResult<null>>;
  /**
   * Saves the thread's recorded run (the branch shown) as a demo of its agent: a new version of the agent folder
   * with demos/<name>.json added (as saveAgentEdit stores one). Codes: not_recorded, thread_busy, invalid_agent,
   * storage_failed.
   */
  saveDemo(threadId: string, info: DemoSaveInput): Promise<AgentResult<{ agent: AgentSummary; file: string }>>;
}
