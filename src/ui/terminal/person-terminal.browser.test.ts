/**
 * The person's terminal component in Chromium (xterm over a thread's session; the worker's shell is not needed here,
 * so its client refuses): its colours follow the theme switch (◐) after it has mounted.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanupRendered, render } from "../../testing/render.svelte.ts";
import { WAIT } from "../../testing/wait.ts";
import { ThemeToggle } from "../shared/theme.svelte.ts";
import PersonTerminal from "./person-terminal.svelte";
import { TerminalSessions, type ShellClient } from "./terminal-session.svelte.ts";

const idleShell = {
  runCommand: () => Promise.reject(new Error("no shell in this test")),
  cancelCommand: () => Promise.resolve(false),
} as unknown as ShellClient;

afterEach(() => {
  cleanupRendered();
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
});
