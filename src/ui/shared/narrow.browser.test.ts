/** Every component at 360 px: long paths, lines and words scroll or wrap inside it, never widening the page. */
import { createRawSnippet } from "svelte";
import { afterEach, describe, expect, it } from "vitest";
import { cleanupRendered, render } from "../../testing/render.svelte.ts";
import CodeView from "./code-view.svelte";
import Confirm from "./confirm.svelte";
import DiffView from "./diff-view.svelte";
import Markdown from "./markdown.svelte";
import TodoList from "../chat/todo-list.svelte";
import ToolCard from "../chat/tool-card.svelte";

const LONG = "x".repeat(3000);
const PATH = `/very/long/${"segment/".repeat(40)}file.ts`;

afterEach(cleanupRendered);

describe("360 px wide", () => {
  it("nothing overflows its frame", () => {
    const frame = document.createElement("div");
    frame.style.width = "360px";
    document.body.append(frame);
    const into = { into: frame };
    render(
      Markdown,
      { text: `# ${LONG}\n\n${LONG} [${LONG}](https://e.com/${LONG})\n\n\`\`\`\n${LONG}\n\`\`\`\n\n| ${LONG} | b |\n|---|---|\n| 1 | 2 |` },
      into,
    );
    render(CodeView, { lines: [LONG, "short"], firstLine: 99_999, totalLines: 1_000_000, label: PATH, onLoadMore: () => {} }, into);
    render(DiffView, { before: `${LONG}\n`, after: `${LONG}y\n`, path: PATH }, into);
    render(
      ToolCard,
      {
        name: "read_file",
        summary: PATH,
        status: "error",
        durationMs: 125_000,
        result: LONG,
        args: { file_path: PATH },
        open: true,
        output: LONG,
      },
      into,
    );
    render(
      ToolCard,
      {
        name: "execute",
        summary: LONG,
        status: "running",
        output: LONG,
        children: createRawSnippet(() => ({ render: () => "<p>child</p>" })),
      },
      into,
    );
    render(TodoList, { todos: [{ content: LONG, status: "in_progress" }] }, into);
    render(Confirm, { open: true, title: LONG, message: LONG, onConfirm: () => {}, onCancel: () => {} }, into);
    try {
      expect(frame.scrollWidth).toBeLessThanOrEqual(360);
      for (const child of frame.children) expect(child.getBoundingClientRect().width).toBeLessThanOrEqual(360);
      const dialog = frame.querySelector("dialog")!;
      expect(dialog.getBoundingClientRect().width).toBeLessThanOrEqual(window.innerWidth);
      expect(dialog.scrollWidth).toBeLessThanOrEqual(dialog.clientWidth);
    } finally {
      cleanupRendered();
      frame.remove();
    }
  });
});
