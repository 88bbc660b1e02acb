/**
 * Models in the tab where llama.cpp cannot run: asking for the engine gives
 * the reason as an error value, before any file is read. Node has no JSPI,
 * as Safari; JSPI is taken away if this Node has it.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createLocalModels } from "./local-models.ts";

const suspending = Object.getOwnPropertyDescriptor(WebAssembly, "Suspending");
afterEach(() => {
  if (suspending) Object.defineProperty(WebAssembly, "Suspending", suspending);
});

describe("local models where llama.cpp cannot run", () => {
  it("refuses to load an engine, saying why", async () => {
    if (suspending) Reflect.deleteProperty(WebAssembly, "Suspending");
    const local = createLocalModels(() => Promise.reject(new Error("no request expected")));
    const engine = await local.engine("any-model");
    expect(engine).toEqual({ ok: false, error: expect.stringMatching(/^llama\.cpp in the tab needs WebAssembly JSPI/) });
  });
});

describe("dropped model files", () => {
  it("uses .gguf files in place, and says with a code why other drops cannot be used", () => {
    const local = createLocalModels(() => Promise.reject(new Error("no request expected")));
    expect(local.useFiles([new File(["x"], "notes.txt")])).toEqual({
      ok: false,
      error: { name: "LocalFileError", code: "not_gguf", message: "Drop a .gguf file (or every shard of a split model)." },
    });
    // A 3 GB file is not allocated for the test: its size is what is checked.
    const big = Object.defineProperty(new File([], "big.gguf"), "size", { value: 3_000_000_000 });
    expect(local.useFiles([big])).toMatchObject({
      ok: false,
      error: { code: "too_large", message: expect.stringContaining("big.gguf is over 2 GB") },
    });
    expect(local.useFiles([new File([new Uint8Array(8)], "b.gguf"), new File([new Uint8Array(8)], "a.gguf")])).toEqual({
      ok: true,
      value: "file:a.gguf",
    });
  });
});
