/** tool-card.svelte in Chromium: collapsed by default, expands, "Show more", offloaded results, errors, live output, images. */
import { createRawSnippet, flushSync } from "svelte";
import { afterEach, describe, expect, it, vi } from "vitest";
import { userEvent } from "vitest/browser";
import { cleanupRendered, reactiveProps, render } from "../../testing/render.svelte.ts";
import { HOSTILE_IMAGES, RED_PIXEL_PNG } from "../../testing/images.ts";
import ToolCard from "./tool-card.svelte";

afterEach(cleanupRendered);

const toggle = (el: HTMLElement) => el.querySelector<HTMLButtonElement>("button.toggle")!;
const button = (el: HTMLElement, name: string) => [...el.querySelectorAll("button")].find((b) => b.textContent?.trim() === name);

describe("tool card", () => {
  it("is collapsed by default and expands to the arguments and the result", async () => {
    const el = render(ToolCard, {
      name: "read_file",
      summary: "/src/a.ts",
      status: "done",
      durationMs: 400,
      result: "file body",
      args: { file_path: "/src/a.ts", limit: 10 },
    });
    expect(toggle(el).getAttribute("aria-expanded")).toBe("false");
    expect(el.textContent).toContain("read_file");
    expect(el.textContent).toContain("/src/a.ts");
    expect(el.textContent).toContain("Done");
    expect(el.textContent).toContain("0.4 s");
    expect(el.textContent).not.toContain("file body");

    await userEvent.click(toggle(el));
    expect(toggle(el).getAttribute("aria-expanded")).toBe("true");
    const body = document.getElementById(toggle(el).getAttribute("aria-controls")!);
    expect(body?.textContent).toContain("file body");
    expect(body?.querySelector("details pre")?.textContent).toBe(JSON.stringify({ file_path: "/src/a.ts", limit: 10 }, null, 2));
  });

  it("says Responded or Rejected for a call answered at an approval, never Done or Error, and keeps the text the model got", async () => {
    const responded = render(ToolCard, { name: "execute", summary: "npm test", status: "responded", result: "Tests pass already." });
    expect(responded.querySelector(".status .label")?.textContent).toBe("Responded");
    expect(responded.textContent).not.toMatch(/Done|Error/);
    await userEvent.click(toggle(responded));
    expect(responded.textContent).toContain("Tests pass already.");
    const rejected = render(ToolCard, { name: "execute", summary: "rm -rf /", status: "rejected", result: "Not that." });
    expect(rejected.querySelector(".status .label")?.textContent).toBe("Rejected");
    expect(rejected.textContent).not.toMatch(/Done|Error/);
    // Not styled as a failure: no error line, no danger background.
    expect(rejected.querySelector(".error-line")).toBeNull();
    expect(getComputedStyle(rejected.querySelector("article")!).backgroundColor).toBe(
      getComputedStyle(responded.querySelector("article")!).backgroundColor,
    );
  });

  it("cuts a long result at 4,000 characters; Show more reveals the rest", async () => {
    const result = "a".repeat(4000) + "TAIL" + "b".repeat(6000);
    const el = render(ToolCard, { name: "grep", summary: "x", status: "done", result, open: true });
    const pre = el.querySelector(".result pre")!;
    expect(pre.textContent).toHaveLength(4001);
    expect(pre.textContent).not.toContain("TAIL");
    expect(el.textContent).toContain("6,004 more characters");
    await userEvent.click(button(el, "Show more")!);
    expect(pre.textContent).toBe(result);
    expect(button(el, "Show less")).toBeDefined();
  });

  it("offers an offloaded result with Open full result", async () => {
    const onOpenFile = vi.fn();
    const el = render(ToolCard, {
      name: "execute",
      summary: "npm test",
      status: "done",
      result: "first lines of the output…",
      offloadedTo: "/large_tool_results/call_1",
      onOpenFile,
      open: true,
    });
    expect(el.textContent).toContain("/large_tool_results/call_1");
    expect(el.querySelector(".preview")?.textContent).toContain("first lines");
    await userEvent.click(button(el, "Open full result")!);
    expect(onOpenFile).toHaveBeenCalledWith("/large_tool_results/call_1");
  });

  it("says when the model no longer sees a result (cleared from its context), keeps it whole, and opens the saved copy", async () => {
    const onOpenFile = vi.fn();
    const result = "line of output\n".repeat(200);
    const el = render(ToolCard, {
      name: "read_file",
      summary: "/big.log",
      status: "done",
      result,
      clearedTo: "/large_tool_results/call_7",
      onOpenFile,
    });
    // Collapsed: nothing about it yet (the header stays one line).
    expect(el.querySelector('[data-testid="cleared-note"]')).toBeNull();
    await userEvent.click(el.querySelector("button")!);
    const note = el.querySelector('[data-testid="cleared-note"]')!;
    expect(note.textContent).toContain("The model no longer sees this result");
    expect(note.querySelector("code")?.textContent).toBe("/large_tool_results/call_7");
    // The person still sees what the tool returned.
    expect(el.querySelector(".result")?.textContent).toContain("line of output");
    await userEvent.click(button(el, "Open saved copy")!);
    expect(onOpenFile).toHaveBeenCalledWith("/large_tool_results/call_7");
    // Without a way to open files, the note stays and the button does not.
    const plain = render(ToolCard, { name: "read_file", summary: "/big.log", status: "done", result, clearedTo: "/x", open: true });
    expect(plain.querySelector('[data-testid="cleared-note"]')).not.toBeNull();
    expect(button(plain, "Open saved copy")).toBeUndefined();
  });

  it("makes an error visible as text while collapsed", () => {
    const el = render(ToolCard, {
      name: "edit_file",
      summary: "/a.ts",
      status: "error",
      result: "Error: old_string not found\nmore detail",
    });
    expect(el.querySelector(".status")?.textContent?.trim()).toContain("Error");
    expect(el.querySelector(".error-line")?.textContent).toBe("Error: old_string not found");
    expect(el.querySelector("article")?.classList.contains("error")).toBe(true);
  });

  it("previews a JSON error's message (fetch_url's), not its opening brace", () => {
    const result = JSON.stringify({ success: false, error: "Fetch URL error: HTTP 404 Not Found", url: "https://a.test/x" }, null, 2);
    const el = render(ToolCard, { name: "fetch_url", summary: "https://a.test/x", status: "error", result });
    expect(el.querySelector(".error-line")?.textContent).toBe("Fetch URL error: HTTP 404 Not Found");
  });

  it("streams a running command's output live, then keeps it as the result", () => {
    const props = reactiveProps<{ name: string; summary: string; status: "running" | "done"; output: string; open?: boolean }>({
      name: "execute",
      summary: "npm test",
      status: "running",
      output: "line 1\n",
    });
    const el = render(ToolCard, props);
    expect(el.querySelector("pre.live")?.textContent).toBe("line 1\n");
    expect(el.textContent).toContain("Running");
    props.output += "line 2\n";
    flushSync();
    expect(el.querySelector("pre.live")?.textContent).toBe("line 1\nline 2\n");
    props.status = "done";
    props.open = true;
    flushSync();
    expect(el.querySelector("pre.live")).toBeNull();
    expect(el.querySelector(".result pre")?.textContent).toBe("line 1\nline 2\n");
  });

  it("shows every status in words and nests children when expanded", async () => {
    for (const [status, word] of [
      ["cancelled", "Cancelled"],
      ["waiting", "Waiting for approval"],
    ] as const) {
      const el = render(ToolCard, { name: "task", summary: "researcher: find", status });
      expect(el.querySelector(".status .label")?.textContent).toBe(word);
    }
    const children = createRawSnippet(() => ({ render: () => "<p class='nested'>subagent step</p>" }));
    const el = render(ToolCard, { name: "task", summary: "researcher: find", status: "running", children });
    expect(el.querySelector(".nested")).toBeNull();
    await userEvent.click(toggle(el));
    expect(el.querySelector(".children .nested")?.textContent).toBe("subagent step");
  });
});

describe("tool card images", () => {
  const hostile = window as unknown as { hostile?: number };

  it("shows a tool's PNG as an image, from a data: URL, once expanded", async () => {
    const el = render(ToolCard, {
      name: "t__image",
      summary: "",
      status: "done",
      result: "here is the pixel",
      images: [{ mimeType: "image/png", data: RED_PIXEL_PNG }],
    });
    expect(el.querySelector("img")).toBeNull();
    await userEvent.click(toggle(el));
    const img = el.querySelector<HTMLImageElement>(".images img")!;
    expect(img.getAttribute("src")).toBe(`data:image/png;base64,${RED_PIXEL_PNG}`);
    expect(img.alt).toBe("Image 1 from t__image");
    await vi.waitFor(() => expect(img.complete && img.naturalWidth).toBe(1), { timeout: 10_000 });
  });

  it("never renders an SVG, HTML called an image, bytes that are not what they say, or a remote URL as an image", async () => {
    const el = render(ToolCard, {
      name: "t__hostile_images",
      summary: "",
      status: "done",
      result: "three images",
      open: true,
      images: [
        ...HOSTILE_IMAGES,
        { mimeType: "image/png", data: "https://example.com/x.png" },
        { mimeType: "image/png;charset=x", data: RED_PIXEL_PNG },
        { mimeType: "image/png", url: "https://example.com/x.png" },
      ],
    });
    expect(el.querySelectorAll("img, svg, iframe, object, embed, script")).toHaveLength(0);
    const notes = [...el.querySelectorAll(".images p")].map((p) => p.textContent);
    expect(notes).toEqual([
      expect.stringMatching(/^Image 1 not shown: image\/svg\+xml is not one of image\/png, image\/jpeg, image\/gif, image\/webp\.$/),
      expect.stringMatching(/^Image 2 not shown: text\/html is not one of/),
      "Image 3 not shown: its bytes are not image/png.",
      "Image 4 not shown: its data is not base64.",
      expect.stringMatching(/^Image 5 not shown: image\/png;charset=x is not one of/),
      "Image 6 not shown: not an image.",
    ]);
    expect(el.innerHTML).not.toMatch(/<script|onerror|data:image\/svg|https:/);
    expect(hostile.hostile).toBeUndefined();
  });
});
