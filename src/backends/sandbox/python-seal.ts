/**
 * The shell thread's seal: what Python (through Pyodide's bridge to
 * JavaScript) could reach on the thread it runs on, taken away once Pyodide
 * has loaded.
 *
 * Python has no in-process sandbox: `import js` is refused to the program
 * (python-run.ts), and the `js` module Pyodide builds holds only timers, but a
 * determined program can still reach a JavaScript function object and, from
 * its constructor, the thread's `globalThis`. So the boundary is the thread
 * itself: the shell's own worker, which holds no files (every filesystem call
 * is a message to the agent's thread, answered through the shell's
 * filesystem), and from which this removes the network (`fetch`, XHR,
 * sockets, `importScripts`), the origin's storage (IndexedDB, Cache Storage,
 * `navigator.storage`, Web Locks) and other threads (`Worker`,
 * `BroadcastChannel`, the service worker). Each name is deleted from the
 * global object and from every prototype that defines it (WebIDL members are
 * configurable), so no `Object.getPrototypeOf` path brings it back.
 */

/** Globals that reach the network, the origin's storage or another thread. */
export const SEALED_GLOBALS = [
  "fetch",
  "XMLHttpRequest",
  "WebSocket",
  "WebSocketStream",
  "WebTransport",
  "EventSource",
  "RTCPeerConnection",
  "importScripts",
  "indexedDB",
  "caches",
  "cookieStore",
  "Worker",
  "SharedWorker",
  "BroadcastChannel",
] as const;

/** The same on `navigator`. */
export const SEALED_NAVIGATOR = ["storage", "serviceWorker", "locks", "sendBeacon"] as const;

/** Deletes `name` from `target` and its prototype chain; true when it is gone. */
function remove(target: object, name: string): boolean {
  for (let at: object | null = target; at; at = Object.getPrototypeOf(at) as object | null) {
    if (Object.prototype.hasOwnProperty.call(at, name)) Reflect.deleteProperty(at, name);
  }
  if (!(name in target)) return true;
  // Not deletable (a non-configurable own property): shadow it where possible.
  try {
    Object.defineProperty(target, name, { value: undefined, configurable: false, writable: false });
  } catch {
    return false;
  }
  return (target as Record<string, unknown>)[name] === undefined;
}

/**
 * Seals the current thread (the shell's own, never the agent's or the page's). Returns the names it could not
 * remove (none in Chromium and Node; a test asserts it).
 */
export function sealThread(): string[] {
  const scope = globalThis as Record<string, unknown>;
  const left: string[] = SEALED_GLOBALS.filter((name) => !remove(scope, name));
  const navigator = scope["navigator"];
  if (navigator && typeof navigator === "object") {
    left.push(...SEALED_NAVIGATOR.filter((name) => !remove(navigator, name)).map((name) => `navigator.${name}`));
  }
  // Node (tests, benches): Pyodide's sockets reach `ws` through the `require` shim it installs on globalThis.
  const shim = scope["require"];
  if (typeof shim === "function") {
    scope["require"] = (name: string): unknown => {
      if (name === "ws" || name === "child_process") throw new TypeError(`${name}: the sandbox has no network access`);
      return (shim as (name: string) => unknown)(name);
    };
  }
  return left;
}
