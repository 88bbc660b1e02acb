/**
 * What OpenAI-compatible servers say about their model's window
 * (models/server-window.ts), asked once per base URL and model per session
 * and remembered on this device, so a page's first turn never waits for
 * the probe's requests when an answer is known:
 *
 * - The first lookup of a session with a remembered answer returns it at
 *   once and probes in the background; the probe's answer serves the rest
 *   of the session and replaces the remembered one when it differs.
 * - Without a remembered answer the lookup waits for the probe (the window
 *   sizes the first request's summarization).
 * - Only the answer of a server that answered is remembered: a server that
 *   was down leaves the remembered answer as it was. "Does not tell" (vLLM,
 *   OpenRouter, the loopback test server) is an answer too, so those servers
 *   are not asked again before every first turn.
 *
 * Remembered in the store under ["servers"], keyed by base URL and model:
 * the window and when it was seen (no key, no request content). Forget
 * everything clears them (`clear`).
 */
import type { BaseStore } from "@langchain/langgraph/web";
import type { ModelChoice, ServerProbe, ServerWindow } from "../../models/providers.ts";

export const SERVERS_NS = ["servers"];

export interface ServerProbes {
  /** The window the choice's server reports (undefined: it does not tell, or it is not an OpenAI-compatible server). */
  window(choice: ModelChoice): Promise<ServerWindow | undefined>;
  /** Forgets every answer, remembered and of this session. */
  clear(): Promise<void>;
}

/** A remembered answer: `window` null when the server answered without telling. */
interface Remembered {
  window: ServerWindow | null;
  seenAt: string;
}

function remembered(value: unknown): Remembered | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { window, seenAt } = value as Record<string, unknown>;
  if (typeof seenAt !== "string") return undefined;
  if (window === null) return { window: null, seenAt };
  const w = window as Partial<ServerWindow> | undefined;
  if (typeof w?.tokens !== "number" || !(w.tokens > 0) || (w.source !== "loaded" && w.source !== "default")) return undefined;
  return { window: { tokens: w.tokens, source: w.source }, seenAt };
}

const sameWindow = (a: ServerWindow | null | undefined, b: ServerWindow | null | undefined) =>
  (a ?? null) === (b ?? null) || (a?.tokens === b?.tokens && a?.source === b?.source);

export function createServerProbes(probe: (choice: ModelChoice) => Promise<ServerProbe>, store?: BaseStore): ServerProbes {
  const session = new Map<string, Promise<ServerWindow | undefined>>();

  async function read(key: string): Promise<Remembered | undefined> {
    return remembered((await store?.get(SERVERS_NS, key).catch(() => null))?.value);
  }

  /** Probes the server; remembers a server's answer when it answered and the answer changed. */
  async function ask(key: string, choice: ModelChoice, before: Remembered | undefined): Promise<ServerWindow | undefined> {
    const found = await probe(choice);
    if (found.answered && (!before || !sameWindow(before.window, found.window))) {
      const value: Remembered = { window: found.window ?? null, seenAt: new Date().toISOString() };
      await store?.put(SERVERS_NS, key, { ...value }).catch(() => undefined);
    }
    // A server that was down: what was remembered still stands.
    return found.answered ? found.window : (before?.window ?? undefined);
  }

  async function lookup(key: string, choice: ModelChoice): Promise<ServerWindow | undefined> {
    const before = await read(key);
    if (!before) return ask(key, choice, undefined);
    // Known from an earlier session: answer now; the background probe's answer serves the rest of this one.
    const fresh = ask(key, choice, before).catch(() => before.window ?? undefined);
    void fresh.then((window) => {
      if (session.get(key)) session.set(key, Promise.resolve(window));
    });
    return before.window ?? undefined;
  }

  return {
    window(choice) {
      if (choice.provider !== "openai-compatible" || !choice.baseUrl) return Promise.resolve(undefined);
      const key = `${choice.baseUrl}|${choice.model}`;
      let hit = session.get(key);
      if (!hit) session.set(key, (hit = lookup(key, choice)));
      return hit;
    },
    async clear() {
      session.clear();
      if (!store) return;
      const items = await store.search(SERVERS_NS, { limit: 100_000 });
      if (items.length) await store.batch(items.map((i) => ({ namespace: i.namespace, key: i.key, value: null })));
    },
  };
}
