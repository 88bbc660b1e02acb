/**
 * What to tell a person about a provider failure (provider-retry.ts classifies it), with the next step. Its own
 * module: the worker loads it with a run's first failure, not at startup.
 */
import { classifyProviderError } from "./provider-retry.ts";

/** A plain message for a provider failure, with the next step. */
export function describeProviderFailure(err: unknown, endpoint?: string): string {
  const failure = classifyProviderError(err);
  const host = endpoint ? new URL(endpoint).host : "the provider";
  switch (failure.kind) {
    case "auth":
      return `${host} refused the API key (HTTP ${failure.status}). Check the key in Settings.`;
    case "rate_limit":
      return `${host} is rate limiting requests (HTTP 429) and still was after several retries. Wait a minute and send again.`;
    case "server":
      return `${host} had a server error (HTTP ${failure.status}) and still did after several retries. Try again later.`;
    case "dropped":
      return (
        `The connection to ${host} dropped in the middle of the answer, after the server had started answering, ` +
        "and asking again did not get through. What arrived is kept. Check that the server is still running, then send again."
      );
    case "network":
      return (
        `Could not reach ${host}. Check the address and the connection; the endpoint may not allow requests from a browser (CORS). ` +
        "Ollama: start it with OLLAMA_ORIGINS set to this page's origin (or *). LM Studio: enable CORS in the server settings."
      );
    case "overflow":
      return (
        "The conversation is too long for the model's context window, even after summarizing. " +
        "Start a new thread, or choose a model with a larger window."
      );
    case "bad_request":
      return `${host} rejected the request (HTTP ${failure.status}): ${err instanceof Error ? err.message.split("\n")[0] : String(err)}`;
    default:
      return err instanceof Error ? err.message.split("\n")[0]! : String(err);
  }
}
