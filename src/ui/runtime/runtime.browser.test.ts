/**
 * The LangGraph server key (Settings → Runtime) in Chromium, against two origins of the loopback recording server (its
 * `127.0.0.1` and `localhost` names): the key goes only to the origin of the server URL it was entered with, and a
 * remembered key is kept in IndexedDB, never in localStorage (an old localStorage one is moved and removed), a server
 * error never shows the key the server echoed, and forgetting drops the key, the URL and the choice.
 */
import { afterEach, describe, expect, inject, it } from "vitest";
import { KEY_HIDDEN } from "../../core/redact.ts";
import type { RecordedRequest } from "../../testing/provider-servers.ts";
import { serverScope } from "../../testing/server-scope.ts";
import { RuntimeState } from "./runtime.svelte.ts";
import { indexedDbServerKeyStore } from "./server-key-store.ts";

const KEY = "lg-server-key-7c6b5a49";
const STORE = "deeptab:runtime";
const LEGACY_KEY_STORE = "deeptab:runtime-key";
const keysSent = (requests: RecordedRequest[]) => requests.map((r) => r.headers["x-api-key"]);

function twoServers() {
  const url = inject("providerServer");
  return { a: serverScope(url), b: serverScope(url.replace("127.0.0.1", "localhost")) };
}

afterEach(() => localStorage.clear());

describe("the LangGraph server key", () => {
  it("connecting to server B after server A with the key field empty sends B no key, and A still gets its own", async () => {
    const { a, b } = twoServers();
    const runtime = new RuntimeState(() => undefined, localStorage, indexedDbServerKeyStore(`k-${crypto.randomUUID()}`));
    await runtime.connect(a.root, { key: KEY });
    const toA = await a.requests();
    expect(toA.length).toBeGreaterThanOrEqual(1);
    expect(keysSent(toA).every((k) => k === KEY)).toBe(true);

    await runtime.connect(b.root);
    const toB = await b.requests();
    expect(toB.length).toBeGreaterThanOrEqual(1);
    expect(keysSent(toB)).toEqual(toB.map(() => undefined));
    expect(JSON.stringify(toB.map((r) => r.headers))).not.toContain(KEY);
    expect(runtime.keySet).toBe(false);

    await runtime.connect(a.root);
    const again = (await a.requests()).slice(toA.length);
    expect(again.length).toBeGreaterThanOrEqual(1);
    expect(keysSent(again).every((k) => k === KEY)).toBe(true);
  });

  it("a remembered server key is kept in IndexedDB bound to its server, and localStorage holds no key", async () => {
    const { a } = twoServers();
    const keys = indexedDbServerKeyStore(`k-${crypto.randomUUID()}`);
    const runtime = new RuntimeState(() => undefined, localStorage, keys);
    await runtime.connect(a.root, { key: KEY, remember: true });
    await runtime.saved;
    expect(await keys.get()).toEqual({ key: KEY, origin: new URL(a.root).origin });
    expect(JSON.stringify({ ...localStorage })).not.toContain(KEY);

    // A new page: the key is read back from IndexedDB for that server.
    const reloaded = new RuntimeState(() => undefined, localStorage, keys);
    await reloaded.connect(a.root);
    expect(keysSent((await a.requests()).slice(-1))).toEqual([KEY]);
    expect(reloaded.remembered).toBe(true);

    await reloaded.connect(a.root, { remember: false });
    await reloaded.saved;
    expect(await keys.get()).toBeUndefined();
  });

  it("a key an earlier version left in localStorage is moved to IndexedDB, bound to the URL kept beside it, and removed", async () => {
    const { a, b } = twoServers();
    localStorage.setItem(STORE, JSON.stringify({ kind: "tab", url: a.root }));
    localStorage.setItem(LEGACY_KEY_STORE, KEY);
    const keys = indexedDbServerKeyStore(`k-${crypto.randomUUID()}`);
    const runtime = new RuntimeState(() => undefined, localStorage, keys);
    await runtime.restore();
    expect(localStorage.getItem(LEGACY_KEY_STORE)).toBeNull();
    expect(JSON.stringify({ ...localStorage })).not.toContain(KEY);
    expect(await keys.get()).toEqual({ key: KEY, origin: new URL(a.root).origin });
    expect(runtime.keySet).toBe(true);

    await runtime.connect(b.root);
    expect(JSON.stringify((await b.requests()).map((r) => r.headers))).not.toContain(KEY);
  });

  it("a server's error shown on the page never echoes the server key, on a 401 or any other status", async () => {
    for (const status of [401, 400, 422]) {
      const { a } = twoServers();
      await a.configure({ echoKey: status });
      const runtime = new RuntimeState(() => undefined, localStorage, indexedDbServerKeyStore(`k-${crypto.randomUUID()}`));
      expect(await runtime.connect(a.root, { key: KEY })).toBe(false);
      // The server was sent the key and answered with it.
      expect(keysSent(await a.requests())).toContain(KEY);
      expect(runtime.error?.message).toContain(`HTTP ${status}`);
      if (status !== 401) expect(runtime.error?.message).toContain(`Invalid API key: ${KEY_HIDDEN}`);
      expect(JSON.stringify(runtime.error)).not.toContain(KEY);
    }
  });

  it("forget() drops a remembered server key from memory and IndexedDB, and the URL and runtime choice from localStorage", async () => {
    const { a } = twoServers();
    const name = `k-${crypto.randomUUID()}`;
    const announced: number[] = [];
    const runtime = new RuntimeState(() => announced.push(1), localStorage, indexedDbServerKeyStore(name));
    await runtime.connect(a.root, { key: KEY, remember: true });
    await runtime.saved;
    expect(await indexedDbServerKeyStore(name).get()).toEqual({ key: KEY, origin: new URL(a.root).origin });
    localStorage.setItem(STORE, JSON.stringify({ kind: "server", url: a.root, assistantId: "x" }));

    await runtime.forget();
    expect(await indexedDbServerKeyStore(name).get()).toBeUndefined();
    expect(localStorage.getItem(STORE)).toBeNull();
    expect(JSON.stringify({ ...localStorage })).not.toContain(KEY);
    expect({ kind: runtime.kind, url: runtime.url, keySet: runtime.keySet, remembered: runtime.remembered }).toEqual({
      kind: "tab",
      url: "",
      keySet: false,
      remembered: false,
    });
    // The key is gone from memory too: connecting again to its server sends none.
    const before = (await a.requests()).length;
    await runtime.connect(a.root);
    const after = (await a.requests()).slice(before);
    expect(after.length).toBeGreaterThanOrEqual(1);
    expect(keysSent(after).every((k) => k === undefined)).toBe(true);

    const fresh = new RuntimeState(() => undefined, localStorage, indexedDbServerKeyStore(name));
    await fresh.restore();
    expect({ kind: fresh.kind, url: fresh.url, keySet: fresh.keySet, remembered: fresh.remembered }).toEqual({
      kind: "tab",
      url: "",
      keySet: false,
      remembered: false,
    });
  });
});
