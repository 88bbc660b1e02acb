/**
 * Links from data the model or a provider wrote (a web search's results, an answer's citations), checked again in
 * the page before one is shown: only http(s) URLs, each once, titled with plain text (the hostname when the title
 * is empty). They are rendered as text and `href`, never as HTML. Pure.
 */

export interface ShownLink {
  href: string;
  title: string;
  host: string;
}

/** The http(s) links of `links`, each once, in order; anything else (javascript:, data:, malformed) is left out. */
export function shownLinks(links: ReadonlyArray<{ url: unknown; title: unknown }> | undefined): ShownLink[] {
  const seen = new Set<string>();
  const out: ShownLink[] = [];
  for (const link of links ?? []) {
    if (typeof link.url !== "string") continue;
    let url: URL;
    try {
      url = new URL(link.url);
    } catch {
      continue;
    }
    if ((url.protocol !== "http:" && url.protocol !== "https:") || seen.has(url.href)) continue;
    seen.add(url.href);
    const title = typeof link.title === "string" ? link.title.replace(/\s+/g, " ").trim().slice(0, 300) : "";
    out.push({ href: url.href, title: title || url.hostname, host: url.hostname });
  }
  return out;
}
