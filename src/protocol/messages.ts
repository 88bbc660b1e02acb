/**
 * A thread's messages as the page gets them: plain values flattened from LangChain's messages, and the message dicts
 * LangGraph's API takes and gives.
 */
import type { ToolImage } from "../core/tool-images.ts";
import type { RubricResult } from "../middleware/rubric-events.ts";
import type { CitationInfo, WebSearchInfo } from "../core/web-search-blocks.ts";
import type { TokenUsage } from "../core/usage.ts";
import type { Todo } from "../middleware/todos.ts";

export type { CitationInfo, Todo, WebSearchInfo };

/** Who wrote a message, in UI terms. */
export type Role = "user" | "assistant" | "tool" | "system";

/** A tool call the model made. `args` is the parsed JSON the model produced. */
export interface ToolCallInfo {
  id: string;
  name: string;
  args: Record<string, unknown>;
  /** For `task`: what the subagent did (its own messages), when known. */
  children?: MessageInfo[];
}

/** Provider-reported token usage of one model call. */
export type UsageInfo = TokenUsage;

/** A message of a thread, flattened to text. Lists of these are keyed by position, never by id. */
export interface MessageInfo {
  role: Role;
  /** The text content (non-text blocks are not shown). */
  content: string;
  id?: string;
  /** Assistant messages: the tools it called. */
  toolCalls?: ToolCallInfo[];
  /** Assistant messages: what the provider reported. */
  usage?: UsageInfo;
  /**
   * Assistant messages: the answer was stopped by the user (this is the part that arrived).
   * Tool messages: the call was stopped before it finished (`content` is what the model reads).
   */
  stopped?: boolean;
  /** Assistant messages: a failure (a dropped connection) cut the answer off; this is the part that arrived. */
  cutOff?: boolean;
  /** Tool messages: the call never finished (a reload cut it; the next message went on); `content` is for the model. */
  cancelled?: boolean;
  /** Tool messages: the call this answers. */
  toolCallId?: string;
  /** Tool messages: the tool's name. */
  name?: string;
  status?: "success" | "error";
  /**
   * Tool messages: the result is a person's decision at an approval, not the tool's: `reject` (the reason, or
   * deepagents' default text) or `respond` (the answer given instead of running the tool). The tool did not run.
   */
  decision?: "reject" | "respond";
  /** Assistant messages: how the rubric loop's grader judged this answer (the latest grading of it). */
  grade?: GradeInfo;
  /** User messages: feedback the rubric loop's grader added (not the person's). */
  grader?: true;
  /** User messages: the note deeptab added when the person rewound or reverted the workspace's files (protocol/rewind.ts). */
  note?: true;
  /** User messages: the turn was answered by a recorded demo (its replies recorded, its tools run here). */
  replay?: ReplayInfo;
  /** Tool messages: the full result was offloaded to this file. */
  offloadedTo?: string;
  /**
   * Tool messages: the model no longer sees this result; it was cleared from its context (context/clear-results.ts)
   * and the model sees a note naming this file, which holds the full text. The page still shows the result whole.
   */
  clearedTo?: string;
  /** Tool messages: the offloaded result's head and tail, from the stub the model sees. */
  offloadPreview?: string;
  /** Tool messages: how long the call ran. */
  durationMs?: number;
  /**
   * Tool messages: images the tool returned (an MCP tool's screenshot), each a checked PNG, JPEG, GIF or WebP
   * (core/tool-images.ts); the page checks them again before it shows one, as a `data:` URL.
   */
  images?: ToolImage[];
  /** Assistant messages: the searches the provider's own web search ran for this message (shown as tool cards). */
  searches?: WebSearchInfo[];
  /** Assistant messages: the links the answer cites (http(s) only; shown as links, never as HTML). */
  citations?: CitationInfo[];
}

/** Where a replayed turn's answers come from: the demo's file and what it says of itself. */
export interface ReplayInfo {
  file: string;
  title: string;
  /** The model that answered when it was recorded. */
  model: string;
  recordedBy?: string;
  recordedAt?: string;
  /** Recorded against a scripted provider, not a real model. */
  scripted: boolean;
  /** The pace the person chose: times the recorded pace (`Infinity`: at once); absent, the recorded pace. */
  speed?: number;
}

/** A grading by the rubric loop (deepagents' RubricMiddleware): its verdict on an answer. */
export interface GradeInfo {
  result: RubricResult;
  explanation: string;
  criteria: Array<{ name: string; passed: boolean; gap?: string }>;
  /** Zero-based, within the grading run. */
  iteration: number;
  /** The grader call's provider usage, when reported. */
  usage?: UsageInfo;
}

/** A message as LangGraph's API takes and gives it (LangChain's message dict; the messages reducer coerces it). */
export interface MessageDict {
  type: string;
  content: string | Array<Record<string, unknown>>;
  id?: string;
  name?: string;
  tool_calls?: Array<{ id: string; name: string; args: Record<string, unknown>; type?: "tool_call" }>;
  tool_call_id?: string;
  status?: "success" | "error";
}
