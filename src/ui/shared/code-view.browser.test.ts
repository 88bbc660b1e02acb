/** code-view.svelte in Chromium: numbered pages, paging callbacks, cut lines, lazy highlighting, no page widening. */
import { flushSync } from "svelte";
import { afterEach, describe, expect, it, vi } from "vitest";
import { userEvent } from "vitest/browser";
import CodeView from "./code-view.svelte";
import { cleanupRendered, reactiveProps, render } from "../../testing/render.svelte.ts";
import { WAIT } from "../../testing/wait.ts";

afterEach(cleanupRendered);

const page = (first: number, n: number) => Array.from({ length: n }, (_, i) => `const line${first + i} = ${first + i};`);

describe("code view", () => {
  it("renders a 500-line page numbered from firstLine, with an uncopyable gutter", () => {
    const el = render(CodeView, { lines: page(1001, 500), firstLine: 1001, totalLines: 50_000, language: "ts" });
    const lines = el.querySelectorAll<HTMLElement>(".line");
    expect(lines).toHaveLength(500);
    expect(lines[0]!.dataset.line).toBe("1001");
    expect(lines[499]!.dataset.line).toBe("1500");
    expect(getComputedStyle(lines[0]!, "::before").content).toBe('"1001"');
    // The number is generated content, so the line's own text is only the code.
    expect(lines[0]!.textContent?.trim()).toBe("const line1001 = 1001;");
    expect(el.textContent).toContain("Lines 1,001–1,500 of 50,000");
  });

  it("pages through the file with Previous lines / Next lines", async () => {
    const onLoadMore = vi.fn();
    const props = reactiveProps({ lines: page(1, 500), firstLine: 1, totalLines: 1200, onLoadMore, loading: false });
    const el = render(CodeView, props);
    const prev = el.querySelector<HTMLButtonElement>('button[aria-label="Previous lines"]')!;
    const next = el.querySelector<HTMLButtonElement>('button[aria-label="Next lines"]')!;
    expect(prev.disabled).toBe(true);
    await userEvent.click(next);
    expect(onLoadMore).toHaveBeenCalledWith("next");

    props.lines = page(1001, 200);
    props.firstLine = 1001;
    flushSync();
    expect(next.disabled).toBe(true);
    expect(prev.disabled).toBe(false);
    await userEvent.click(prev);
    expect(onLoadMore).toHaveBeenLastCalledWith("previous");
    props.loading = true;
    flushSync();
    expect(prev.disabled).toBe(true);
  });

  it("cuts a 10,000-character line for display and says so", () => {
    const el = render(CodeView, { lines: ["short", "x".repeat(10_000)], firstLine: 1, totalLines: 2 });
    const long = el.querySelectorAll(".line")[1]!;
    expect(long.querySelector(".text")?.textContent).toHaveLength(2000);
    const marker = long.querySelector<HTMLElement>(".cut")!;
    expect(getComputedStyle(marker, "::after").content).toContain("8,000");
  });

  it("highlights the page after the grammar loads, line by line", async () => {
    const el = render(CodeView, { lines: ["/* a", "b */", "let x = 1;"], firstLine: 1, totalLines: 3, language: "js" });
    await vi.waitFor(() => expect(el.querySelector(".hljs-keyword")?.textContent).toBe("let"), WAIT);
    const lines = el.querySelectorAll(".line .text");
    expect(lines[0]!.querySelector(".hljs-comment")?.textContent).toBe("/* a");
    expect(lines[1]!.querySelector(".hljs-comment")?.textContent).toBe("b */");
  });

  it("scrolls long lines inside itself, never widening a 360 px page", () => {
    const frame = document.createElement("div");
    frame.style.width = "360px";
    document.body.append(frame);
    const el = render(CodeView, { lines: ["y".repeat(1500)], firstLine: 1, totalLines: 1 });
    frame.append(el);
    try {
      const scroller = el.querySelector<HTMLElement>(".scroller")!;
      expect(el.getBoundingClientRect().width).toBeLessThanOrEqual(360);
      expect(scroller.scrollWidth).toBeGreaterThan(scroller.clientWidth);
    } finally {
      frame.remove();
    }
  });
});
