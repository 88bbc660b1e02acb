/**
 * The person's terminal component in Chromium (xterm over a thread's session; the worker's shell is not needed here,
 * so its client refuses or answers as a shell would): its colours follow the theme switch (◐) after it has mounted,
 * its history comes back after a reload (sessionStorage, per thread; the commands only), and CJK and emoji take two
 * cells (Unicode 11) with the line editor's cursor where xterm draws it.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { userEvent } from "vitest/browser";
import { ok } from "../../core/result.ts";
import { historyKey } from "./history-store.ts";
import { cleanupRendered, render } from "../../testing/render.svelte.ts";
import { WAIT } from "../../testing/wait.ts";
import { ThemeToggle } from "../shared/theme.svelte.ts";
import PersonTerminal from "./person-terminal.svelte";
import { TerminalSessions, type ShellClient } from "./terminal-session.svelte.ts";
import type { XtermView } from "./xterm-view.ts";

const idleShell = {
  runCommand: () => Promise.reject(new Error("no shell in this test")),
  cancelCommand: () => Promise.resolve(false),
} as unknown as ShellClient;

afterEach(() => {
  cleanupRendered();
  sessionStorage.clear();
  document.documentElement.removeAttribute("data-theme");
});

function memoryStorage(): Storage {
  const map = new Map<string, string>();
  return {
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
  } as Storage;
}

describe("the person's terminal", () => {
  it("takes its colours from the theme again when the theme switch changes it", async () => {
    const theme = new ThemeToggle(memoryStorage());
    theme.choice = "light";
    theme.apply();
    const root = render(PersonTerminal, { sessions: new TerminalSessions(idleShell), threadId: "t", onShare: () => undefined });
    root.style.height = "300px";
    const probe = () => root.querySelector<HTMLElement>(".xterm-scrollable-element");
    await vi.waitFor(() => expect(probe()).not.toBeNull(), WAIT);
    // xterm paints its background from its theme (the box around it follows the page's CSS by itself).
    const bg = () => getComputedStyle(probe()!).backgroundColor;
    await vi.waitFor(() => expect(bg()).toBe("rgb(246, 248, 250)"), WAIT);
    theme.choice = "dark";
    theme.apply();
    await vi.waitFor(() => expect(bg()).toBe("rgb(21, 27, 35)"), WAIT);
    theme.choice = "light";
    theme.apply();
    await vi.waitFor(() => expect(bg()).toBe("rgb(246, 248, 250)"), WAIT);
  });

  it("gives back the history after a reload: Up shows the last command of the thread, and no output was kept", async () => {
    const shell = {
      runCommand: async (_threadId: string, _command: string, onOutput: (chunk: string) => void) => {
        onOutput("OUTPUT OF IT\n");
        return ok({
          output: "OUTPUT OF IT\n",
          exitCode: 0,
          truncated: false,
          timedOut: false,
          cancelled: false,
          durationMs: 1,
          sandbox: "shell",
        });
      },
      cancelCommand: () => Promise.resolve(false),
    } as unknown as ShellClient;
    const rows = () => document.querySelector(".xterm-rows")?.textContent ?? "";
    const open = async (threadId: string) => {
      const root = render(PersonTerminal, { sessions: new TerminalSessions(shell), threadId, onShare: () => undefined });
      root.style.height = "300px";
      await vi.waitFor(() => expect(root.querySelector("textarea.xterm-helper-textarea")).not.toBeNull(), WAIT);
      root.querySelector<HTMLTextAreaElement>("textarea.xterm-helper-textarea")!.focus();
    };

    await open("t1");
    await userEvent.keyboard("echo one{Enter}");
    await vi.waitFor(() => expect(rows()).toContain("OUTPUT OF IT"), WAIT);
    await userEvent.keyboard("echo two{Enter}");
    await vi.waitFor(() => expect(rows().match(/OUTPUT OF IT/g)).toHaveLength(2), WAIT);
    expect(sessionStorage.getItem(historyKey("t1"))).toBe('["echo one","echo two"]');

    // The reload: the page's terminals are new, sessionStorage is not.
    cleanupRendered();
    await open("t1");
    await userEvent.keyboard("{ArrowUp}");
    await vi.waitFor(() => expect(rows()).toContain("$ echo two"), WAIT);
    await userEvent.keyboard("{ArrowUp}");
    await vi.waitFor(() => expect(rows()).toContain("$ echo one"), WAIT);
    // Another thread's terminal has its own (none).
    cleanupRendered();
    await open("t2");
    await userEvent.keyboard("{ArrowUp}");
    await vi.waitFor(() => expect(rows()).toMatch(/\$\s*$/), WAIT);
    expect(rows()).not.toContain("echo");
  });

  it("gives CJK and emoji two cells, and the line editor's cursor lands where xterm drew them", async () => {
    const sessions = new TerminalSessions(idleShell);
    const root = render(PersonTerminal, { sessions, threadId: "wide", onShare: () => undefined });
    root.style.height = "300px";
    root.style.width = "600px";
    const session = sessions.of("wide");
    let view: XtermView | undefined;
    // A view of the session's terminal to read xterm's cursor from (the component's is replaced by it).
    await vi.waitFor(async () => {
      view = await session.mount(root.querySelector<HTMLElement>('[data-testid="person-terminal"]')!, false);
    }, WAIT);
    // What xterm's onData gives for typed text: "$ 你好" is 2 + 4 cells.
    session.terminal.input("你好");
    await vi.waitFor(() => expect(view!.cursor().col).toBe(6), WAIT);
    session.terminal.input("\x1b[D");
    await vi.waitFor(() => expect(view!.cursor().col).toBe(4), WAIT);
    session.terminal.input("\x1b[F😀");
    await vi.waitFor(() => expect(view!.cursor().col).toBe(8), WAIT);
    // Output written to the screen counts the same: a CJK line leaves the cursor after its cells.
    session.terminal.input("\x15");
    view!.screen.write("\r\n日本語テキスト");
    await vi.waitFor(() => expect(view!.cursor().col).toBe(14), WAIT);
  });
});
