/**
 * A recorded demo: the model replies of one run of an agent (the main agent's and every subagent's), with enough of
 * each request to tell when a replay no longer matches, and the timing of each reply's stream. An agent folder
 * carries its demos as `demos/<name>.json` (docs/agent-folders.md); {@link ReplayChatModel} plays one back while the
 * tools run for real.
 *
 * ```json
 * {
 *   "format": "deeptab-demo/1",
 *   "title": "Summarize the CSV",
 *   "recordedBy": "Ada",
 *   "model": "openai:gpt-4.1-mini",
 *   "recordedAt": "2026-12-07T15:00:00.000Z",
 *   "prompts": ["Summarize data/sales.csv"],
 *   "calls": [
 *     {
 *       "conversation": "1f3a9c0e2b7d41",
 *       "index": 0,
 *       "request": [{ "kind": "human", "text": "Summarize data/sales.csv" }],
 *       "reply": { "text": "", "toolCalls": [{ "id": "call_0", "name": "read_file", "args": { "file_path": "/data/sales.csv" } }] },
 *       "timing": { "firstMs": 640, "chunks": [], "endMs": 910 }
 *     }
 *   ]
 * }
 * ```
 *
 * A call is found again by its conversation (the digest of the first message a person, or a parent agent, wrote in
 * the request: a subagent's task description starts its own) and its index (the model replies already in that
 * conversation). Its `request` is what the request added since the previous reply: the person's message, or the
 * tool results (name, whether it failed, a digest and the start of the text); match.ts decides what still fits.
 * `timing.chunks` are `[ms since the call started, characters of reply.text]`, in order, adding up to the text.
 * No key or token is ever part of a demo: it holds only what the thread held, and the folder's secret check applies.
 * Reading a file is parse.ts's (its schema loads only where demos are read, not with every run's recorder).
 */

/** The format tag every demo file carries. */
export const DEMO_FORMAT = "deeptab-demo/1";

/** Where an agent folder keeps its demos: `demos/<name>.json`. */
export const DEMOS_DIR = "demos/";

/** Most characters of a tool result a demo keeps to say how a replay differs (the digest decides). */
export const EXCERPT_CHARS = 200;

/** A part of a request: a message a person (or a parent agent) wrote, or a tool's result. */
export type DemoRequestPart =
  | { kind: "human"; text: string }
  | {
      kind: "tool";
      /** The tool that ran. */
      name: string;
      /** The call id the reply gave it. */
      callId: string;
      /** True when the tool reported a failure (a ToolMessage with status "error"). */
      error?: boolean;
      /** The digest of the result with its volatile parts (times, durations, ids) masked (match.ts). */
      digest: string;
      /** The result's first characters, for a person reading why a replay stopped. */
      excerpt: string;
    };

/** A tool call of a recorded reply. */
export interface DemoToolCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
}

/** One model call: how to find it, what its request added, the reply and its pace. */
export interface DemoCall {
  /** Digest of the conversation's first human message (match.ts `conversationKey`). */
  conversation: string;
  /** How many model replies the request held before this one. */
  index: number;
  request: DemoRequestPart[];
  reply: {
    text: string;
    toolCalls?: DemoToolCall[];
    usage?: { input_tokens: number; output_tokens: number };
  };
  timing: {
    /** Milliseconds from the call to its first streamed text (or to the reply, when nothing streamed). */
    firstMs: number;
    /** `[ms since the call, characters]` of each streamed piece of `reply.text`. */
    chunks: Array<[number, number]>;
    /** Milliseconds from the call to the whole reply. */
    endMs: number;
  };
}

/** A recorded demo (see the module comment). */
export interface Demo {
  format: typeof DEMO_FORMAT;
  /** What the demo shows (the review and the starter chip show it); the first prompt when unset. */
  title?: string;
  /** Who recorded it, as they wrote it (shown to visitors). */
  recordedBy?: string;
  /** The model that answered, `provider:model` (or the scripted provider's name). */
  model: string;
  /** Made against a scripted provider written for the demo, not a real model (labelled so). */
  scripted?: boolean;
  /** When it was recorded (ISO 8601). */
  recordedAt?: string;
  /** The context window (tokens) the run was sized to: a replay sizes its summaries alike, so they come at the same step. */
  window?: number;
  /** The person's messages, in order: the first is the demo's prompt. */
  prompts: string[];
  calls: DemoCall[];
}

/** A demo as its file's text: stable key order, two-space indents, a final newline. */
export function serializeDemo(demo: Demo): string {
  return `${JSON.stringify(demo, null, 2)}\n`;
}

/** What a review lists of a demo. */
export interface DemoSummary {
  title: string;
  prompt: string;
  /** Model replies it holds (every agent's). */
  replies: number;
  /** The tools its replies call, each once, in the order first called. */
  tools: string[];
  model: string;
  recordedBy?: string;
  scripted: boolean;
}

/** The review's view of a demo. */
export function summarizeDemo(demo: Demo): DemoSummary {
  const tools: string[] = [];
  for (const c of demo.calls) for (const t of c.reply.toolCalls ?? []) if (!tools.includes(t.name)) tools.push(t.name);
  const prompt = demo.prompts[0] ?? "";
  return {
    title: demo.title ?? prompt,
    prompt,
    replies: demo.calls.length,
    tools,
    model: demo.model,
    ...(demo.recordedBy ? { recordedBy: demo.recordedBy } : {}),
    scripted: demo.scripted === true,
  };
}

/** A file name for a demo (`demos/summarize-the-csv.json`) from its title, not taken by `taken`. */
export function demoFileName(title: string, taken: ReadonlySet<string>): string {
  const slug =
    title
      .toLowerCase()
      .normalize("NFKD")
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 48)
      .replace(/-+$/, "") || "demo";
  let name = `${DEMOS_DIR}${slug}.json`;
  for (let n = 2; taken.has(name); n += 1) name = `${DEMOS_DIR}${slug}-${n}.json`;
  return name;
}
