import { describe, expect, it } from "vitest";
import { PROVIDERS } from "../../protocol/catalog.ts";
import type { StatusEvent } from "../../protocol/events.ts";
import { runStatusText } from "./run-status.ts";

const status = (s: Omit<StatusEvent, "type" | "runId">): StatusEvent => ({ type: "status", runId: "r", ...s });

describe("runStatusText", () => {
  it("names each phase in words that stay the same while its figures change", () => {
    expect(runStatusText(status({ phase: "loading_model", progress: 0 }))).toEqual({ label: "Loading the model", percent: 0 });
    expect(runStatusText(status({ phase: "loading_model", progress: 0.426 }))).toEqual({ label: "Loading the model", percent: 43 });
    expect(runStatusText(status({ phase: "reading_prompt" }))).toEqual({ label: "Reading the prompt" });
    expect(runStatusText(status({ phase: "reading_prompt", progress: 0.5, tokens: 11_600 }))).toEqual({
      label: "Reading the prompt",
      detail: "11,600 tokens",
      percent: 50,
    });
  });

  it("says who a request waits for: the provider, or an OpenAI-compatible server's host", () => {
    const waiting = status({ phase: "waiting" });
    expect(runStatusText(waiting, { provider: "openai", model: "gpt-4.1" }).label).toBe("Waiting for OpenAI");
    expect(runStatusText(waiting, { provider: "anthropic", model: "claude-sonnet-4-5" }).label).toBe("Waiting for Anthropic");
    expect(runStatusText(waiting, { provider: "openai-compatible", model: "q", baseUrl: "http://localhost:11434/v1" }).label).toBe(
      "Waiting for localhost:11434",
    );
    expect(runStatusText(waiting, { provider: "openai-compatible", model: "q", baseUrl: "not a url" }).label).toBe(
      "Waiting for the server",
    );
    expect(runStatusText(waiting, { provider: "chrome", model: "gemini-nano" }).label).toBe("Waiting for Chrome's built-in model");
    expect(runStatusText(waiting).label).toBe("Waiting for the model");
  });

  it("names every network provider of the table, not the fallback", () => {
    const waiting = status({ phase: "waiting" });
    for (const p of PROVIDERS.filter((row) => row.runsIn === "network")) {
      const label = runStatusText(waiting, { provider: p.id, model: "m" }).label;
      expect(label, p.id).toBe(`Waiting for ${p.waitingFor}`);
      expect(label, p.id).not.toBe("Waiting for the model");
    }
  });

  it("keeps a percent within 0–100", () => {
    expect(runStatusText(status({ phase: "loading_model", progress: 1.2 })).percent).toBe(100);
    expect(runStatusText(status({ phase: "loading_model", progress: -1 })).percent).toBe(0);
  });
});
