/** The page's side of web search, pure: the timeline's search cards and citations, the links' checks, the switch. */
import { describe, expect, it } from "vitest";
import type { MessageInfo } from "../../protocol/messages.ts";
import { withWebSearch } from "../settings/model-form.ts";
import { shownLinks } from "./links.ts";
import { buildTimeline } from "./timeline.ts";

const results = [
  { url: "https://a.example/x", title: "A" },
  { url: "https://b.example/", title: "B" },
];

describe("the timeline of an answer that searched", () => {
  it("shows each search as a web_search card before the answer, and the answer's citations under it", () => {
    const answer: MessageInfo = {
      role: "assistant",
      content: "Found it.",
      searches: [
        { id: "s1", query: "first", results },
        { id: "s2", query: "second", results: [], error: "max_uses_exceeded" },
      ],
      citations: [results[0]!],
    };
    const items = buildTimeline([{ role: "user", content: "look" }, answer]);
    expect(items.map((i) => i.kind)).toEqual(["user", "tool", "tool", "assistant"]);
    const [, first, second, text] = items;
    expect(first).toMatchObject({
      call: { id: "s1", name: "web_search", args: { query: "first" } },
      status: "done",
      result: "2 results",
      links: results,
    });
    expect(second).toMatchObject({ status: "error", result: "The search failed (max_uses_exceeded)." });
    expect(text).toMatchObject({ kind: "assistant", text: "Found it.", citations: [results[0]] });
  });
});

describe("links shown in the page", () => {
  it("keep only http(s) URLs, each once, titled as plain text (the host when untitled)", () => {
    expect(
      shownLinks([
        { url: "javascript:alert(1)", title: "x" },
        { url: "data:text/html,<b>", title: "x" },
        { url: "/relative", title: "x" },
        { url: "https://a.example/x", title: "  <b>A</b>\n" },
        { url: "https://a.example/x", title: "again" },
        { url: "http://b.example/", title: "" },
        { url: 42, title: "x" },
      ]),
    ).toEqual([
      { href: "https://a.example/x", title: "<b>A</b>", host: "a.example" },
      { href: "http://b.example/", title: "b.example", host: "b.example" },
    ]);
  });
});

describe("the Web search switch", () => {
  it("is kept only where the provider runs a search of its own", () => {
    expect(withWebSearch({ provider: "anthropic", model: "m" }, true)).toEqual({ provider: "anthropic", model: "m", webSearch: true });
    expect(withWebSearch({ provider: "openai", model: "m" }, true)).toEqual({ provider: "openai", model: "m", webSearch: true });
    expect(withWebSearch({ provider: "anthropic", model: "m", webSearch: true }, false)).toEqual({ provider: "anthropic", model: "m" });
    for (const provider of ["openai-compatible", "demo", "wllama", "chrome"] as const)
      expect(withWebSearch({ provider, model: "m" }, true)).toEqual({ provider, model: "m" });
  });
});
