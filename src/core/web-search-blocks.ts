/**
 * What a provider's own web search left in an AI message, as plain checked data for the page: the searches (their
 * queries and result titles, shown as tool cards) and the answer's citations (shown as links). Anthropic's server
 * tool leaves `server_tool_use` and `web_search_tool_result` blocks and `citations` on text blocks; OpenAI's
 * Responses API leaves `web_search_call` items in `additional_kwargs.tool_outputs` and `annotations` on text blocks
 * (LangChain's `citation` shape, or OpenAI's `url_citation`). The message itself is never changed: the provider
 * needs its blocks back as they are on the next turn. Every URL kept is http(s) (anything else is dropped), every
 * title plain text; the page renders them as text and `href`, never as HTML. Pure.
 */
import { safeHttpUrl } from "./http-url.ts";
import { isRecord } from "./is-record.ts";

/** A link an answer cites. */
export interface CitationInfo {
  /** An http(s) URL. */
  url: string;
  title: string;
}

/** One search the provider ran for the model. */
export interface WebSearchInfo {
  id: string;
  query: string;
  results: CitationInfo[];
  /** The provider's reason when the search failed (`max_uses_exceeded`, `unavailable`, …). */
  error?: string;
}

const MAX_CITATIONS = 50;
const MAX_SEARCH_RESULTS = 20;
const MAX_TITLE = 300;
const MAX_QUERY = 500;

type Rec = Record<string, unknown>;
const blocksOf = (content: unknown): Rec[] => (Array.isArray(content) ? content.filter(isRecord) : []);

function link(url: unknown, title: unknown): CitationInfo | undefined {
  const href = safeHttpUrl(url);
  if (!href) return undefined;
  const text = typeof title === "string" ? title.replace(/\s+/g, " ").trim().slice(0, MAX_TITLE) : "";
  return { url: href, title: text || new URL(href).hostname };
}

function unique(links: Array<CitationInfo | undefined>, max: number): CitationInfo[] {
  const seen = new Set<string>();
  const out: CitationInfo[] = [];
  for (const l of links) {
    if (!l || seen.has(l.url) || out.length >= max) continue;
    seen.add(l.url);
    out.push(l);
  }
  return out;
}

function queryOf(input: unknown): string {
  let value = input;
  if (typeof value === "string") {
    try {
      value = JSON.parse(value) as unknown;
    } catch {
      return "";
    }
  }
  return isRecord(value) && typeof value.query === "string" ? value.query.slice(0, MAX_QUERY) : "";
}

/** The links an answer's text blocks cite (Anthropic `citations`, OpenAI `annotations`), in order, each once. */
function citationsOf(content: unknown): CitationInfo[] {
  const found: Array<CitationInfo | undefined> = [];
  for (const block of blocksOf(content)) {
    if (block.type !== "text") continue;
    for (const c of blocksOf(block.citations)) if (c.type === "web_search_result_location") found.push(link(c.url, c.title));
    for (const a of blocksOf(block.annotations))
      if (a.type === "url_citation" || (a.type === "citation" && (a.source === "url_citation" || a.source === undefined)))
        found.push(link(a.url, a.title));
  }
  return unique(found, MAX_CITATIONS);
}

/** Anthropic: each `server_tool_use` web search with its `web_search_tool_result`. */
function anthropicSearches(content: unknown): WebSearchInfo[] {
  const blocks = blocksOf(content);
  return blocks
    .filter((b) => b.type === "server_tool_use" && b.name === "web_search" && typeof b.id === "string")
    .map((use): WebSearchInfo => {
      const id = use.id as string;
      const search: WebSearchInfo = { id, query: queryOf(use.input), results: [] };
      const result = blocks.find((b) => b.type === "web_search_tool_result" && b.tool_use_id === id);
      if (!result) return search;
      if (Array.isArray(result.content))
        search.results = unique(
          blocksOf(result.content).map((r) => link(r.url, r.title)),
          MAX_SEARCH_RESULTS,
        );
      else if (isRecord(result.content)) search.error = String(result.content.error_code ?? "error").slice(0, 100);
      return search;
    });
}

/** OpenAI: each `web_search_call` item (its sources when the request included them, titled by the answer's citations). */
function openaiSearches(toolOutputs: unknown, cited: readonly CitationInfo[]): WebSearchInfo[] {
  const titles = new Map(cited.map((c) => [c.url, c.title]));
  return blocksOf(toolOutputs)
    .filter((item) => item.type === "web_search_call")
    .map((item, i): WebSearchInfo => {
      const action = isRecord(item.action) ? item.action : {};
      const sources = blocksOf(action.sources).map((s) => link(s.url, titles.get(safeHttpUrl(s.url) ?? "") ?? s.title));
      const search: WebSearchInfo = {
        id: typeof item.id === "string" ? item.id : `web_search_${i}`,
        query: queryOf(action),
        results: unique(sources.length ? sources : [...cited], MAX_SEARCH_RESULTS),
      };
      if (item.status === "failed") search.error = "failed";
      return search;
    });
}

/** The searches and citations of an AI message's content and additional kwargs; empty lists when it has none. */
export function webSearchBlocks(message: { content: unknown; additional_kwargs?: Rec | undefined }): {
  searches: WebSearchInfo[];
  citations: CitationInfo[];
} {
  const citations = citationsOf(message.content);
  const searches = [...anthropicSearches(message.content), ...openaiSearches(message.additional_kwargs?.tool_outputs, citations)];
  return { searches, citations };
}
