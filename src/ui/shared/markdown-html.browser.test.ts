/**
 * renderMarkdown in real Chromium: hostile model output renders inert, links
 * are safe and open in a new tab, and a 100 KB answer renders quickly
 * (time reported, not asserted).
 */
import { afterEach, describe, expect, it } from "vitest";
import { markdownToText, renderMarkdown } from "./markdown.ts";
import { sanitizeMarkdownHtml } from "./sanitize.ts";

declare global {
  interface Window {
    __pwned?: number;
  }
}

const HOSTILE = [
  '<img src=x onerror="window.__pwned=1">',
  "<script>window.__pwned=1</script>",
  "[click](javascript:window.__pwned=1)",
  "[spaced](java\tscript:window.__pwned=1)",
  "[entity](javascript&#58;window.__pwned=1)",
  '<a href="javascript:window.__pwned=1">raw link</a>',
  '<iframe src="javascript:window.__pwned=1"></iframe>',
  '<svg onload="window.__pwned=1"><circle r="1"/></svg>',
  '<a href="https://example.com/" target="_self">self link</a>',
  "[data](data:text/html,<script>parent.__pwned=1</script>)",
  "![tracker](https://tracker.example/pixel.png)",
  "![js](javascript:window.__pwned=1)",
  "[ok](https://example.com/ok) and <https://example.com/auto>",
].join("\n\n");

let host: HTMLElement | undefined;
afterEach(() => {
  host?.remove();
  host = undefined;
  delete window.__pwned;
});

function show(html: string): HTMLElement {
  host = document.createElement("div");
  host.innerHTML = html;
  document.body.append(host);
  return host;
}

describe("renderMarkdown", () => {
  it("renders hostile output inert, even when its links are clicked", async () => {
    const el = show(renderMarkdown(HOSTILE));
    expect(el.querySelector("script, iframe, svg, img, object, embed, style")).toBeNull();
    for (const node of el.querySelectorAll("*")) {
      for (const attr of node.attributes) expect(attr.name.startsWith("on"), `${node.tagName} ${attr.name}`).toBe(false);
    }
    // Raw HTML is shown as text, not dropped.
    expect(el.textContent).toContain("<script>window.__pwned=1</script>");

    // Click every link; only real web links are stopped (no navigation away from the test page).
    const stop = (e: MouseEvent) => {
      const a = (e.target as Element).closest("a");
      if (a && /^https?:/.test(a.href)) e.preventDefault();
    };
    document.addEventListener("click", stop, true);
    try {
      for (const a of el.querySelectorAll("a")) a.click();
    } finally {
      document.removeEventListener("click", stop, true);
    }
    await new Promise((r) => setTimeout(r, 50));
    expect(window.__pwned).toBeUndefined();

    for (const a of el.querySelectorAll("a")) {
      const href = a.getAttribute("href");
      if (href !== null) expect(href).toMatch(/^https?:\/\//);
      expect(a.getAttribute("target")).toBe("_blank");
      expect(a.getAttribute("rel")).toBe("noopener noreferrer");
    }
    const texts = [...el.querySelectorAll("a")].map((a) => a.textContent);
    expect(texts).toContain("image: tracker");
    expect(el.querySelector('a[href="https://tracker.example/pixel.png"]')).not.toBeNull();
    expect(el.querySelector('a[href="https://example.com/ok"]')).not.toBeNull();
  });

  it("sanitizes HTML that did not come from the renderer (defence in depth)", () => {
    const html = sanitizeMarkdownHtml(
      '<a href="javascript:alert(1)" target="_self" onclick="x()">a</a><img src="https://x/y.png">' +
        '<form><input type="text"></form><p style="color:red" id="x">p</p>',
    );
    const el = show(html);
    const a = el.querySelector("a");
    expect(a?.hasAttribute("href")).toBe(false);
    expect(a?.hasAttribute("onclick")).toBe(false);
    expect(a?.getAttribute("target")).toBe("_blank");
    expect(el.querySelector("img, form, input")).toBeNull();
    expect(el.querySelector("p")?.hasAttribute("style")).toBe(false);
    expect(el.querySelector("p")?.hasAttribute("id")).toBe(false);
  });

  it("does not touch other DOMPurify users", async () => {
    renderMarkdown("[x](https://example.com)");
    const { default: DOMPurify } = await import("dompurify");
    expect(DOMPurify.sanitize('<a href="https://example.com">x</a>')).toBe('<a href="https://example.com">x</a>');
  });

  it("keeps task-list checkboxes, disabled", () => {
    const el = show(renderMarkdown("- [x] done\n- [ ] open"));
    const boxes = el.querySelectorAll<HTMLInputElement>("input[type=checkbox]");
    expect(boxes).toHaveLength(2);
    expect([...boxes].every((b) => b.disabled)).toBe(true);
  });

  it("renders a 100 KB answer (time reported, not asserted)", () => {
    const parts = [
      "## Heading\n\n",
      "Some **bold** text with `code`, a [link](https://example.com/a) and _emphasis_, then more words to fill the line.\n\n",
      "```ts\nfunction f(x: number): number {\n  return x * 2; // double\n}\n```\n\n",
      "- item one\n- item two with `code`\n  - nested\n\n",
      "| h1 | h2 |\n|----|----|\n| a | b |\n\n",
    ];
    let doc = "";
    while (doc.length < 100_000) doc += parts.join("");
    renderMarkdown(doc);
    const runs = 5;
    const start = performance.now();
    let html = "";
    for (let i = 0; i < runs; i++) html = renderMarkdown(doc);
    const ms = (performance.now() - start) / runs;
    console.log(
      `renderMarkdown (marked + DOMPurify): ${(doc.length / 1024).toFixed(0)} KB in ${ms.toFixed(1)} ms (Chromium, mean of ${runs})`,
    );
    expect(html.length).toBeGreaterThan(doc.length);
  });
});

describe("markdownToText (what the live region announces)", () => {
  it("gives the words a reader sees, line by line, without the Markdown syntax or link targets", () => {
    const text = markdownToText(
      "# Release plan\n\n- write the **notes**\n- tag the build\n\n" +
        "```ts\nconst answer = 42;\n```\n\nSee [the guide](https://example.com/guide).",
    );
    expect(text).toBe("Release plan\nwrite the notes\ntag the build\nconst answer = 42;\nSee the guide.");
  });

  it("keeps injected markup as text and runs none of it", async () => {
    const fired: string[] = [];
    (globalThis as { __announceProbe?: (s: string) => void }).__announceProbe = (s) => fired.push(s);
    const text = markdownToText('<img src=x onerror="__announceProbe(1)"> <script>__announceProbe(2)</script> done');
    expect(text).toContain("done");
    expect(text).toContain("<img");
    await new Promise((r) => setTimeout(r, 100));
    expect(fired).toEqual([]);
  });
});
