import { describe, expect, it } from "vitest";
import type { RetryEvent } from "../../protocol/events.ts";
import { modelLabel, retryNotice } from "./notices.ts";

const retry = (over: Partial<RetryEvent>): RetryEvent => ({
  type: "retry",
  runId: "r",
  attempt: 0,
  maxAttempts: 4,
  waitMs: 1000,
  kind: "rate_limit",
  ...over,
});

describe("retryNotice", () => {
  it("names the failure, its HTTP status, the wait rounded up to seconds and the next attempt of the most", () => {
    expect(retryNotice(retry({ status: 429, waitMs: 2_400, attempt: 1 }))).toBe(
      "Rate limited (HTTP 429): retrying in 3 s (attempt 2 of 4).",
    );
    expect(retryNotice(retry({ kind: "network", waitMs: 500 }))).toBe("Network failure: retrying in 1 s (attempt 1 of 4).");
    expect(retryNotice(retry({ kind: "dropped" }))).toMatch(/^Connection dropped: /);
  });

  it("calls a kind it does not know a provider error", () => {
    expect(retryNotice(retry({ kind: "overloaded", status: 529 }))).toBe("Provider error (HTTP 529): retrying in 1 s (attempt 1 of 4).");
  });
});

describe("modelLabel", () => {
  it("shows the provider and the model, Demo for the scripted model, and says when no model is chosen", () => {
    expect(modelLabel({ provider: "openai", model: "gpt-5-mini" })).toBe("openai · gpt-5-mini");
    expect(modelLabel({ provider: "demo", model: "scripted" })).toBe("Demo · scripted");
    expect(modelLabel({ provider: "anthropic", model: "" })).toBe("anthropic · no model");
  });
});
