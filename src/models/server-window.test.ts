/**
 * A local server's window: the rule (`effectiveServerWindow`), then the
 * probe with Node's real fetch against loopback servers answering as
 * vLLM and OpenRouter (their /v1/models), llama.cpp's server, LM Studio and
 * Ollama do (src/testing/local-servers.ts), each local one with a family
 * maximum the probe must never take as the window.
 */
import { describe, expect, it } from "vitest";
import type { LocalServer } from "../testing/local-servers.ts";
import type { ScriptedServer } from "../testing/provider-servers.ts";
import { serveScripted } from "../testing/scripted-servers.ts";
import { LOCAL_SERVER_WINDOW } from "./catalog.ts";
import { probeServerWindow } from "./server-probe.ts";
import { effectiveServerWindow, OLLAMA_DEFAULT_WINDOW } from "./server-window.ts";

const serveOne = serveScripted();
const serve = (local?: LocalServer): Promise<ScriptedServer> => serveOne("openai", [], local ? { local } : {});

const probe = (s: ScriptedServer, model: string) => probeServerWindow({ provider: "openai-compatible", baseUrl: s.baseUrl(), model });
const paths = (s: ScriptedServer) => s.requests.map((r) => `${r.method} ${r.path}`);

describe("effectiveServerWindow", () => {
  it("takes the loaded context, which a user's setting may lower but never exceed", () => {
    expect(effectiveServerWindow(undefined, { tokens: 4_096, source: "loaded" })).toBe(4_096);
    expect(effectiveServerWindow(2_048, { tokens: 4_096, source: "loaded" })).toBe(2_048);
    expect(effectiveServerWindow(32_768, { tokens: 4_096, source: "loaded" })).toBe(4_096);
  });

  it("takes the user's setting when the server cannot say what it loaded, else the server's default, else LOCAL_SERVER_WINDOW", () => {
    expect(effectiveServerWindow(32_768, undefined)).toBe(32_768);
    expect(effectiveServerWindow(32_768, { tokens: OLLAMA_DEFAULT_WINDOW, source: "default" })).toBe(32_768);
    expect(effectiveServerWindow(undefined, { tokens: OLLAMA_DEFAULT_WINDOW, source: "default" })).toBe(OLLAMA_DEFAULT_WINDOW);
    expect(effectiveServerWindow(undefined, undefined)).toBe(LOCAL_SERVER_WINDOW);
  });
});

describe("probeServerWindow over HTTP", () => {
  it("llama.cpp's server: /props default_generation_settings.n_ctx, not the trained n_ctx_train", async () => {
    const s = await serve({ kind: "llama.cpp", model: "models/qwen2.5-0.5b-instruct-q4_k_m.gguf", nCtx: 4_096, nCtxTrain: 32_768 });
    const models = (await (await fetch(`${s.baseUrl()}/models`)).json()) as { data: Array<{ meta: { n_ctx_train: number } }> };
    expect(models.data[0]!.meta.n_ctx_train).toBe(32_768);
    s.requests.length = 0;
    expect(await probe(s, "anything")).toEqual({ tokens: 4_096, source: "loaded" });
    expect(paths(s)).toEqual(["GET /v1/models", "GET /props"]);
  });

  it("LM Studio: loaded_context_length of a loaded model; a model not loaded gives nothing, never max_context_length", async () => {
    const s = await serve({
      kind: "lmstudio",
      models: [
        { id: "qwen2.5-7b-instruct", arch: "qwen2", maxContextLength: 32_768, loadedContextLength: 8_192 },
        { id: "meta-llama-3.1-8b-instruct", arch: "llama", maxContextLength: 131_072 },
      ],
    });
    expect(await probe(s, "qwen2.5-7b-instruct")).toEqual({ tokens: 8_192, source: "loaded" });
    expect(paths(s)).toEqual(["GET /v1/models", "GET /props", "GET /api/v0/models/qwen2.5-7b-instruct"]);
    const listed = (await (await fetch(`${s.url}/api/v0/models/meta-llama-3.1-8b-instruct`)).json()) as Record<string, unknown>;
    expect(listed).toMatchObject({ state: "not-loaded", max_context_length: 131_072 });
    expect(await probe(s, "meta-llama-3.1-8b-instruct")).toBeUndefined();
  });

  it("Ollama: the running model's context_length (a bare name matches :latest), not model_info's family maximum", async () => {
    const s = await serve({
      kind: "ollama",
      version: "0.12.6",
      models: [{ name: "llama3.2:latest", arch: "llama", familyContextLength: 131_072, runningContextLength: 4_096 }],
    });
    expect(await probe(s, "llama3.2")).toEqual({ tokens: 4_096, source: "loaded" });
    expect(paths(s).slice(-2)).toEqual(["GET /api/version", "GET /api/ps"]);
  });

  it("Ollama, not loaded: the Modelfile's num_ctx from /api/show, else Ollama's default, never model_info's maximum", async () => {
    const s = await serve({
      kind: "ollama",
      version: "0.12.6",
      models: [
        { name: "qwen2.5:0.5b", arch: "qwen2", familyContextLength: 32_768, numCtx: 16_384 },
        { name: "qwen2.5:1.5b", arch: "qwen2", familyContextLength: 32_768 },
      ],
    });
    expect(await probe(s, "qwen2.5:0.5b")).toEqual({ tokens: 16_384, source: "loaded" });
    const show = s.requests.find((r) => r.path === "/api/show")!;
    expect(show).toMatchObject({ method: "POST", body: { model: "qwen2.5:0.5b" } });
    const shown = (await (
      await fetch(`${s.url}/api/show`, { method: "POST", body: JSON.stringify({ model: "qwen2.5:1.5b" }) })
    ).json()) as { model_info: Record<string, unknown>; parameters: string };
    expect(shown.model_info["qwen2.context_length"]).toBe(32_768);
    expect(shown.parameters).not.toContain("num_ctx");
    expect(await probe(s, "qwen2.5:1.5b")).toEqual({ tokens: OLLAMA_DEFAULT_WINDOW, source: "default" });
  });

  it("Ollama: a Modelfile's num_ctx (or the default) above the family maximum is capped at model_info's context_length", async () => {
    const s = await serve({
      kind: "ollama",
      version: "0.12.6",
      models: [
        { name: "tiny:latest", arch: "llama", familyContextLength: 2_048, numCtx: 8_192 },
        { name: "tinier:latest", arch: "gemma3", familyContextLength: 1_024 },
      ],
    });
    expect(await probe(s, "tiny")).toEqual({ tokens: 2_048, source: "loaded" });
    expect(await probe(s, "tinier")).toEqual({ tokens: 1_024, source: "default" });
  });

  it("vLLM: max_model_len of the served model from /v1/models, in one request", async () => {
    const s = await serve({ kind: "vllm", model: "meta-llama/Llama-3.3-70B-Instruct", maxModelLen: 131_072 });
    expect(await probe(s, "meta-llama/Llama-3.3-70B-Instruct")).toEqual({ tokens: 131_072, source: "loaded" });
    expect(paths(s)).toEqual(["GET /v1/models"]);
    // Another model id is not this server's: nothing from its list.
    expect(await probe(s, "other")).toBeUndefined();
  });

  it("vLLM started with --api-key: the key set for the server goes with /v1/models, and only there", async () => {
    const s = await serveOne("openai", [], { local: { kind: "vllm", model: "qwen", maxModelLen: 32_768 }, requireKey: "sk-vllm" });
    const choice = { provider: "openai-compatible", baseUrl: s.baseUrl(), model: "qwen" } as const;
    expect(await probeServerWindow(choice)).toBeUndefined();
    s.requests.length = 0;
    expect(await probeServerWindow(choice, fetch, "sk-vllm")).toEqual({ tokens: 32_768, source: "loaded" });
    expect(s.requests.map((r) => [r.path, r.headers.authorization])).toEqual([["/v1/models", "Bearer sk-vllm"]]);
  });

  it("OpenRouter: context_length, lowered to top_provider.context_length when smaller; base URL …/api/v1", async () => {
    const s = await serve({
      kind: "openrouter",
      models: [
        { id: "meta-llama/llama-3.3-70b-instruct", contextLength: 131_072, topProviderContextLength: 131_072 },
        { id: "qwen/qwen3-235b-a22b", contextLength: 262_144, topProviderContextLength: 40_960 },
        { id: "mistralai/mistral-nemo", contextLength: 131_072, topProviderContextLength: null },
      ],
    });
    const at = (model: string) => probeServerWindow({ provider: "openai-compatible", baseUrl: `${s.url}/api/v1`, model });
    expect(await at("meta-llama/llama-3.3-70b-instruct")).toEqual({ tokens: 131_072, source: "loaded" });
    expect(paths(s)).toEqual(["GET /api/v1/models"]);
    expect(await at("qwen/qwen3-235b-a22b")).toEqual({ tokens: 40_960, source: "loaded" });
    expect(await at("mistralai/mistral-nemo")).toEqual({ tokens: 131_072, source: "loaded" });
  });

  it("Ollama before context_length in /api/ps: a running model falls back to its Modelfile, then the default", async () => {
    const s = await serve({
      kind: "ollama",
      version: "0.5.7",
      psContextLength: false,
      models: [{ name: "qwen2.5:0.5b", arch: "qwen2", familyContextLength: 32_768, runningContextLength: 2_048 }],
    });
    const ps = (await (await fetch(`${s.url}/api/ps`)).json()) as { models: Array<Record<string, unknown>> };
    expect(ps.models[0]!.name).toBe("qwen2.5:0.5b");
    expect(ps.models[0]!.context_length).toBeUndefined();
    expect(await probe(s, "qwen2.5:0.5b")).toEqual({ tokens: OLLAMA_DEFAULT_WINDOW, source: "default" });
  });

  it("says nothing for a server whose model list gives no window and without the local routes, or one that is down", async () => {
    const s = await serve();
    expect(await probe(s, "gpt-4o")).toBeUndefined();
    expect(paths(s)).toEqual(["GET /v1/models", "GET /props", "GET /api/v0/models/gpt-4o", "GET /api/version"]);
    const down = await serve();
    const url = down.baseUrl();
    await down.close();
    expect(await probeServerWindow({ provider: "openai-compatible", baseUrl: url, model: "m" })).toBeUndefined();
    expect(await probeServerWindow({ provider: "openai", model: "gpt-4o" })).toBeUndefined();
  });
});
