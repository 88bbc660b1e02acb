/**
 * The context window of a model on a local OpenAI-compatible server
 * (llama.cpp's server, LM Studio, Ollama), which loads a model with far less
 * than its family's maximum (Ollama's default is a few thousand tokens, and a
 * prompt over it is cut silently).
 *
 * - `probeServer` (server-probe.ts, loaded when a server is first asked)
 *   asks the server what it loaded.
 * - `effectiveServerWindow` is the rule: the server's loaded context where it
 *   can be asked; a user's setting may lower it but never exceed it; the
 *   user's setting alone when the server cannot tell; otherwise Ollama's
 *   default (when it is Ollama) or LOCAL_SERVER_WINDOW.
 */
import { LOCAL_SERVER_WINDOW } from "./catalog.ts";

/** Ollama's context for a model it has not loaded and whose Modelfile sets no num_ctx (the smallest default of recent releases). */
export const OLLAMA_DEFAULT_WINDOW = 4_096;

/** What a local server says about its model's window. */
export interface ServerWindow {
  tokens: number;
  /**
   * `loaded`: the context the server has the model loaded with, or will load
   * it with (Ollama's `num_ctx`); a user's setting can only lower it.
   * `default`: the server's default for a model it has not loaded yet
   * (Ollama); used when the user set nothing.
   */
  source: "loaded" | "default";
}

/**
 * The window an agent works in on a local server: the server's loaded
 * context, lowered by the user's setting when that is smaller; the user's
 * setting when the server did not say what it loaded; otherwise the server's
 * default, else LOCAL_SERVER_WINDOW.
 */
export function effectiveServerWindow(user: number | undefined, server: ServerWindow | undefined): number {
  if (server?.source === "loaded") return user !== undefined ? Math.min(user, server.tokens) : server.tokens;
  return user ?? server?.tokens ?? LOCAL_SERVER_WINDOW;
}
