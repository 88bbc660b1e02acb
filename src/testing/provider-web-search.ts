/**
 * The providers' own web search as the loopback servers (provider-servers.ts) script it, in each provider's real wire
 * shape, so the real clients parse it:
 * - Anthropic: a `server_tool_use` block (`web_search`, its query), the `web_search_tool_result` block (results
 *   with `encrypted_content`), then the answer's text with `web_search_result_location` citations (streamed as
 *   `input_json_delta`, a whole result block, `citations_delta` and `text_delta` events). A later request that sends
 *   a result block without its `server_tool_use` (or with its results' `encrypted_content` lost) gets the 400 the
 *   real API gives a history it cannot replay.
 * - OpenAI (`POST /v1/responses`, the Responses API): a `web_search_call` item (its query, and its sources), then
 *   a `message` item whose text carries `url_citation` annotations (streamed as `response.*` events).
 * Node only (tests, scripts, e2e).
 */

/** A search the provider ran before its answer; the answer's text cites the results at `cite` (default: the first). */
export interface WebSearchReply {
  query: string;
  results: Array<{ url: string; title: string }>;
  /** Indices into `results` the answer cites. */
  cite?: number[];
}

type Rec = Record<string, unknown>;
const isRecord = (v: unknown): v is Rec => typeof v === "object" && v !== null && !Array.isArray(v);

/** One server-sent event (the shape provider-servers.ts streams); `piece` marks a chunk (`delayMs` is waited before it). */
export interface SearchStreamEvent {
  event?: string;
  data: unknown;
  piece?: boolean;
}

const cited = (search: WebSearchReply) => (search.cite ?? [0]).map((i) => search.results[i]).filter((r) => r !== undefined);

/** Anthropic: the search's blocks (before the answer's text) and the citations the text carries. */
export function anthropicSearch(search: WebSearchReply, n: number): { blocks: Rec[]; citations: Rec[] } {
  const id = `srvtoolu_${n}`;
  const blocks: Rec[] = [
    { type: "server_tool_use", id, name: "web_search", input: { query: search.query } },
    {
      type: "web_search_tool_result",
      tool_use_id: id,
      content: search.results.map((r, i) => ({
        type: "web_search_result",
        url: r.url,
        title: r.title,
        encrypted_content: `enc_${n}_${i}`,
        page_age: null,
      })),
    },
  ];
  const citations = cited(search).map((r, i) => ({
    type: "web_search_result_location",
    url: r.url,
    title: r.title,
    cited_text: `Cited text ${i + 1} of ${r.title}`,
    encrypted_index: `idx_${n}_${i}`,
  }));
  return { blocks, citations };
}

/** Anthropic: the stream events of the search's blocks, from content index 0; returns them and the next index. */
export function anthropicSearchEvents(search: WebSearchReply, n: number): { events: SearchStreamEvent[]; next: number } {
  const { blocks } = anthropicSearch(search, n);
  const [use, result] = blocks as [Rec, Rec];
  const events: SearchStreamEvent[] = [
    {
      event: "content_block_start",
      data: { type: "content_block_start", index: 0, content_block: { ...use, input: {} } },
      piece: true,
    },
    {
      event: "content_block_delta",
      data: { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: JSON.stringify(use.input) } },
    },
    { event: "content_block_stop", data: { type: "content_block_stop", index: 0 } },
    { event: "content_block_start", data: { type: "content_block_start", index: 1, content_block: result }, piece: true },
    { event: "content_block_stop", data: { type: "content_block_stop", index: 1 } },
  ];
  return { events, next: 2 };
}

/** Anthropic: the `citations_delta` events that put the citations on the text block at `index`. */
export function anthropicCitationEvents(citations: readonly Rec[], index: number): SearchStreamEvent[] {
  return citations.map((citation) => ({
    event: "content_block_delta",
    data: { type: "content_block_delta", index, delta: { type: "citations_delta", citation } },
  }));
}

/**
 * Anthropic: why a request's history cannot be replayed (the real API's 400), or undefined: a
 * `web_search_tool_result` must follow its `server_tool_use` in the same assistant message, and keep every
 * result's `encrypted_content`.
 */
export function anthropicReplayProblem(body: Rec): string | undefined {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  for (const [m, message] of messages.entries()) {
    if (!isRecord(message) || message.role !== "assistant" || !Array.isArray(message.content)) continue;
    const uses = new Set<unknown>();
    for (const [b, block] of message.content.entries()) {
      if (!isRecord(block)) continue;
      if (block.type === "server_tool_use") uses.add(block.id);
      if (block.type !== "web_search_tool_result") continue;
      const at = `messages.${m}.content.${b}`;
      if (!uses.has(block.tool_use_id))
        return `${at}: \`web_search_tool_result\` block(s) provided without a corresponding \`server_tool_use\` block`;
      const results = Array.isArray(block.content) ? block.content : [];
      if (results.some((r) => !isRecord(r) || typeof r.encrypted_content !== "string"))
        return `${at}.content: Field required: encrypted_content`;
    }
  }
  return undefined;
}

/** OpenAI Responses: the `web_search_call` output item (status completed; its query, and its sources). */
function openaiSearchItem(search: WebSearchReply, n: number): Rec {
  return {
    type: "web_search_call",
    id: `ws_${n}`,
    status: "completed",
    action: { type: "search", query: search.query, sources: search.results.map((r) => ({ type: "url", url: r.url })) },
  };
}

/** OpenAI Responses: `url_citation` annotations over the whole text, one per cited result. */
function openaiAnnotations(search: WebSearchReply | undefined, text: string): Rec[] {
  if (!search) return [];
  return cited(search).map((r) => ({ type: "url_citation", url: r.url, title: r.title, start_index: 0, end_index: text.length }));
}

export interface ResponsesReply {
  text: string;
  pieces: string[];
  search?: WebSearchReply | undefined;
  toolCalls: Array<{ id: string; name: string; args: Record<string, unknown> }>;
  usage: { input: number; output: number };
}

/** OpenAI Responses: the whole response object. */
export function openaiResponse(reply: ResponsesReply, n: number, model: string, status = "completed"): Rec {
  const output: Rec[] = [];
  if (reply.search) output.push(openaiSearchItem(reply.search, n));
  if (reply.text)
    output.push({
      type: "message",
      id: `msg_${n}`,
      role: "assistant",
      status: "completed",
      content: [{ type: "output_text", text: reply.text, annotations: openaiAnnotations(reply.search, reply.text) }],
    });
  for (const c of reply.toolCalls)
    output.push({
      type: "function_call",
      id: `fc_${c.id}`,
      call_id: c.id,
      name: c.name,
      arguments: JSON.stringify(c.args),
      status: "completed",
    });
  return {
    id: `resp_${n}`,
    object: "response",
    created_at: 0,
    status,
    model,
    output,
    usage: {
      input_tokens: reply.usage.input,
      output_tokens: reply.usage.output,
      total_tokens: reply.usage.input + reply.usage.output,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens_details: { reasoning_tokens: 0 },
    },
  };
}

/** OpenAI Responses: the stream events of the same response. */
export function openaiResponseEvents(reply: ResponsesReply, n: number, model: string): SearchStreamEvent[] {
  const done = openaiResponse(reply, n, model);
  const output = done.output as Rec[];
  let seq = 0;
  const ev = (type: string, fields: Rec, piece = false): SearchStreamEvent => ({
    event: type,
    data: { type, sequence_number: seq++, ...fields },
    piece,
  });
  const events: SearchStreamEvent[] = [ev("response.created", { response: { ...done, status: "in_progress", output: [] } })];
  output.forEach((item, index) => {
    if (item.type === "web_search_call") {
      events.push(ev("response.output_item.added", { output_index: index, item: { ...item, status: "in_progress" } }, true));
      for (const phase of ["in_progress", "searching", "completed"])
        events.push(ev(`response.web_search_call.${phase}`, { output_index: index, item_id: item.id }));
      events.push(ev("response.output_item.done", { output_index: index, item }));
    } else if (item.type === "message") {
      const part = (item.content as Rec[])[0]!;
      events.push(ev("response.output_item.added", { output_index: index, item: { ...item, status: "in_progress", content: [] } }));
      const at = { output_index: index, item_id: item.id, content_index: 0 };
      events.push(ev("response.content_part.added", { ...at, part: { type: "output_text", text: "", annotations: [] } }));
      for (const delta of reply.pieces) events.push(ev("response.output_text.delta", { ...at, delta }, true));
      (part.annotations as Rec[]).forEach((annotation, annotation_index) =>
        events.push(ev("response.output_text.annotation.added", { ...at, annotation_index, annotation })),
      );
      events.push(ev("response.output_text.done", { ...at, text: part.text }));
      events.push(ev("response.content_part.done", { ...at, part }));
      events.push(ev("response.output_item.done", { output_index: index, item }));
    } else {
      events.push(ev("response.output_item.added", { output_index: index, item: { ...item, arguments: "" } }, true));
      events.push(ev("response.function_call_arguments.delta", { output_index: index, item_id: item.id, delta: item.arguments }));
      events.push(ev("response.function_call_arguments.done", { output_index: index, item_id: item.id, arguments: item.arguments }));
      events.push(ev("response.output_item.done", { output_index: index, item }));
    }
  });
  events.push(ev("response.completed", { response: done }));
  return events;
}

/**
 * OpenAI Responses: the request's input as chat-like turns, for matching replies (`lastUserIncludes`, `toolResults`):
 * the last user text, and how many `function_call_output` items it carries.
 */
export function responsesInputFacts(body: Rec): { lastUserText: string; toolResults: number } {
  const input = Array.isArray(body.input) ? body.input.filter(isRecord) : [];
  let lastUserText = "";
  for (const item of input) {
    if (item.role !== "user") continue;
    const text =
      typeof item.content === "string"
        ? item.content
        : Array.isArray(item.content)
          ? item.content
              .filter(isRecord)
              .map((c) => (typeof c.text === "string" ? c.text : ""))
              .join("\n")
          : "";
    if (text) lastUserText = text;
  }
  return { lastUserText, toolResults: input.filter((i) => i.type === "function_call_output").length };
}
