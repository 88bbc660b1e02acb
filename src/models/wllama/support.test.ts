/**
 * The detection of what llama.cpp in the tab needs (JSPI and Memory64), over
 * stand-ins for the WebAssembly namespace of browsers with and without them,
 * and over Node's own (which has neither). Chromium's answer is checked in
 * wllama.browser.test.ts, and the settings dialog with it forced off in
 * ui/settings/settings.browser.test.ts.
 */
import { describe, expect, it } from "vitest";
import { wllamaSupport, type WasmFeatures } from "./support.ts";

/** A WebAssembly.Memory that accepts only 32-bit descriptors (a browser without Memory64). */
class Memory32 {
  constructor(descriptor: { initial: unknown; address?: string }) {
    if (descriptor.address === "i64" || typeof descriptor.initial !== "number")
      throw new TypeError("Cannot convert a BigInt value to a number");
  }
}
/** One that takes a 64-bit descriptor too. */
class Memory64 {
  constructor(descriptor: { initial: unknown; address?: string }) {
    if (descriptor.address === "i64" && typeof descriptor.initial !== "bigint") throw new TypeError("i64 memory takes BigInt sizes");
  }
}
const jspi = { Suspending: function Suspending() {}, promising: () => () => undefined };
const wasm = (parts: object) => parts as unknown as WasmFeatures;

describe("wllamaSupport", () => {
  it("is supported with JSPI and Memory64 (Chromium 137+)", () => {
    expect(wllamaSupport(wasm({ ...jspi, Memory: Memory64 }))).toEqual({ ok: true });
  });

  it("names what is missing: JSPI (Firefox by default), Memory64, or both (Safari)", () => {
    const noJspi = wllamaSupport(wasm({ Memory: Memory64 }));
    expect(noJspi).toEqual({
      ok: false,
      reason:
        "llama.cpp in the tab needs WebAssembly JSPI (JavaScript Promise Integration), which this browser does not have. " +
        "Chrome or Edge 137 or later has everything it needs.",
    });
    // Suspending without promising is not enough: the build calls both.
    expect(wllamaSupport(wasm({ Suspending: jspi.Suspending, Memory: Memory64 })).ok).toBe(false);
    const no64 = wllamaSupport(wasm({ ...jspi, Memory: Memory32 }));
    expect(no64).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/needs WebAssembly Memory64, which this browser does not have/),
    });
    const neither = wllamaSupport(wasm({ Memory: Memory32 }));
    expect(neither).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/needs WebAssembly JSPI \(JavaScript Promise Integration\) and Memory64,/),
    });
    expect(wllamaSupport(wasm({}))).toMatchObject({ ok: false });
  });

  it("reads the real WebAssembly namespace by default (Node's: the same answer as passing it)", () => {
    expect(wllamaSupport()).toEqual(wllamaSupport(WebAssembly));
    const real = "Suspending" in WebAssembly && "promising" in WebAssembly;
    if (!real) expect(wllamaSupport().ok).toBe(false);
  });
});
