/**
 * Looking for a key where it must never be: a provider whose 401 echoes the
 * key it was sent (as OpenAI's "Incorrect API key provided: sk-…" does, and
 * some servers do in full), inside a subagent; and every place the key could
 * end up: IndexedDB databases (all stores, bytes decoded as text) and thread
 * exports (checkpoint data decoded). Node (fake-indexeddb) and Chromium.
 */
import { base64ToBytes } from "../backends/file-ops.ts";
import type { ThreadExport } from "../worker/protocol.ts";
import type { ServerReply } from "./provider-servers.ts";

/** A key shaped like OpenAI's, and one shaped like nothing (only its being configured says it is a key). */
export const SHAPED_KEY = "sk-proj-Zq8tR4vW2yX6aB1cD3eF5gH7";
export const PLAIN_KEY = "local-server-token-5e1f9a";

/** The user's message; the subagent's task names "Investigate". */
export const LEAK_PROMPT = "PARENT: check the endpoint";

/** The parent delegates; the subagent's request gets a 401 echoing `key`; the parent then answers. */
export function keyEchoReplies(key: string): ServerReply[] {
  // First replies are queued twice: a request Chromium silently resends (its connection dropped) gets the same answer.
  const delegate: ServerReply = {
    when: { lastUserIncludes: LEAK_PROMPT, toolResults: 0 },
    toolCalls: [{ id: "t1", name: "task", args: { description: "Investigate the endpoint", subagent_type: "general-purpose" } }],
  };
  const refuse: ServerReply = {
    when: { lastUserIncludes: "Investigate" },
    status: 401,
    body: { error: { message: `Incorrect API key provided: ${key}. Also tried Bearer ${key}.`, type: "invalid_request_error" } },
  };
  return [
    delegate,
    delegate,
    refuse,
    refuse,
    { when: { lastUserIncludes: LEAK_PROMPT, toolResults: 1 }, text: "The subagent could not reach the endpoint." },
  ];
}

const decoder = new TextDecoder();

function textOf(value: unknown): string {
  if (value instanceof Uint8Array) return decoder.decode(value);
  if (value instanceof ArrayBuffer) return decoder.decode(new Uint8Array(value));
  if (Array.isArray(value)) return value.map(textOf).join("\n");
  if (typeof value === "object" && value !== null) return Object.values(value).map(textOf).join("\n");
  return String(value);
}

/** Every value of every store of the IndexedDB database `name`, as text. */
export async function databaseText(name: string): Promise<string> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const req = indexedDB.open(name);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
  try {
    const parts: string[] = [];
    for (const store of [...db.objectStoreNames]) {
      const values = await new Promise<unknown[]>((resolve, reject) => {
        const req = db.transaction(store, "readonly").objectStore(store).getAll();
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
      parts.push(...values.map(textOf));
    }
    return parts.join("\n");
  } finally {
    db.close();
  }
}

/** A thread export as text, its checkpoints' data decoded. */
export function exportText(exported: ThreadExport): string {
  return [JSON.stringify(exported), ...exported.checkpoints.map((cp) => decoder.decode(base64ToBytes(cp.data)))].join("\n");
}
