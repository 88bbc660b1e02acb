/**
 * The agents stored in this browser (from a link, a drop or a picker), pinned by content hash, and which hash each
 * link's URL was accepted with (so a changed agent at the same URL is asked about again). In the IndexedDB store:
 *
 * | namespace         | key        | value                                     |
 * |-------------------|------------|-------------------------------------------|
 * | `["agents"]`      | the hash   | {@link StoredAgent} (its folder as a JSON bundle) |
 * | `["agent-links"]` | the URL    | `{ hash, at }`: the hash accepted for it  |
 *
 * An agent and its link's pin are written in one batch (one IndexedDB transaction): both or neither. Without
 * IndexedDB the same calls keep them in memory for the session.
 */
import type { BaseStore } from "@langchain/langgraph/web";
import { AGENT_LINKS_NS, AGENTS_NS } from "./agent-namespaces.ts";

/** An agent as stored. */
export interface StoredAgent {
  hash: string;
  origin: "link" | "local";
  /** The link it was loaded from. */
  url?: string;
  /** When it was stored (ISO). */
  addedAt: string;
  /** Its name when agent.yaml gives none (the zip's or folder's). */
  fallbackName: string;
  /** Its folder as a JSON bundle (agent-folders/bundle.ts). */
  bundle: string;
  /**
   * A local edit: the agent (the version) it was edited from, and that agent's name then; while agent.yaml keeps that
   * name the edit is shown as "<name> (edited)".
   */
  editedFrom?: { id: string; name: string };
  /** Stored with an imported thread and not reviewed yet (not listed; its thread does not run until it is used). */
  unreviewed?: true;
}

/** Stored agents and link pins. */
export interface AgentStore {
  /** Every stored agent, newest first. */
  list(): Promise<StoredAgent[]>;
  get(hash: string): Promise<StoredAgent | undefined>;
  /**
   * Stores the agent and, when it has a URL, pins the URL to its hash, and forgets the stored agent `replaces` (a
   * version an edit supersedes) and its link pins: all in one transaction.
   */
  put(agent: StoredAgent, replaces?: string): Promise<void>;
  /** Forgets the agent and every link pinned to it. */
  remove(hash: string): Promise<void>;
  /** The hash a link's URL was accepted with, if it was. */
  pinned(url: string): Promise<string | undefined>;
}

const newestFirst = (a: StoredAgent, b: StoredAgent) => (a.addedAt < b.addedAt ? 1 : a.addedAt > b.addedAt ? -1 : 0);

function isStoredAgent(value: unknown): value is StoredAgent {
  const v = value as Partial<StoredAgent> | null;
  return typeof v?.hash === "string" && typeof v.bundle === "string" && typeof v.addedAt === "string";
}

/** Stored agents in a LangGraph store (the worker's IndexedDB store). */
export function storeAgents(store: BaseStore): AgentStore {
  /** The writes that forget a stored agent and its link pins. */
  async function removal(hash: string) {
    const links = await store.search(AGENT_LINKS_NS, { limit: 100_000 });
    return [
      { namespace: AGENTS_NS, key: hash, value: null },
      ...links.filter((l) => l.value.hash === hash).map((l) => ({ namespace: AGENT_LINKS_NS, key: l.key, value: null })),
    ];
  }
  return {
    async list() {
      const items = await store.search(AGENTS_NS, { limit: 100_000 });
      return items
        .map((i) => i.value)
        .filter(isStoredAgent)
        .sort(newestFirst);
    },
    async get(hash) {
      const value = (await store.get(AGENTS_NS, hash))?.value;
      return isStoredAgent(value) ? value : undefined;
    },
    async put(agent, replaces) {
      await store.batch([
        ...(replaces && replaces !== agent.hash ? await removal(replaces) : []),
        { namespace: AGENTS_NS, key: agent.hash, value: { ...agent } },
        ...(agent.url ? [{ namespace: AGENT_LINKS_NS, key: agent.url, value: { hash: agent.hash, at: agent.addedAt } }] : []),
      ]);
    },
    async remove(hash) {
      await store.batch(await removal(hash));
    },
    async pinned(url) {
      const hash: unknown = (await store.get(AGENT_LINKS_NS, url))?.value.hash;
      return typeof hash === "string" ? hash : undefined;
    },
  };
}

/** Stored agents for the session only (no IndexedDB). */
export function memoryAgents(): AgentStore {
  const agents = new Map<string, StoredAgent>();
  const links = new Map<string, string>();
  function remove(hash: string): void {
    agents.delete(hash);
    for (const [url, pinned] of links) if (pinned === hash) links.delete(url);
  }
  return {
    list: async () => [...agents.values()].sort(newestFirst),
    get: async (hash) => agents.get(hash),
    async put(agent, replaces) {
      if (replaces && replaces !== agent.hash) remove(replaces);
      agents.set(agent.hash, { ...agent });
      if (agent.url) links.set(agent.url, agent.hash);
    },
    remove: async (hash) => remove(hash),
    pinned: async (url) => links.get(url),
  };
}
