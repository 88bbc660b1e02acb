/** The page's provider catalog: the one list models/ builds from, and the model sources it builds. */
import { describe, expect, expectTypeOf, it } from "vitest";
import * as models from "../models/catalog.ts";
import { KEY_PROVIDERS, LOCAL_SERVER_WINDOW, modelSourceFor, PROVIDERS, providerInfo, RECOMMENDED_MODELS } from "./catalog.ts";
import { sanitizeModelChoice } from "../worker/settings/settings.ts";

describe("catalog", () => {
  it("is the provider list and constants models/providers.ts builds from (one source)", () => {
    expect(PROVIDERS).toBe(models.PROVIDERS);
    expect(LOCAL_SERVER_WINDOW).toBe(models.LOCAL_SERVER_WINDOW);
    for (const p of models.PROVIDERS) expect(providerInfo(p.id)).toEqual(models.providerInfo(p.id));
  });

  it("derives every provider list from the one table", () => {
    expect(PROVIDERS.map((p) => p.id)).toEqual(Object.keys(models.PROVIDER_TABLE));
    expect(models.PROVIDER_IDS).toEqual(Object.keys(models.PROVIDER_TABLE));
    // The providers that take a key are the rows whose key is required or optional.
    expect(KEY_PROVIDERS).toEqual(["openai", "anthropic", "openai-compatible"]);
    expect(models.isProviderId("openai-compatible")).toBe(true);
    expect(models.isProviderId("toString")).toBe(false);
    // The worker accepts exactly the table's ids from storage or the page.
    for (const id of models.PROVIDER_IDS) expect(sanitizeModelChoice({ provider: id, model: "m" })?.provider).toBe(id);
    expect(sanitizeModelChoice({ provider: "ollama", model: "m" })).toBeUndefined();
    expectTypeOf<models.ProviderId>().toEqualTypeOf<"demo" | "openai" | "anthropic" | "openai-compatible" | "wllama" | "chrome">();
  });

  it("builds store sources: one URL, or every shard of a split GGUF", () => {
    const one = modelSourceFor(RECOMMENDED_MODELS[0]!.url);
    expect(one).toMatchObject({ name: "qwen2.5-0.5b-instruct-q4_k_m.gguf", urls: [RECOMMENDED_MODELS[0]!.url] });
    expect(one.id).toMatch(/^[A-Za-z0-9._-]+$/);
    const split = modelSourceFor("https://example.com/m/big-00001-of-00003.gguf");
    expect(split.urls).toEqual([
      "https://example.com/m/big-00001-of-00003.gguf",
      "https://example.com/m/big-00002-of-00003.gguf",
      "https://example.com/m/big-00003-of-00003.gguf",
    ]);
    expect(new Set(RECOMMENDED_MODELS.map((m) => modelSourceFor(m.url).id)).size).toBe(RECOMMENDED_MODELS.length);
  });
});
