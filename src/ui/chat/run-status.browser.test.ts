/**
 * run-status.svelte in Chromium: the phase's words in a polite live region
 * that is always in the page and changes once per phase (not at every
 * percent), the figures and the progress bar shown beside them, and nothing
 * shown (an empty region) once nothing is pending.
 */
import { flushSync } from "svelte";
import { afterEach, describe, expect, it } from "vitest";
import { cleanupRendered, reactiveProps, render } from "../../testing/render.svelte.ts";
import type { ModelChoice } from "../../protocol/settings.ts";
import type { StatusEvent } from "../../protocol/events.ts";
import RunStatus from "./run-status.svelte";

afterEach(cleanupRendered);

const status = (s: Omit<StatusEvent, "type" | "runId">): StatusEvent => ({ type: "status", runId: "r", ...s });

describe("run status", () => {
  it("speaks each phase once while its figures change, shows the progress, and empties when nothing is pending", () => {
    const props = reactiveProps<{ status: StatusEvent | null; model?: ModelChoice }>({ status: null });
    const el = render(RunStatus, props);
    const live = el.querySelector('[role="status"]')!;
    expect(live.getAttribute("data-testid")).toBe("run-status-live");
    expect(live.textContent).toBe("");
    expect(el.querySelector('[data-testid="run-status"]')).toBeNull();

    // What the live region says after each update (its mutations, taken at once: observers report in a microtask).
    const spoken: string[] = [];
    const observer = new MutationObserver(() => undefined);
    observer.observe(live, { childList: true, characterData: true, subtree: true });
    const update = (next: StatusEvent | null) => {
      props.status = next;
      flushSync();
      if (observer.takeRecords().length) spoken.push(live.textContent ?? "");
    };
    update(status({ phase: "loading_model", progress: 0.1 }));
    const shown = el.querySelector('[data-testid="run-status"]')!;
    expect(shown.getAttribute("data-phase")).toBe("loading_model");
    expect(shown.textContent?.replace(/\s+/g, " ").trim()).toBe("Loading the model… 10%");
    const bar = el.querySelector("progress")!;
    expect(bar.value).toBe(10);
    expect(bar.getAttribute("aria-label")).toBe("Loading the model");
    for (const progress of [0.35, 0.7, 1]) update(status({ phase: "loading_model", progress }));
    expect(el.querySelector("progress")!.value).toBe(100);
    update(status({ phase: "reading_prompt", progress: 0.25, tokens: 11_600 }));
    expect(el.querySelector('[data-testid="run-status"]')!.textContent).toContain("11,600 tokens");
    props.model = { provider: "anthropic", model: "claude-sonnet-4-5" };
    update(status({ phase: "waiting" }));
    expect(el.querySelector("progress")).toBeNull();
    update(null);
    expect(el.querySelector('[data-testid="run-status"]')).toBeNull();
    // One announcement per phase, none for the percentages, and the region empties at the end.
    expect(spoken).toEqual(["Loading the model", "Reading the prompt", "Waiting for Anthropic", ""]);
  });
});
