/**
 * Whether this browser can run llama.cpp in the tab. wllama 3 ships one
 * WebAssembly build (the one deeptab serves itself), and it needs:
 *
 * - JSPI, WebAssembly JavaScript Promise Integration (`WebAssembly.Suspending`
 *   and `WebAssembly.promising`): the build's file reads suspend the wasm;
 * - Memory64 (a `WebAssembly.Memory` with `address: "i64"`): its memory is
 *   64-bit.
 *
 * Chrome and Edge 137 and later have both. Safari has neither, and Firefox
 * has JSPI only behind `javascript.options.wasm_js_promise_integration`
 * (wllama's advice) at the time of writing. wllama's "compat" build for such
 * browsers is fetched from a CDN, which deeptab never does (no request to a
 * third party), so there the provider is offered disabled with the reason.
 * No imports: the page asks too (protocol/catalog.ts).
 */

export type WllamaSupport = { ok: true } | { ok: false; reason: string };

/** The parts of the WebAssembly namespace the check reads. */
export type WasmFeatures = Partial<Pick<typeof WebAssembly, "Memory">> & { Suspending?: unknown; promising?: unknown };

function hasMemory64(wasm: WasmFeatures): boolean {
  if (typeof wasm.Memory !== "function") return false;
  try {
    // `address` is not in the TypeScript DOM typings yet; sizes are BigInts for a 64-bit memory.
    new wasm.Memory({ address: "i64", initial: 1n } as unknown as WebAssembly.MemoryDescriptor);
    return true;
  } catch {
    return false;
  }
}

/** Whether llama.cpp (wllama 3's only build) can run here, and if not, why, in words for the person. */
export function wllamaSupport(wasm: WasmFeatures | undefined = globalThis.WebAssembly): WllamaSupport {
  if (!wasm) return { ok: false, reason: "This browser has no WebAssembly." };
  const missing: string[] = [];
  if (typeof wasm.Suspending !== "function" || typeof wasm.promising !== "function") missing.push("JSPI (JavaScript Promise Integration)");
  if (!hasMemory64(wasm)) missing.push("Memory64");
  if (!missing.length) return { ok: true };
  return {
    ok: false,
    reason:
      `llama.cpp in the tab needs WebAssembly ${missing.join(" and ")}, which this browser does not have. ` +
      "Chrome or Edge 137 or later has everything it needs.",
  };
}
