/**
 * Every row of the provider table, as the app builds it: what a row says (its key, its base URL, its protocol) is
 * what the built model does, so a new row needs no code beside its own line. Nothing here names a provider.
 */
import { HumanMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { PROVIDERS, type ProviderInfo } from "./catalog.ts";
import { createRemoteModel, listModels, preloadClient } from "./providers.ts";

const network = PROVIDERS.filter((p): p is ProviderInfo & { runsIn: "network" } => p.runsIn === "network");
const KEY = "sk-table-test";

/** A fetch that records where each request goes and what key it carries, then fails (no request leaves the test). */
function recorder(): { fetch: typeof fetch; seen: Array<{ url: string; headers: Headers }> } {
  const seen: Array<{ url: string; headers: Headers }> = [];
  const fetchImpl: typeof fetch = (input, init) => {
    const request = new Request(input, init);
    seen.push({ url: request.url, headers: request.headers });
    return Promise.reject(new TypeError("offline (test)"));
  };
  return { fetch: fetchImpl, seen };
}

/** A base URL for the row: its official one, or the one a user's server needs. */
const baseOf = (p: ProviderInfo) => (p.baseUrl === "required" ? "http://127.0.0.1:9/v1" : undefined);

describe("the provider table builds every network row", () => {
  it("refuses a row whose key is required without one, naming the provider", async () => {
    for (const p of network.filter((row) => row.key === "required")) {
      const built = await createRemoteModel({ provider: p.id, model: "m", baseUrl: baseOf(p) }, undefined);
      expect(built, p.id).toEqual({ ok: false, error: `Add your ${p.label} API key in Settings.` });
    }
  });

  it("refuses a row whose base URL is required without one", async () => {
    for (const p of network.filter((row) => row.baseUrl === "required")) {
      const built = await createRemoteModel({ provider: p.id, model: "m" }, KEY);
      expect(built.ok, p.id).toBe(false);
      if (!built.ok) expect(built.error, p.id).toMatch(/base URL/);
    }
  });

  it("sends each row's requests to its endpoint with its key, through its protocol's client", async () => {
    for (const p of network) {
      const { fetch, seen } = recorder();
      const built = await createRemoteModel({ provider: p.id, model: "m", baseUrl: baseOf(p) }, KEY, fetch);
      if (!built.ok) throw new Error(`${p.id}: ${built.error}`);
      await expect(built.value.invoke([new HumanMessage("hi")])).rejects.toThrow();
      const endpoint = baseOf(p) ?? p.officialUrl;
      expect(endpoint, p.id).toBeTruthy();
      expect(seen[0]?.url, p.id).toMatch(new RegExp(`^${endpoint!.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}`));
      const sent = seen[0]!.headers;
      expect(sent.get("authorization") ?? sent.get("x-api-key"), p.id).toContain(KEY);
      expect(built.value._llmType(), p.id).toBe(p.api);
    }
  });

  it("preloads the client of every network row, and none for the others", async () => {
    for (const p of PROVIDERS) {
      const load = preloadClient(p.id);
      if (p.runsIn !== "network") expect(load, p.id).toBeUndefined();
      else expect(await load, p.id).toHaveProperty(p.api === "openai" ? "ChatOpenAI" : "ChatAnthropic");
    }
  });

  it("lists each row's models on its protocol's route, or its suggestions without an endpoint", async () => {
    for (const p of PROVIDERS) {
      const { fetch, seen } = recorder();
      const listed = await listModels({ provider: p.id, model: "", baseUrl: baseOf(p) }, KEY, fetch);
      if (p.runsIn !== "network") {
        expect(listed, p.id).toEqual({ ok: true, value: [...p.suggestions] });
        continue;
      }
      expect(listed, p.id).toMatchObject({ ok: false, error: { code: "network" } });
      expect(seen[0]?.url, p.id).toMatch(/\/models$/);
    }
  });
});
