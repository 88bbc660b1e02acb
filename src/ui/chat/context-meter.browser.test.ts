/**
 * context-meter.svelte in Chromium: the last request against the window
 * ("1.2k / 8.2k", a filled bar, the summarization trigger marked and named
 * in the accessible label), an assumed window said so, an unknown window as
 * "256 tokens", and the thread's provider usage with cache reads.
 */
import { flushSync } from "svelte";
import { afterEach, describe, expect, it } from "vitest";
import { cleanupRendered, reactiveProps, render } from "../../testing/render.svelte.ts";
import ContextMeter from "./context-meter.svelte";
import type { ThreadView } from "../../protocol/threads.ts";

afterEach(cleanupRendered);

const base: ThreadView = {
  threadId: "t",
  messages: [],
  todos: [],
  approval: null,
  model: { provider: "openai-compatible", model: "m", baseUrl: "http://127.0.0.1:9/v1" },
  usage: { input: 0, output: 0 },
  branches: [],
  agent: { id: "general", name: "deeptab" },
};

const text = (el: HTMLElement, id: string) => el.querySelector(`[data-testid="${id}"]`)?.textContent?.replace(/\s+/g, " ").trim();

describe("context meter", () => {
  it("shows the last request against the window, the trigger marked, and the thread's usage", () => {
    const el = render(ContextMeter, {
      view: { ...base, lastRequestTokens: 1_234, window: 8_192, trigger: 6_963, usage: { input: 2_900, output: 55, cacheRead: 1_300 } },
    });
    expect(text(el, "context-used")).toBe("1.2k / 8.2k");
    const meter = el.querySelector('[role="meter"]')!;
    expect(meter.getAttribute("aria-label")).toBe("Context: 1.2k of 8.2k tokens; summarizes at 7.0k");
    expect(meter.getAttribute("aria-valuenow")).toBe("1234");
    expect(meter.getAttribute("aria-valuemax")).toBe("8192");
    const fill = el.querySelector<HTMLElement>(".fill")!;
    expect(parseFloat(fill.style.width)).toBeCloseTo((1_234 / 8_192) * 100, 3);
    const trigger = el.querySelector<HTMLElement>(".trigger")!;
    expect(parseFloat(trigger.style.left)).toBeCloseTo((6_963 / 8_192) * 100, 3);
    expect(trigger.getAttribute("aria-hidden")).toBe("true");
    expect(meter.classList.contains("near")).toBe(false);
    expect(text(el, "thread-usage")).toBe("2.9k in · 55 out · 1.3k cached");
  });

  it("says an assumed window is assumed, warns near the trigger, and updates with the view", () => {
    const props = reactiveProps<{ view: ThreadView | null }>({
      view: { ...base, lastRequestTokens: 6_500, window: 8_192, trigger: 6_963, windowAssumed: true },
    });
    const el = render(ContextMeter, props);
    const meter = el.querySelector('[role="meter"]')!;
    expect(meter.getAttribute("aria-label")).toContain("(assumed 8,192 tokens — the server did not say; set it in Settings)");
    // Visible too, not only in the label.
    expect(text(el, "window-assumed")).toBe("assumed");
    expect(meter.classList.contains("near")).toBe(true);
    // No usage reported: no usage text.
    expect(el.querySelector('[data-testid="thread-usage"]')).toBeNull();
    props.view = { ...base, lastRequestTokens: 100, window: 8_192, trigger: 6_963 };
    flushSync();
    expect(text(el, "context-used")).toBe("100 / 8.2k");
    expect(el.querySelector('[data-testid="window-assumed"]')).toBeNull();
    expect(meter.classList.contains("near")).toBe(false);
    props.view = null;
    flushSync();
    expect(el.querySelector('[data-testid="context-meter"]')).toBeNull();
  });

  it("with no window known: the tokens alone, in words, and no trigger", () => {
    const el = render(ContextMeter, { view: { ...base, model: { provider: "anthropic", model: "unknown" }, lastRequestTokens: 256 } });
    expect(text(el, "context-used")).toBe("256 tokens");
    const meter = el.querySelector('[role="meter"]')!;
    expect(meter.getAttribute("aria-label")).toBe("Context: 256 tokens (window unknown)");
    expect(el.querySelector(".trigger")).toBeNull();
  });
});
