/** Every component at 360 px: long paths, lines and words scroll or wrap inside it, never widening the page. */
import { createRawSnippet, flushSync, mount, unmount } from "svelte";
import { describe, expect, it } from "vitest";
import CodeView from "./code-view.svelte";
import Confirm from "./confirm.svelte";
import DiffView from "./diff-view.svelte";
import Markdown from "./markdown.svelte";
import TodoList from "./todo-list.svelte";
import ToolCard from "./tool-card.svelte";

const LONG = "x".repeat(3000);
const PATH = `/very/long/${"segment/".repeat(40)}file.ts`;

describe("360 px wide", () => {
  it("nothing overflows its frame", () => {
    const frame = document.createElement("div");
    frame.style.width = "360px";
    document.body.append(frame);
    const add = () => frame.appendChild(document.createElement("div"));
    const mounted = [
      mount(Markdown, {
        target: add(),
        props: {
          text: `# ${LONG}\n\n${LONG} [${LONG}](https://e.com/${LONG})\n\n\`\`\`\n${LONG}\n\`\`\`\n\n| ${LONG} | b |\n|---|---|\n| 1 | 2 |`,
        },
      }),
      mount(CodeView, {
        target: add(),
        props: { lines: [LONG, "short"], firstLine: 99_999, totalLines: 1_000_000, label: PATH, onLoadMore: () => {} },
      }),
      mount(DiffView, { target: add(), props: { before: `${LONG}\n`, after: `${LONG}y\n`, path: PATH } }),
      mount(ToolCard, {
        target: add(),
        props: {
          name: "read_file",
          summary: PATH,
          status: "error",
          durationMs: 125_000,
          result: LONG,
          args: { file_path: PATH },
          open: true,
          output: LONG,
        },
      }),
      mount(ToolCard, {
        target: add(),
        props: {
          name: "execute",
          summary: LONG,
          status: "running",
          output: LONG,
          children: createRawSnippet(() => ({ render: () => "<p>child</p>" })),
        },
      }),
      mount(TodoList, { target: add(), props: { todos: [{ content: LONG, status: "in_progress" }] } }),
      mount(Confirm, { target: add(), props: { open: true, title: LONG, message: LONG, onConfirm: () => {}, onCancel: () => {} } }),
    ];
    flushSync();
    try {
      expect(frame.scrollWidth).toBeLessThanOrEqual(360);
      for (const child of frame.children) expect(child.getBoundingClientRect().width).toBeLessThanOrEqual(360);
      const dialog = frame.querySelector("dialog")!;
      expect(dialog.getBoundingClientRect().width).toBeLessThanOrEqual(window.innerWidth);
      expect(dialog.scrollWidth).toBeLessThanOrEqual(dialog.clientWidth);
    } finally {
      for (const m of mounted) void unmount(m);
      frame.remove();
    }
  });
});
