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
