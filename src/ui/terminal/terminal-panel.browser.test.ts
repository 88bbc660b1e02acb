/**
 * The terminal panel and the preview pane in Chromium, from props built
 * directly: every execute call in order (nested subagent ones too) with its
 * command, output as text and exit code; live output followed unless the
 * reader scrolled up; servers listed and shown in a sandboxed iframe.
 */
import { flushSync } from "svelte";
import { afterEach, describe, expect, it } from "vitest";
import { page, userEvent } from "vitest/browser";
import { cleanupRendered, reactiveProps, render } from "../../testing/render.svelte.ts";
import type { TimelineItem, ToolItem } from "../chat/timeline.ts";
import PreviewPane from "../files/preview-pane.svelte";
import TerminalPanel from "./terminal-panel.svelte";

afterEach(() => cleanupRendered());

const exec = (id: string, command: string, rest: Partial<ToolItem> = {}): ToolItem => ({
  kind: "tool",
  index: 1,
  call: { id, name: "execute", args: { command } },
  status: "done",
  ...rest,
});

const items: TimelineItem[] = [
  { kind: "user", index: 0, text: "$ seq 3 | sort -r" },
  exec("c1", "seq 3 | sort -r", { result: "3\n2\n1\n\n[Command succeeded with exit code 0]", durationMs: 42 }),
  { kind: "tool", index: 1, call: { id: "r1", name: "read_file", args: { file_path: "/a" } }, status: "done", result: "x" },
  {
    kind: "tool",
    index: 3,
    call: { id: "t1", name: "task", args: { subagent_type: "researcher", description: "look" } },
    status: "done",
    result: "done",
    children: [exec("c2", "cat missing.txt", { result: "cat: missing.txt: No such file\n[Command failed with exit code 1]" })],
  },
  exec("c3", "echo '<b>bold</b>'", { result: "<b>bold</b><img src=x onerror=alert(1)>\n[Command succeeded with exit code 0]" }),
  exec("c4", "sleep 100", { result: "\n[Command timed out]" }),
];

const commands = () => [...document.querySelectorAll<HTMLElement>('[data-testid="command"]')];

describe("terminal panel", () => {
  it("shows every execute call in order with its command, output and exit code", async () => {
    render(TerminalPanel, { items });
    await expect.element(page.getByRole("region", { name: "Terminal" })).toBeVisible();
    const list = commands();
    expect(list.map((c) => c.querySelector(".cmd")!.textContent)).toEqual([
      "seq 3 | sort -r",
      "cat missing.txt",
      "echo '<b>bold</b>'",
      "sleep 100",
    ]);
    expect(getComputedStyle(list[0]!.querySelector(".cmd")!, "::before").content).toBe('"$ "');
    expect(list.map((c) => c.querySelector('[data-testid="command-status"]')!.textContent!.trim())).toEqual([
      "Exit code 0",
      "Exit code 1",
      "Exit code 0",
      "Timed out",
    ]);
    expect(list.map((c) => c.dataset.exit)).toEqual(["0", "1", "0", ""]);
    expect(list[0]!.querySelector("pre")!.textContent).toBe("3\n2\n1\n");
    expect(list[0]!.textContent).toContain("42 ms");
    expect(list[1]!.textContent).toContain("in subagent researcher");
    expect(list[1]!.querySelector("pre")!.textContent).toBe("cat: missing.txt: No such file");
    // Output is text, never markup.
    expect(list[2]!.querySelector("pre")!.textContent).toBe("<b>bold</b><img src=x onerror=alert(1)>");
    expect(list[2]!.querySelector("b, img")).toBeNull();
  });

  it("streams a running command's output and follows it unless the reader scrolled up", async () => {
    const props = reactiveProps<{ items: TimelineItem[] }>({
      items: [exec("c1", "yes | head -n 1000", { status: "running", output: "" })],
    });
    const root = render(TerminalPanel, props);
    root.style.height = "200px";
    {
      const panel = page.getByRole("region", { name: "Terminal" }).element() as HTMLElement;
      await expect.element(page.getByTestId("command-status")).toHaveTextContent("Running");
      await expect.element(page.getByText("Waiting for output…")).toBeVisible();

      const grow = (lines: number) => {
        props.items = [exec("c1", "yes | head -n 1000", { status: "running", output: "y\n".repeat(lines) })];
        flushSync();
      };
      grow(100);
      await expect.poll(() => panel.scrollHeight - panel.scrollTop - panel.clientHeight).toBeLessThan(2);
      expect(panel.scrollHeight).toBeGreaterThan(panel.clientHeight);

      // The reader scrolls up: new output no longer moves the view.
      panel.scrollTop = 0;
      panel.dispatchEvent(new Event("scroll"));
      grow(200);
      expect(panel.scrollTop).toBe(0);

      // Back at the bottom: following again, until the command ends.
      panel.scrollTop = panel.scrollHeight;
      panel.dispatchEvent(new Event("scroll"));
      grow(300);
      expect(panel.scrollHeight - panel.scrollTop - panel.clientHeight).toBeLessThan(2);
      props.items = [exec("c1", "yes | head -n 1000", { result: `${"y\n".repeat(1000)}\n[Command succeeded with exit code 0]` })];
      flushSync();
      await expect.element(page.getByTestId("command-status")).toHaveTextContent("Exit code 0");
      expect(page.getByTestId("command-output").element().textContent).toBe("y\n".repeat(1000));
    }
  });

  it("says when there are no commands yet", async () => {
    render(TerminalPanel, { items: [{ kind: "user", index: 0, text: "hi" }] });
    await expect.element(page.getByText(/No commands yet/)).toBeVisible();
  });
});

describe("preview pane", () => {
  it("has an empty state", async () => {
    render(PreviewPane, { servers: [] });
    await expect.element(page.getByText(/No servers yet/)).toBeVisible();
    expect(document.querySelector("iframe")).toBeNull();
  });

  it("lists servers and shows the selected one in a sandboxed iframe, with Reload and Open in new tab", async () => {
    const props = reactiveProps({
      servers: [
        { port: 3000, url: "about:blank#port-3000" },
        { port: 5173, url: "about:blank#port-5173" },
      ],
    });
    render(PreviewPane, props);
    const first = page.getByRole("button", { name: "Port 3000", exact: true });
    await expect.element(first).toHaveAttribute("aria-pressed", "true");
    let frame = page.getByTitle("Preview of port 3000").element() as HTMLIFrameElement;
    expect(frame.getAttribute("sandbox")).toBe("allow-scripts allow-forms allow-same-origin");
    expect(frame.getAttribute("referrerpolicy")).toBe("no-referrer");
    expect(frame.getAttribute("src")).toBe("about:blank#port-3000");
    await expect.element(page.getByTestId("preview-url")).toHaveTextContent("about:blank#port-3000");

    await userEvent.click(page.getByRole("button", { name: "Port 5173", exact: true }));
    frame = page.getByTitle("Preview of port 5173").element() as HTMLIFrameElement;
    expect(frame.getAttribute("src")).toBe("about:blank#port-5173");
    const link = page.getByRole("link", { name: "Open in new tab" }).element() as HTMLAnchorElement;
    expect([link.getAttribute("href"), link.target, link.rel]).toEqual(["about:blank#port-5173", "_blank", "noopener noreferrer"]);

    await userEvent.click(page.getByRole("button", { name: "Reload preview of port 5173" }));
    const reloaded = page.getByTitle("Preview of port 5173").element();
    expect(reloaded).not.toBe(frame);
    expect(reloaded.isConnected).toBe(true);

    // The selected server went away: the first one is shown.
    props.servers = [{ port: 3000, url: "about:blank#port-3000" }];
    flushSync();
    await expect.element(page.getByTitle("Preview of port 3000")).toBeInTheDocument();
  });
});
