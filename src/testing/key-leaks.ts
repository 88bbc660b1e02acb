/**
 * Looking for a key where it must never be: a provider whose 401 echoes the
 * key it was sent (as OpenAI's "Incorrect API key provided: sk-…" does, and
 * some servers do in full), inside a subagent; and every place the key could
 * end up: IndexedDB databases (all stores, bytes decoded as text) and thread
 * exports (checkpoint data decoded). Node (fake-indexeddb) and Chromium.
 */
import { base64ToBytes } from "../backends/file-ops.ts";
import type { ExportedData, ThreadExport } from "../protocol/threads.ts";
import type { ServerReply } from "./provider-servers.ts";

/** A key shaped like OpenAI's, and one shaped like nothing (only its being configured says it is a key). */
export const SHAPED_KEY = "sk-proj-Zq8tR4vW2yX6aB1cD3eF5gH7";
export const PLAIN_KEY = "local-server-token-5e1f9a";
/** A key with characters every encoding changes (URL, JSON, base64's alignment). */
export const SYMBOL_KEY = 'gw/7+k=Q "x" 9f8e7d6c5b4a';

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

const encoder = new TextEncoder();
const base64 = (text: string) => btoa(String.fromCharCode(...encoder.encode(text)));
const base64url = (text: string) => base64(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

/** The forms a server may echo a key in (issue 39), each with its name; none of them may be stored or shown. */
export function keyForms(key: string): Array<[string, string]> {
  return [
    ["verbatim", key],
    ["URL-encoded", encodeURIComponent(key)],
    ["in a form's query", new URLSearchParams({ key }).toString().slice("key=".length)],
    ["base64", base64(key)],
    ["base64url", base64url(key)],
    ["Basic auth base64 (user:key)", base64(`user:${key}`)],
    ["base64 of a JSON body holding it", base64(JSON.stringify({ api_key: key }))],
    ["hex", [...encoder.encode(key)].map((b) => b.toString(16).padStart(2, "0")).join("")],
    ["JSON-escaped", JSON.stringify(key).slice(1, -1)],
    ["a truncated echo (its first 20 characters)", key.slice(0, 20)],
    ["a masked echo of its middle", `****${key.slice(4, -4)}****`],
  ];
}

/** What the raw body of {@link keyFormsEchoReplies}' 401 holds besides its message: stored nowhere. */
export const RAW_BODY_MARKER = "raw-body-d41d8cd9";

/**
 * As {@link keyEchoReplies}, but the 401 echoes `key` in every form of {@link keyForms} (in its message and in raw
 * fields of its body, beside {@link RAW_BODY_MARKER}), as a misbehaving server or proxy might.
 */
export function keyFormsEchoReplies(key: string, withMessage = true): ServerReply[] {
  const forms = keyForms(key).map(([name, form]) => `${name}: ${form}`);
  const [delegate, , , , answer] = keyEchoReplies(key);
  const debug = { marker: RAW_BODY_MARKER, forms };
  const refuse: ServerReply = {
    when: { lastUserIncludes: "Investigate" },
    status: 401,
    // Without a message, the SDK makes its error's message of the whole body (as Anthropic's SDK always does).
    body: withMessage
      ? { error: { message: `Incorrect API key provided. ${forms.join("; ")}.`, type: "invalid_request_error" }, debug }
      : { error: { type: "invalid_request_error", debug } },
  };
  return [delegate!, delegate!, refuse, refuse, answer!];
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

/** A thread export as text, with every value the serde wrote as bytes (base64 in the export) decoded. */
export function exportText(exported: ThreadExport): string {
  const data: Array<ExportedData | { patch: unknown }> = [
    ...exported.values,
    ...exported.checkpoints.flatMap((cp) => [cp.checkpoint, cp.metadata, ...cp.pendingWrites]),
  ];
  const bytes = data.flatMap((d) => ("base64" in d ? [decoder.decode(base64ToBytes(d.base64))] : []));
  return [JSON.stringify(exported), ...bytes].join("\n");
}
