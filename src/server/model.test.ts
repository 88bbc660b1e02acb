import { describe, expect, it } from "vitest";
import { PROVIDERS } from "../models/catalog.ts";
import { createServerModel, modelFromEnv, modelSpecFromEnv, SERVER_PROVIDERS, serverVars } from "./model.ts";
import { interruptOnFromEnv } from "./graph-env.ts";

describe("the server's model from the environment", () => {
  it("refuses to start without DEEPTAB_MODEL or with a malformed one, saying what to set", async () => {
    await expect(modelFromEnv({})).rejects.toThrow(/DEEPTAB_MODEL is not set.*<provider>:<model>/);
    expect(modelSpecFromEnv({ DEEPTAB_MODEL: "gpt-4.1" })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/unknown provider 'gpt-4.1'/),
    });
    expect(modelSpecFromEnv({ DEEPTAB_MODEL: "openai:" })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/no model after 'openai:'/),
    });
    expect(modelSpecFromEnv({ DEEPTAB_MODEL: "openai:gpt-4.1" })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/set OPENAI_API_KEY/),
    });
    expect(modelSpecFromEnv({ DEEPTAB_MODEL: "openai-compatible:qwen" })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/set OPENAI_BASE_URL/),
    });
    expect(modelSpecFromEnv({ DEEPTAB_MODEL: "anthropic:claude-sonnet-4-5" })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/set ANTHROPIC_API_KEY/),
    });
    expect(modelSpecFromEnv({ DEEPTAB_MODEL: "openai-compatible:q", OPENAI_BASE_URL: "not a url" })).toMatchObject({ ok: false });
  });

  it("never puts a key in its errors", () => {
    const spec = modelSpecFromEnv({ DEEPTAB_MODEL: "openai-compatible:q", OPENAI_BASE_URL: "nope", OPENAI_API_KEY: "sk-secret-123" });
    expect(spec.ok).toBe(false);
    expect(JSON.stringify(spec)).not.toContain("sk-secret-123");
  });

  it("builds each provider's client with the environment's key and base URL", async () => {
    const openai = modelSpecFromEnv({ DEEPTAB_MODEL: "openai-compatible:qwen2.5:7b", OPENAI_BASE_URL: "http://127.0.0.1:11434/v1" });
    expect(openai).toEqual({
      ok: true,
      value: { provider: "openai-compatible", model: "qwen2.5:7b", baseUrl: "http://127.0.0.1:11434/v1" },
    });
    const anthropic = modelSpecFromEnv({
      DEEPTAB_MODEL: "anthropic:claude-sonnet-4-5",
      ANTHROPIC_API_KEY: "k",
      ANTHROPIC_BASE_URL: "http://127.0.0.1:1",
    });
    expect(anthropic.ok).toBe(true);
    if (!openai.ok || !anthropic.ok) return;
    expect((await createServerModel(openai.value))._llmType()).toBe("openai");
    expect((await createServerModel(anthropic.value))._llmType()).toBe("anthropic");
  });

  it("offers every network row of the provider table, each with its variables and its protocol's client", async () => {
    // A network row the server does not offer says so with `serverEnv: null`; none does today.
    expect(SERVER_PROVIDERS.map((p) => p.id)).toEqual(PROVIDERS.filter((p) => p.runsIn === "network").map((p) => p.id));
    for (const p of SERVER_PROVIDERS) {
      const vars = serverVars(p);
      const env = { DEEPTAB_MODEL: `${p.id}:m`, [vars.key]: "k", [vars.baseUrl]: "http://127.0.0.1:1/v1" };
      const spec = modelSpecFromEnv(env);
      expect(spec, p.id).toEqual({ ok: true, value: { provider: p.id, model: "m", apiKey: "k", baseUrl: "http://127.0.0.1:1/v1" } });
      if (spec.ok) expect((await createServerModel(spec.value))._llmType(), p.id).toBe(p.api);
      if (p.key === "required") expect(modelSpecFromEnv({ ...env, [vars.key]: "" }), p.id).toMatchObject({ ok: false });
      if (p.baseUrl === "required") expect(modelSpecFromEnv({ ...env, [vars.baseUrl]: "" }), p.id).toMatchObject({ ok: false });
    }
  });

  it("reads approvals from DEEPTAB_INTERRUPT_ON (default: execute, as the tab's default)", () => {
    expect(interruptOnFromEnv({})).toEqual({ execute: true });
    expect(interruptOnFromEnv({ DEEPTAB_INTERRUPT_ON: "none" })).toEqual({});
    expect(interruptOnFromEnv({ DEEPTAB_INTERRUPT_ON: "execute, write_file" })).toEqual({ execute: true, write_file: true });
  });
});
