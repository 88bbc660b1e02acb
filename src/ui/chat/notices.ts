/** The short texts the conversation shows around a run: the thread's model on its chip, and a provider retry. Pure. */
import type { RetryEvent } from "../../protocol/events.ts";
import type { ModelChoice } from "../../protocol/settings.ts";

/** What each kind of provider failure is called in the retry notice; other kinds are a "Provider error". */
const RETRY_LABELS: Readonly<Record<string, string>> = {
  rate_limit: "Rate limited",
  network: "Network failure",
  dropped: "Connection dropped",
};

/** The notice while a provider call waits to be retried: why, the HTTP status if any, the wait and the attempt. */
export function retryNotice(retry: RetryEvent): string {
  const status = retry.status ? ` (HTTP ${retry.status})` : "";
  const wait = Math.ceil(retry.waitMs / 1000);
  const label = RETRY_LABELS[retry.kind] ?? "Provider error";
  return `${label}${status}: retrying in ${wait} s (attempt ${retry.attempt + 1} of ${retry.maxAttempts}).`;
}

/** The model chip's text: the provider ("Demo" for the scripted model) and the model's id. */
export function modelLabel(model: ModelChoice): string {
  return `${model.provider === "demo" ? "Demo" : model.provider} · ${model.model || "no model"}`;
}
