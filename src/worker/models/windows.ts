/**
 * The one decision of which context window a model choice works in. The
 * agent's summarization is sized to it (agents.ts) and the context meter
 * shows it (thread-view.ts), so both always agree:
 *
 * - OpenAI-compatible servers: the context the server says its model is
 *   loaded with, which the user's setting may lower but never raise; the
 *   user's setting when the server cannot tell; the server's default (an
 *   Ollama model not loaded yet); else LOCAL_SERVER_WINDOW (assumed: marked
 *   so, and the settings say so) — see models/server-window.ts;
 * - otherwise the window the user set, else:
 * - llama.cpp in the tab: the context it loads the model with;
 * - Chrome's built-in model: what the Prompt API reports;
 * - OpenAI and Anthropic: deeptab's table by model name (undefined for a
 *   name it does not know).
 */
import { providerInfo } from "../../models/catalog.ts";
import type { PromptApiPort } from "../../models/chrome-ai.ts";
import {
  contextWindowOf,
  effectiveServerWindow,
  LOCAL_SERVER_WINDOW,
  type ModelChoice,
  type ServerWindow,
} from "../../models/providers.ts";
import { DEFAULT_LOCAL_CONTEXT } from "./local-context.ts";

export interface WindowSources {
  /** The window an OpenAI-compatible server reports for its loaded model (cached by the caller). */
  serverWindow(choice: ModelChoice): Promise<ServerWindow | undefined>;
  /** Chrome's Prompt API, when the page has it. */
  promptApi?(): PromptApiPort | undefined;
}

export interface ModelWindow {
  tokens: number | undefined;
  /** Nobody said: the server did not tell and the user set none (LOCAL_SERVER_WINDOW is assumed). */
  assumed?: true;
}

export async function modelWindow(choice: ModelChoice, sources: WindowSources): Promise<ModelWindow> {
  const info = providerInfo(choice.provider);
  if (info.serverWindow) {
    const reported = await sources.serverWindow(choice);
    if (!reported && !choice.contextWindow) return { tokens: LOCAL_SERVER_WINDOW, assumed: true };
    return { tokens: effectiveServerWindow(choice.contextWindow, reported) };
  }
  if (choice.contextWindow) return { tokens: choice.contextWindow };
  // Every kind of row is named (no default): a new kind does not compile until it is handled here.
  switch (info.runsIn) {
    case "tab":
      return { tokens: DEFAULT_LOCAL_CONTEXT };
    case "browser": {
      const port = sources.promptApi?.();
      return { tokens: port ? await port.contextWindow().catch(() => undefined) : undefined };
    }
    case "network":
    case "scripted":
      return { tokens: contextWindowOf(choice) };
  }
}
