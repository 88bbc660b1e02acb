/**
 * markdown.svelte in Chromium: sanitized output, lazy highlighting once the
 * stream settles, and the per-block "Copy code" button.
 */
import { flushSync } from "svelte";
import { afterEach, describe, expect, it, vi } from "vitest";
import { userEvent } from "vitest/browser";
import { highlighterRequested } from "./highlight.ts";
import Markdown from "./markdown.svelte";
import { cleanupRendered, reactiveProps, render as mountIn } from "../../testing/render.svelte.ts";
import { WAIT } from "../../testing/wait.ts";

declare global {
  interface Window {
    __pwned?: number;
  }
}

let cleanup: (() => void)[] = [];
afterEach(() => {
  for (const f of cleanup.reverse()) f();
  cleanup = [];
  cleanupRendered();
  delete window.__pwned;
});

const render = (props: { text: string; streaming?: boolean }) => mountIn(Markdown, props);

const CODE = "Intro\n\n```ts\nconst answer: number = 42; // the answer\n```\n";

describe("markdown component", () => {
  it("renders hostile model output inert, links in a new tab", async () => {
    const el = render({
      text: [
        '<img src=x onerror="window.__pwned=1">',
        "<script>window.__pwned=1</script>",
        "[click](javascript:window.__pwned=1)",
        '<a href="javascript:window.__pwned=1">x</a>',
        '<iframe srcdoc="<script>parent.__pwned=1</script>"></iframe>',
        '<svg onload="window.__pwned=1"></svg>',
        "[web](https://example.com/)",
      ].join("\n\n"),
    });
    expect(el.querySelector("img, script, iframe, svg")).toBeNull();
    const stop = (e: MouseEvent) => {
      const a = (e.target as Element).closest("a");
      if (a && /^https?:/.test(a.href)) e.preventDefault();
    };
    document.addEventListener("click", stop, true);
    try {
      for (const a of el.querySelectorAll("a")) await userEvent.click(a);
    } finally {
      document.removeEventListener("click", stop, true);
    }
    expect(window.__pwned).toBeUndefined();
    const links = [...el.querySelectorAll("a")];
    expect(links.length).toBeGreaterThan(0);
    for (const a of links) {
      expect(a.getAttribute("target")).toBe("_blank");
      expect(a.getAttribute("rel")).toBe("noopener noreferrer");
    }
  });

  it("highlights code lazily, and only once the text stops streaming", async () => {
    const props = reactiveProps({ text: "Intro\n\n```ts\nconst answer", streaming: true });
    const el = render(props);
    await new Promise((r) => setTimeout(r, 50));
    flushSync();
    const code = () => el.querySelector("pre > code.language-ts");
    expect(code()?.textContent).toContain("const answer");
    props.text = CODE;
    await new Promise((r) => setTimeout(r, 50));
    flushSync();
    expect(code()?.querySelector("span")).toBeNull();

    props.streaming = false;
    flushSync();
    await vi.waitFor(() => expect(code()?.querySelector(".hljs-keyword")?.textContent).toBe("const"), WAIT);
    expect(highlighterRequested()).toBe(true);
    expect(code()?.querySelector(".hljs-comment")?.textContent).toBe("// the answer");
    expect(code()?.textContent).toBe("const answer: number = 42; // the answer\n");
  });

  it("copies a code block with its Copy code button", async () => {
    const writeText = vi.fn(async (_text: string) => {});
    const original = Object.getOwnPropertyDescriptor(navigator, "clipboard");
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    cleanup.push(() => {
      if (original) Object.defineProperty(navigator, "clipboard", original);
      else delete (navigator as { clipboard?: unknown }).clipboard;
    });

    const el = render({ text: CODE + "\n```\nplain block\n```\n" });
    const buttons = [...el.querySelectorAll("button")];
    expect(buttons.map((b) => b.getAttribute("aria-label"))).toEqual(["Copy code", "Copy code"]);
    await userEvent.click(buttons[0]!);
    await vi.waitFor(() => expect(writeText).toHaveBeenCalledWith("const answer: number = 42; // the answer"), WAIT);
    await vi.waitFor(() => expect(buttons[0]!.textContent).toBe("Copied"), WAIT);
    await userEvent.click(buttons[1]!);
    await vi.waitFor(() => expect(writeText).toHaveBeenLastCalledWith("plain block"), WAIT);
  });

  it("keeps up with a streaming 100 KB answer by coalescing renders", async () => {
    const props = reactiveProps({ text: "", streaming: true });
    const el = render(props);
    const chunk = "Some **bold** words, `code` and a [link](https://example.com/).\n\n";
    const start = performance.now();
    for (let i = 0; props.text.length < 100_000; i++) {
      props.text += chunk;
      if (i % 50 === 0) await new Promise((r) => setTimeout(r, 0));
    }
    const appended = performance.now() - start;
    props.streaming = false;
    flushSync();
    const settled = performance.now() - start;
    console.log(
      `streamed ${(props.text.length / 1024).toFixed(0)} KB in ${Math.ceil(props.text.length / chunk.length)} chunks: ` +
        `${appended.toFixed(0)} ms appending, ${settled.toFixed(0)} ms until the final render`,
    );
    expect(el.querySelectorAll("a").length).toBe(Math.ceil(props.text.length / chunk.length));
  });
});
