/**
 * The queued (steering) messages' list by keyboard: every control has a name, Edit opens a focused box whose Enter
 * saves and Escape cancels, Withdraw removes; an edit the run beat (already taken) closes the box.
 */
import { flushSync } from "svelte";
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanupRendered, reactiveProps, render } from "../../testing/render.svelte.ts";
import { WAIT } from "../../testing/wait.ts";
import type { QueuedMessage } from "../../protocol/worker-api.ts";
import QueuedMessages from "./queued-messages.svelte";

afterEach(cleanupRendered);

function key(target: Element, k: string): void {
  target.dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true, cancelable: true }));
  flushSync();
}

function setup(queued: QueuedMessage[]) {
  const calls: string[] = [];
  const props = reactiveProps({
    queued,
    note: "The agent reads your message at its next step.",
    edit: async (id: string, text: string) => {
      calls.push(`edit ${id} ${text}`);
      props.queued = props.queued.map((m) => (m.id === id ? { id, text } : m));
      return true;
    },
    withdraw: async (id: string) => {
      calls.push(`withdraw ${id}`);
      props.queued = props.queued.filter((m) => m.id !== id);
      return true;
    },
  });
  const root = render(QueuedMessages, props);
  return { root, props, calls };
}

const button = (root: HTMLElement, name: string) =>
  [...root.querySelectorAll("button")].find((b) => (b.getAttribute("aria-label") ?? b.textContent?.trim()) === name)!;

describe("queued messages", () => {
  it("shows nothing when nothing is queued", () => {
    const { root } = setup([]);
    expect(root.querySelector("[data-testid=queued-messages]")).toBeNull();
  });

  it("edits by keyboard (Enter saves, Escape cancels) and withdraws, each control named", async () => {
    const { root, calls } = setup([
      { id: "a", text: "use tabs" },
      { id: "b", text: "never mind" },
    ]);
    expect(root.querySelector("section")!.getAttribute("aria-label")).toBe("Queued messages");
    expect(root.textContent).toContain("at its next step");
    expect(root.querySelectorAll("[data-testid=queued-message]")).toHaveLength(2);

    button(root, "Edit queued message: use tabs").click();
    flushSync();
    const box = root.querySelector<HTMLTextAreaElement>("textarea[aria-label='Edit queued message']")!;
    expect(document.activeElement).toBe(box);
    key(box, "Escape");
    expect(root.querySelector("textarea")).toBeNull();
    expect(calls).toEqual([]);

    button(root, "Edit queued message: use tabs").click();
    flushSync();
    const again = root.querySelector<HTMLTextAreaElement>("textarea")!;
    again.value = "use tabs, width 4";
    again.dispatchEvent(new Event("input", { bubbles: true }));
    key(again, "Enter");
    await vi.waitFor(() => expect(root.querySelector("textarea")).toBeNull(), WAIT);
    expect(calls).toEqual(["edit a use tabs, width 4"]);
    expect(root.textContent).toContain("use tabs, width 4");

    button(root, "Withdraw queued message: never mind").click();
    await vi.waitFor(() => expect(root.querySelectorAll("[data-testid=queued-message]")).toHaveLength(1), WAIT);
    expect(calls).toEqual(["edit a use tabs, width 4", "withdraw b"]);
  });

  it("closes the edit box when the run took the message meanwhile", async () => {
    const { root, props } = setup([{ id: "a", text: "first" }]);
    props.edit = async () => {
      props.queued = [];
      return false;
    };
    flushSync();
    button(root, "Edit queued message: first").click();
    flushSync();
    key(root.querySelector("textarea")!, "Enter");
    await vi.waitFor(() => expect(root.querySelector("[data-testid=queued-messages]")).toBeNull(), WAIT);
  });
});
