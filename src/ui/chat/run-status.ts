/**
 * What the pending answer shows while a run has no text yet (protocol
 * `StatusEvent`): a label for people and for screen readers (the same
 * words for every event of a phase, so a polite live region speaks once
 * per phase, not at every percent), and the figures shown beside it. Pure.
 */
import { providerInfo } from "../../protocol/catalog.ts";
import type { ModelChoice } from "../../protocol/settings.ts";
import type { StatusEvent } from "../../protocol/events.ts";

export interface RunStatusText {
  /** Spoken and shown: "Loading the model", "Reading the prompt", "Waiting for OpenAI". */
  label: string;
  /** Shown only: "11,600 tokens". */
  detail?: string;
  /** 0–100, when the phase says how far it is. */
  percent?: number;
}

/** Who a provider request waits for: the provider's row says (catalog.ts `waitingFor`), or a user's server's host. */
function waitedFor(model: ModelChoice | undefined): string {
  if (!model) return "the model";
  const info = providerInfo(model.provider);
  if (info.baseUrl !== "required" || !model.baseUrl) return info.waitingFor;
  try {
    return new URL(model.baseUrl).host;
  } catch {
    return info.waitingFor;
  }
}

export function runStatusText(status: StatusEvent, model?: ModelChoice): RunStatusText {
  const percent = status.progress === undefined ? {} : { percent: Math.round(Math.min(1, Math.max(0, status.progress)) * 100) };
  switch (status.phase) {
    case "loading_model":
      return { label: "Loading the model", ...percent };
    case "reading_prompt":
      return {
        label: "Reading the prompt",
        ...(status.tokens ? { detail: `${status.tokens.toLocaleString("en-US")} tokens` } : {}),
        ...percent,
      };
    case "waiting":
      return { label: `Waiting for ${waitedFor(model)}`, ...percent };
  }
}
