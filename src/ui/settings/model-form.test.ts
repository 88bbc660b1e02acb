/** The settings' model fields as pure functions over the provider table. */
import { describe, expect, it } from "vitest";
import { PROVIDERS, providerInfo } from "../../protocol/catalog.ts";
import {
  baseUrlError,
  baseUrlHint,
  baseUrlPlaceholder,
  canList,
  choiceOf,
  fieldsOf,
  keyHint,
  onlyListed,
  keyPlaceholder,
  localNetworkNote,
  modelError,
  modelHint,
  providerOptions,
  SANDBOXES,
  suggestionsOf,
  switchProvider,
  TOOL_PROFILES,
  windowHint,
} from "./model-form.ts";

const info = providerInfo;
const unset = undefined;
const set = { provider: "openai" as const, set: true, remembered: false };

describe("the model fields", () => {
  it("start from a choice; a required base URL it lacks stays empty (the example is only the placeholder)", () => {
    expect(fieldsOf({ provider: "openai-compatible", model: "qwen" })).toEqual({
      provider: "openai-compatible",
      baseUrl: "",
      model: "qwen",
      windowText: "",
    });
    expect(fieldsOf({ provider: "openai", model: "gpt-4o", contextWindow: 32_768 }).windowText).toBe("32768");
  });

  it("switch providers: its default model, a required base URL kept (never the example), an optional one emptied, the window reset", () => {
    const local = { provider: "openai-compatible" as const, baseUrl: "http://127.0.0.1:8080/v1", model: "qwen", windowText: "4096" };
    expect(switchProvider(local, "openai", [])).toEqual({ provider: "openai", baseUrl: "", model: "gpt-4.1-mini", windowText: "" });
    expect(switchProvider({ ...local, provider: "demo", baseUrl: "" }, "openai-compatible", []).baseUrl).toBe("");
    expect(switchProvider(local, "openai-compatible", []).baseUrl).toBe("http://127.0.0.1:8080/v1");
    // In the tab: the first model on this device, or none.
    expect(switchProvider(local, "wllama", ["a.gguf-1", "b.gguf-2"]).model).toBe("a.gguf-1");
    expect(switchProvider(local, "wllama", []).model).toBe("");
  });

  it("describe a choice: a base URL only when shown and valid, a window only when it differs from the model's", () => {
    const fields = { provider: "openai" as const, baseUrl: "", model: " gpt-4o ", windowText: "128000" };
    expect(choiceOf(fields, 128_000)).toEqual({ provider: "openai", model: "gpt-4o" });
    expect(choiceOf({ ...fields, windowText: "32000" }, 128_000)).toEqual({ provider: "openai", model: "gpt-4o", contextWindow: 32_000 });
    expect(choiceOf({ ...fields, baseUrl: "https://proxy.example/v1" }, undefined).baseUrl).toBe("https://proxy.example/v1");
    expect(choiceOf({ ...fields, baseUrl: "not a url" }, undefined).baseUrl).toBeUndefined();
    expect(choiceOf({ ...fields, provider: "demo", baseUrl: "https://x.example" }, undefined).baseUrl).toBeUndefined();
  });

  it("check the base URL by the table: required always, optional only when given", () => {
    expect(baseUrlError(info("openai-compatible"), "")).toMatch(/base URL/);
    expect(baseUrlError(info("openai"), "")).toBeNull();
    expect(baseUrlError(info("openai"), "proxy")).toMatch(/http/);
    expect(baseUrlError(info("demo"), "anything")).toBeNull();
    expect(modelError(info("wllama"), "")).toBe("Download or choose a model below.");
    expect(modelError(info("openai"), " ")).toBe("Enter a model id.");
  });

  it("show the table's placeholders and say what the model list holds", () => {
    expect(baseUrlPlaceholder(info("anthropic"))).toBe("https://api.anthropic.com (default)");
    expect(baseUrlPlaceholder(info("openai-compatible"))).toBe("http://localhost:11434/v1");
    expect(keyPlaceholder(info("openai-compatible"), unset)).toBe("optional (OpenRouter and hosted servers need one)");
    expect(keyPlaceholder(info("openai"), { ...set, remembered: true })).toBe("set (remembered on this device): type to replace it");
    expect(keyHint(info("openai"), set)).toBe("A key is set. It is never shown again. It is sent only to OpenAI.");
    expect(keyHint(info("openai"), { ...set, set: false, notKept: true })).toBe(
      "No key set: the one used before the reload was for that session only and was not kept. It is sent only to OpenAI.",
    );
    // While a key is typed, the hint says what Save does with it (never the key).
    expect(keyHint(info("openai"), unset, "sk-typed")).toBe("The key you typed is set when you save. It is sent only to OpenAI.");
    expect(keyHint(info("openai"), set, "sk-typed")).toBe(
      "The key you typed replaces the one set when you save. It is sent only to OpenAI.",
    );
    expect(keyHint(info("openai"), unset, "  ")).toBe("No key set. It is sent only to OpenAI.");
    // A server that lists one model: it is chosen when none is typed.
    expect(onlyListed({ ok: true, value: ["qwen.gguf", "qwen.gguf"] }, "")).toBe("qwen.gguf");
    expect(onlyListed({ ok: true, value: ["qwen.gguf"] }, "mine")).toBeUndefined();
    expect(onlyListed({ ok: true, value: ["a", "b"] }, "")).toBeUndefined();
    expect(onlyListed({ ok: false, error: { message: "HTTP 401" } }, "")).toBeUndefined();
    const compatible = info("openai-compatible");
    expect(modelHint(compatible, { ok: true, value: ["a"] }, null, unset)).toBe("1 model listed by the server: or type any id.");
    expect(modelHint(compatible, { ok: true, value: ["a", "b"] }, "Enter a model id.", unset)).toBe(
      "2 models listed by the server: choose one.",
    );
    expect(modelHint(info("openai"), { ok: false, error: { message: "HTTP 401" } }, null, set)).toBe(
      "Could not list this provider's models (HTTP 401); type the model id.",
    );
    expect(modelHint(info("openai"), unset, null, unset)).toBe("Add a key to list this provider's models, or type the model id.");
    expect(canList(info("openai"), unset)).toBe(false);
    expect(canList(info("openai"), set)).toBe(true);
    expect(canList(info("openai-compatible"), unset)).toBe(true);
    expect(canList(info("wllama"), unset)).toBe(false);
    expect(suggestionsOf(info("openai"), { ok: true, value: ["x", "x", "y"] })).toEqual(["x", "y"]);
    expect(suggestionsOf(info("anthropic"), unset)).toEqual(info("anthropic").suggestions);
    expect(windowHint(compatible, 4096)).toContain("a number here may lower it, never raise it");
    expect(windowHint(compatible, 4096)).not.toContain("Assumed");
    // A server that did not say: the assumption first, and the ask.
    expect(windowHint(compatible, undefined)).toMatch(
      /^Assumed 8,192 tokens — the server did not say\. Enter the model's window if you know it\. /,
    );
    expect(windowHint(info("openai"), undefined)).not.toContain("Assumed");
    expect(windowHint(info("openai"), 1_047_576)).toMatch(/This model's default: 1,047,576 tokens\.$/);
  });

  it("offer the table's providers: the browser's model only with the Prompt API, llama.cpp disabled with the reason", () => {
    const everywhere = providerOptions("demo", { promptApi: true, tab: { ok: true } });
    expect(everywhere.map((o) => o.id)).toEqual(PROVIDERS.map((p) => p.id));
    expect(everywhere.every((o) => o.unavailable === undefined)).toBe(true);
    const safari = providerOptions("demo", { promptApi: false, tab: { ok: false, reason: "no JSPI" } });
    expect(safari.map((o) => o.id)).not.toContain("chrome");
    expect(safari.find((o) => o.id === "wllama")).toEqual({ id: "wllama", label: "In this tab (llama.cpp)", unavailable: "no JSPI" });
    // A thread already on Chrome's model keeps it listed.
    expect(providerOptions("chrome", { promptApi: false, tab: { ok: true } }).map((o) => o.id)).toContain("chrome");
  });

  it("explain every sandbox and tool profile, in the order offered", () => {
    expect(Object.keys(SANDBOXES)).toEqual(["shell", "webcontainer", "auto", "none"]);
    expect(Object.keys(TOOL_PROFILES)).toEqual(["auto", "default", "compact"]);
    expect(TOOL_PROFILES.auto.label).toBe("Automatic (compact below 16,384 tokens)");
  });

  it("warn about Local Network Access when a page on the web is pointed at this device or the local network", () => {
    const page = "someone.github.io";
    for (const url of ["http://localhost:11434/v1", "http://127.0.0.1:8080/v1", "http://192.168.1.20:1234/v1", "http://[::1]:8080/v1"]) {
      expect(localNetworkNote(url, page), url).toContain("Local Network Access");
    }
    expect(localNetworkNote("http://10.0.0.5:8000/v1", page)).toMatch(/^10\.0\.0\.5 is on this device or your local network/);
    // A public server, a page that is itself local, or text that is no URL yet: nothing to say.
    expect(localNetworkNote("https://openrouter.ai/api/v1", page)).toBeNull();
    expect(localNetworkNote("http://localhost:11434/v1", "localhost")).toBeNull();
    expect(localNetworkNote("http://localhost:11434/v1", "127.0.0.1")).toBeNull();
    expect(localNetworkNote("localhost:11434", page)).toBeNull();
    const local = info("openai-compatible");
    expect(baseUrlHint(local, "http://localhost:11434/v1", page)).toBe(
      `${local.baseUrlExamples} ${localNetworkNote("http://localhost:11434/v1", page)}`,
    );
    expect(baseUrlHint(local, "https://openrouter.ai/api/v1", page)).toBe(local.baseUrlExamples);
  });
});
