/**
 * A Python program that gets past the sandbox's import guard the way a determined program can (importlib, the `js`
 * module's timers, a JavaScript function's constructor) and prints what it finds on the thread's `globalThis`: the
 * sealed thread's test (python.test.ts in Node, python.browser.test.ts in Chromium) expects `undefined` for every
 * name python-seal.ts removes.
 */
import { SEALED_GLOBALS, SEALED_NAVIGATOR } from "../backends/sandbox/python-seal.ts";

const names = JSON.stringify([...SEALED_GLOBALS]);
const navigatorNames = JSON.stringify([...SEALED_NAVIGATOR]);

export const ESCAPE = `import importlib, sys
js = sys.modules.get("js") or importlib.import_module("js")
print("js module has:", [k for k in ("fetch", "indexedDB", "setTimeout") if hasattr(js, k)])
Function = js.setTimeout.constructor
g = Function("return globalThis")()
print("globalThis reached:", Function("return typeof globalThis.setTimeout === 'function'")())
for name in ${names}:
    print(f"{name}:", Function(f"return typeof globalThis.{name}")())
for name in ${navigatorNames}:
    print(f"navigator.{name}:", Function(f"return globalThis.navigator ? typeof globalThis.navigator.{name} : 'undefined'")())
`;

/**
 * The lines ESCAPE prints on a sealed thread: the bypass works (Python has no in-process sandbox; it reaches
 * JavaScript's globalThis), and nothing that reaches the network, storage or another thread is on it.
 */
export const SEALED_OUTPUT: readonly string[] = [
  "globalThis reached: True\n",
  "js module has: ['setTimeout']\n",
  ...[...SEALED_GLOBALS, ...SEALED_NAVIGATOR.map((name) => `navigator.${name}`)].map((name) => `${name}: undefined\n`),
];
