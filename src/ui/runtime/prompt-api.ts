/**
 * Chrome's built-in model for the worker: the Prompt API exists only on the
 * page (Window), so when this browser has it the page hands the worker a
 * remote over it. Each prompt streams its reply; the worker cancels the
 * stream to stop the model (no AbortSignal crosses the boundary).
 */
import type { AgentClient } from "../../page/client.ts";
import { createPromptApiPort, languageModelApi } from "../../page/prompt-api-host.ts";
import type { PromptApiRemote } from "../../protocol/worker-api.ts";

/** Attaches the Prompt API when `scope` (the window) has one; true when it did. */
export async function attachPromptApi(client: Pick<AgentClient, "attachPromptApi">, scope: unknown = globalThis): Promise<boolean> {
  const api = languageModelApi(scope);
  if (!api) return false;
  const port = createPromptApiPort(api);
  const remote: PromptApiRemote = {
    prompt: (request) => port.prompt(request),
    contextWindow: () => port.contextWindow(),
  };
  try {
    await client.attachPromptApi(remote);
    return true;
  } catch {
    // The worker is gone: the provider reports the model as unavailable.
    return false;
  }
}
