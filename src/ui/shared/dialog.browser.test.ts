/** dialog.svelte and confirm.svelte in Chromium: modal focus, Escape, focus return, labelling, confirm/cancel. */
import { createRawSnippet, flushSync } from "svelte";
import { afterEach, describe, expect, it, vi } from "vitest";
import { userEvent } from "vitest/browser";
import Confirm from "./confirm.svelte";
import Dialog from "./dialog.svelte";
import { cleanupRendered, reactiveProps, render } from "../../testing/render.svelte.ts";

afterEach(cleanupRendered);

const body = createRawSnippet(() => ({ render: () => '<div><input aria-label="Name"></div>' }));

/** A button that opens the dialog, as the page would have. */
function opener(): HTMLButtonElement {
  const b = document.createElement("button");
  b.textContent = "Open";
  document.body.append(b);
  b.focus();
  return b;
}

describe("dialog", () => {
  it("moves focus inside on open, closes on Escape, and returns focus to the opener", async () => {
    const open = opener();
    const props = reactiveProps({ open: false, title: "Settings", children: body, onClose: () => (props.open = false) });
    const el = render(Dialog, props);
    const dialog = el.querySelector("dialog")!;
    expect(dialog.open).toBe(false);

    props.open = true;
    flushSync();
    expect(dialog.open).toBe(true);
    expect(dialog.matches(":modal")).toBe(true);
    expect(dialog.contains(document.activeElement)).toBe(true);
    const title = document.getElementById(dialog.getAttribute("aria-labelledby")!);
    expect(title?.textContent).toBe("Settings");

    await userEvent.keyboard("{Escape}");
    flushSync();
    expect(props.open).toBe(false);
    expect(dialog.open).toBe(false);
    expect(document.activeElement).toBe(open);
    open.remove();
  });

  it("leaves focus where the page moved it as the dialog closed (a landing on what was chosen), not on the opener", async () => {
    const open = opener();
    const landing = document.createElement("h2");
    landing.tabIndex = -1;
    document.body.append(landing);
    const props = reactiveProps({ open: true, title: "Use it?", children: body, onClose: () => (props.open = false) });
    const el = render(Dialog, props);
    const dialog = el.querySelector("dialog")!;
    props.open = false;
    flushSync();
    // What the page does once the dialog is closed and the page is no longer inert.
    landing.focus();
    await new Promise<void>((resolve) => dialog.addEventListener("close", () => resolve(), { once: true }));
    expect(document.activeElement).toBe(landing);
    open.remove();
    landing.remove();
  });

  it("closes with the Close button and tells the parent", async () => {
    const onClose = vi.fn();
    const el = render(Dialog, { open: true, title: "T", children: body, onClose });
    await userEvent.click(el.querySelector<HTMLButtonElement>('button[aria-label="Close"]')!);
    expect(onClose).toHaveBeenCalledOnce();
  });

  it("stays open on Escape when not dismissable", async () => {
    const onClose = vi.fn();
    const el = render(Dialog, { open: true, title: "Busy", children: body, onClose, dismissable: false });
    const dialog = el.querySelector("dialog")!;
    expect(el.querySelector('button[aria-label="Close"]')).toBeNull();
    await userEvent.keyboard("{Escape}");
    await userEvent.keyboard("{Escape}");
    expect(dialog.open).toBe(true);
    expect(onClose).not.toHaveBeenCalled();
  });
});

describe("confirm", () => {
  it("confirms or cancels; a dangerous action starts on Cancel", async () => {
    const onConfirm = vi.fn();
    const onCancel = vi.fn();
    const el = render(Confirm, {
      open: true,
      title: "Delete thread?",
      message: "This cannot be undone.",
      confirmLabel: "Delete",
      danger: true,
      onConfirm,
      onCancel,
    });
    const dialog = el.querySelector("dialog")!;
    expect(document.getElementById(dialog.getAttribute("aria-labelledby")!)?.textContent).toBe("Delete thread?");
    expect(dialog.textContent).toContain("This cannot be undone.");
    expect(document.activeElement?.textContent).toBe("Cancel");
    const del = [...dialog.querySelectorAll("button")].find((b) => b.textContent === "Delete")!;
    expect(del.classList.contains("danger")).toBe(true);
    await userEvent.click(del);
    expect(onConfirm).toHaveBeenCalledOnce();
    await userEvent.keyboard("{Escape}");
    expect(onCancel).toHaveBeenCalledOnce();
  });

  it("starts on the confirm button when not dangerous", () => {
    render(Confirm, { open: true, title: "Rename?", message: "m", onConfirm: () => {}, onCancel: () => {} });
    expect(document.activeElement?.textContent).toBe("Confirm");
  });
});
