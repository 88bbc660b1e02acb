/**
 * The settings dialog in Chromium over the real agent worker (its own
 * IndexedDB): fields by their accessible names, inline validation that
 * blocks Save, a key that leaves no trace in the page, "Forget everything"
 * behind a confirmation (the page's LangGraph server key, URL and choice too), per-thread model switching, and the model manager
 * downloading (cancel, resume, delete) from the loopback model server.
 */
import { afterEach, describe, expect, inject, it } from "vitest";
import { page, userEvent } from "vitest/browser";
import { cleanupRendered, render } from "../../testing/render.svelte.ts";
import { serverScope } from "../../testing/server-scope.ts";
import { workerPool } from "../../testing/worker-pool.ts";
import type { AgentClient } from "../../page/client.ts";
import { Chat } from "../chat/chat.svelte.ts";
import SettingsDialog from "./settings-dialog.svelte";
import { RuntimeState } from "../runtime/runtime.svelte.ts";
import { indexedDbServerKeyStore } from "../runtime/server-key-store.ts";
import { SettingsState } from "./settings.svelte.ts";
import { SETTING_CONTROLS } from "./setting-controls.ts";

const KEY = "sk-test-9f8e7d6c5b4a-DO-NOT-SHOW";
const { spawn } = workerPool();
let cleanup: Array<() => void> = [];

afterEach(() => {
  cleanupRendered();
  for (const undo of cleanup.splice(0).reverse()) undo();
  cleanup = [];
});

async function open(runtime?: RuntimeState): Promise<{ client: AgentClient; chat: Chat; settings: SettingsState; closed: () => number }> {
  const client = spawn();
  const chat = new Chat(client, `thread-${crypto.randomUUID()}`);
  await chat.connect();
  const settings = new SettingsState(client);
  await settings.load();
  let closes = 0;
  render(SettingsDialog, { open: true, onClose: () => closes++, settings, chat, ...(runtime ? { runtime } : {}) });
  cleanup.push(() => {
    settings.dispose();
    chat.dispose();
  });
  return { client, chat, settings, closed: () => closes };
}

const field = (name: string) => page.getByLabelText(name, { exact: true });
const save = () => page.getByRole("button", { name: "Save", exact: true });

describe("settings dialog", () => {
  it("a save made while the dialog still loads is not undone when the load's older answer comes", async () => {
    const client = spawn();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let held = false;
    // The first listLocalModels answer (part of load) is held until after the save has answered.
    const slow = new Proxy(client, {
      get(target, prop) {
        if (prop === "listLocalModels" && !held) {
          held = true;
          return async () => {
            const models = await target.listLocalModels();
            await gate;
            return models;
          };
        }
        return Reflect.get(target, prop) as unknown;
      },
    });
    const settings = new SettingsState(slow);
    cleanup.push(() => settings.dispose());
    const loading = settings.load();
    await settings.save({ sandbox: "none" });
    expect(settings.settings?.sandbox).toBe("none");
    expect(settings.sandbox?.choice).toBe("none");
    release();
    await loading;
    expect(settings.settings?.sandbox).toBe("none");
    expect(settings.sandbox?.choice).toBe("none");
  });

  it("names every field and shows the ones the provider needs", async () => {
    await open();
    await expect.element(page.getByRole("dialog", { name: "Settings" })).toBeVisible();
    const provider = page.getByRole("combobox", { name: "Provider", exact: true });
    await expect.element(provider).toHaveValue("demo");
    const labels = [...(provider.element() as HTMLSelectElement).options].map((o) => o.textContent);
    expect(labels).toContain("In this tab (llama.cpp)");
    // Chrome's built-in model only where the page has the Prompt API.
    expect(labels.includes("Chrome built-in model")).toBe("LanguageModel" in window);

    await expect.element(field("Model")).toHaveValue("scripted");
    await expect.element(page.getByRole("spinbutton", { name: "Context window", exact: true })).toBeVisible();
    await expect.element(page.getByRole("combobox", { name: "Sandbox", exact: true })).toHaveValue("shell");
    const sandboxOptions = [...(page.getByRole("combobox", { name: "Sandbox" }).element() as HTMLSelectElement).options].map(
      (o) => o.textContent,
    );
    expect(sandboxOptions).toEqual(["Offline shell (default)", "WebContainer (loads from StackBlitz, a third party)", "Automatic", "None"]);
    await expect.element(page.getByTestId("sandbox-status")).toHaveTextContent(/offline shell/);
    await expect.element(page.getByRole("checkbox", { name: "Ask before running commands" })).toBeChecked();
    // Asking before file changes says it does not cover commands (which can change files too).
    await expect
      .element(page.getByRole("checkbox", { name: /^Ask before changing files/ }))
      .toHaveAccessibleName(/Commands can change files too: only asking before commands covers them/);
    // The demo takes no key (MCP servers, a form of their own below, have a token field of their own).
    expect(document.querySelector('[data-testid="settings-form"] input[type="password"]')).toBeNull();

    await userEvent.selectOptions(provider, "openai");
    const key = field("API key");
    await expect.element(key).toHaveAttribute("type", "password");
    await expect.element(key).toHaveAttribute("autocomplete", "off");
    await expect.element(page.getByRole("checkbox", { name: "Remember this key on this device" })).not.toBeChecked();
    await expect.element(field("Model")).toHaveValue("gpt-4.1-mini");
    // A known model's window comes prefilled.
    await expect.element(page.getByRole("spinbutton", { name: "Context window" })).toHaveValue(1_047_576);
    expect(document.body.textContent).toContain("tokens");

    await userEvent.selectOptions(provider, "openai-compatible");
    // The example server is only a placeholder: the field holds what the person types.
    await expect.element(field("Base URL")).toHaveValue("");
    await expect.element(field("Base URL")).toHaveAttribute("placeholder", "http://localhost:11434/v1");
    await expect.element(field("API key")).toBeVisible();
  });

  it("has a control for every setting, found by the label its row of the table gives", async () => {
    await open();
    await expect.element(page.getByRole("combobox", { name: "Provider", exact: true })).toBeEnabled();
    for (const [key, control] of Object.entries(SETTING_CONTROLS)) {
      const found = field(control.label);
      await expect.element(found, { message: key }).toBeVisible();
      expect(["INPUT", "SELECT", "TEXTAREA"], key).toContain(found.element().tagName);
      await expect.element(found, { message: key }).toBeEnabled();
    }
  });

  it("asks no server the person did not type: the example base URL is never requested", async () => {
    const { client } = await open();
    await userEvent.selectOptions(page.getByRole("combobox", { name: "Provider", exact: true }), "openai-compatible");
    // Longer than the form's debounces (300 ms for the window, 400 ms for the model list): a pre-filled example
    // would have been asked by now. (A wait for nothing to happen can only be a grace period.)
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const server = inject("modelServer");
    await userEvent.fill(field("Base URL"), `${server}/v1`);
    // The typed server is asked for its models (after the form's debounce), so the log is known to be live...
    await expect.poll(async () => (await client.requestLog()).map((e) => e.host)).toContain(new URL(server).host);
    // ...and the example's host, shown before anything was typed, was never contacted.
    expect((await client.requestLog()).map((e) => e.host)).not.toContain("localhost:11434");
  });

  it("shows inline errors for a bad base URL or window and keeps Save disabled until they are fixed", async () => {
    await open();
    await userEvent.selectOptions(page.getByRole("combobox", { name: "Provider" }), "openai-compatible");
    const base = field("Base URL");
    await userEvent.fill(base, "localhost:11434");
    await expect.element(base).toHaveAttribute("aria-invalid", "true");
    await expect.element(page.getByText("Enter a full http:// or https:// URL", { exact: false })).toBeVisible();
    await expect.element(save()).toBeDisabled();
    await userEvent.fill(base, "http://127.0.0.1:9/v1");
    await expect.element(base).not.toHaveAttribute("aria-invalid");
    await userEvent.fill(field("Model"), "qwen2.5:7b");
    await expect.element(save()).toBeEnabled();

    const window = page.getByRole("spinbutton", { name: "Context window" });
    await userEvent.fill(window, "100");
    await expect.element(page.getByText("at least 512 tokens", { exact: false })).toBeVisible();
    await expect.element(save()).toBeDisabled();
    await userEvent.fill(window, "32768");
    await expect.element(save()).toBeEnabled();
  });

  it("saves a key without leaving it in the page, and switches this thread's model", async () => {
    const { client, chat } = await open();
    await userEvent.selectOptions(page.getByRole("combobox", { name: "Provider" }), "openai");
    const key = field("API key");
    await userEvent.fill(key, KEY);
    await userEvent.click(save());
    await expect.element(page.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();

    expect((await client.keyStatus()).find((k) => k.provider === "openai")).toEqual({
      provider: "openai",
      set: true,
      remembered: false,
      origin: "https://api.openai.com",
    });
    await expect.element(key).toHaveValue("");
    await expect.element(key).toHaveAttribute("placeholder", expect.stringMatching(/^set/));
    expect(document.body.innerHTML).not.toContain(KEY);
    for (const input of document.querySelectorAll("input")) expect(input.value).not.toContain(KEY);
    expect(JSON.stringify((await client.getThread(chat.threadId)).model)).not.toContain(KEY);

    expect(chat.view?.model).toMatchObject({ provider: "openai", model: "gpt-4.1-mini" });
    expect((await client.getSettings()).defaultModel).toMatchObject({ provider: "openai", model: "gpt-4.1-mini" });
    // The window was the model's default: the choice follows the default instead of pinning it.
    expect(chat.view?.model.contextWindow).toBeUndefined();
  });

  it("asks before forgetting everything, then forgets keys and settings", async () => {
    const { client } = await open();
    await client.setKey("anthropic", KEY, true);
    await client.updateSettings({ approveExecute: false });
    await userEvent.click(page.getByRole("button", { name: "Forget everything" }));
    const confirm = page.getByRole("dialog", { name: "Forget everything?" });
    await expect.element(confirm).toBeVisible();
    const text = confirm.element().textContent ?? "";
    for (const word of ["keys", "threads", "files", "memories", "settings", "Downloaded models stay"]) expect(text).toContain(word);

    await userEvent.click(confirm.getByRole("button", { name: "Cancel" }));
    await expect.element(confirm).not.toBeInTheDocument();
    expect((await client.keyStatus()).find((k) => k.provider === "anthropic")?.set).toBe(true);

    await userEvent.click(page.getByRole("button", { name: "Forget everything" }));
    await userEvent.click(page.getByRole("dialog", { name: "Forget everything?" }).getByRole("button", { name: "Forget everything" }));
    await expect.element(page.getByRole("status").filter({ hasText: "Everything was forgotten" })).toBeVisible();
    expect((await client.keyStatus()).every((k) => !k.set)).toBe(true);
    expect((await client.getSettings()).approveExecute).toBe(true);
    await expect.element(page.getByRole("checkbox", { name: "Ask before running commands" })).toBeChecked();
  });

  it("Runtime: the server's hint shows commands as code (no literal backticks), its fields spaced like the form's", async () => {
    const runtime = new RuntimeState(() => undefined);
    await open(runtime);
    await userEvent.click(page.getByRole("radio", { name: /^LangGraph server/ }));
    const url = page.getByTestId("runtime-form").getByLabelText("Server URL", { exact: true }).element() as HTMLInputElement;
    const hint = document.getElementById(url.getAttribute("aria-describedby")!.split(" ")[0]!)!;
    expect(hint.textContent).not.toContain("`");
    expect([...hint.querySelectorAll("code")].map((c) => c.textContent)).toEqual([
      "npm run serve",
      "npx @langchain/langgraph-cli dev",
      "http.cors.allow_origins",
      "langgraph.json",
    ]);
    const fieldset = url.closest("fieldset")!;
    expect(parseFloat(getComputedStyle(fieldset).rowGap)).toBeGreaterThanOrEqual(8);
    expect(url.getBoundingClientRect().width).toBeGreaterThan(fieldset.getBoundingClientRect().width * 0.8);
  });

  it("Forget everything also forgets a remembered LangGraph server key, its URL and the runtime choice", async () => {
    const SERVER_KEY = "lg-forget-me-3e2d1c0b9a";
    const server = serverScope(inject("providerServer"));
    // The page chose a server earlier; the key is remembered (the server's answer does not matter for that).
    localStorage.setItem("deeptab:runtime", JSON.stringify({ kind: "server", url: server.root }));
    cleanup.push(() => localStorage.removeItem("deeptab:runtime"));
    const runtime = new RuntimeState(() => undefined);
    await runtime.connect(server.root, { key: SERVER_KEY, remember: true });
    await runtime.saved;
    expect(await indexedDbServerKeyStore().get()).toEqual({ key: SERVER_KEY, origin: new URL(server.root).origin });

    await open(runtime);
    await expect.element(page.getByRole("radio", { name: /^LangGraph server/ })).toBeChecked();
    await userEvent.click(page.getByRole("button", { name: "Forget everything" }));
    await userEvent.click(page.getByRole("dialog", { name: "Forget everything?" }).getByRole("button", { name: "Forget everything" }));
    await expect.element(page.getByRole("status").filter({ hasText: "Everything was forgotten" })).toBeVisible();

    expect(await indexedDbServerKeyStore().get()).toBeUndefined();
    expect(localStorage.getItem("deeptab:runtime")).toBeNull();
    expect(JSON.stringify({ ...localStorage })).not.toContain(SERVER_KEY);
    expect({ kind: runtime.kind, url: runtime.url, keySet: runtime.keySet, remembered: runtime.remembered }).toEqual({
      kind: "tab",
      url: "",
      keySet: false,
      remembered: false,
    });
    await expect.element(page.getByRole("radio", { name: /^This tab/ })).toBeChecked();
    // A new page: no key, no server.
    const fresh = new RuntimeState(() => undefined);
    await fresh.restore();
    expect({ kind: fresh.kind, url: fresh.url, keySet: fresh.keySet, remembered: fresh.remembered }).toEqual({
      kind: "tab",
      url: "",
      keySet: false,
      remembered: false,
    });
  });

  it("opened while the settings load, it fills once they are known and a slower load never undoes a choice", async () => {
    const real = spawn();
    // The dialog's own load answers 400 ms after the app's: the race a person (or CI) can hit.
    let calls = 0;
    let answered = () => undefined as void;
    const slowAnswered = new Promise<void>((resolve) => (answered = resolve));
    const client = new Proxy(real, {
      get(target, prop, receiver) {
        if (prop !== "getSettings") return Reflect.get(target, prop, receiver) as unknown;
        return async () => {
          const n = ++calls;
          const value = await target.getSettings();
          if (n === 2) {
            await new Promise((resolve) => setTimeout(resolve, 400));
            setTimeout(answered, 0);
          }
          return value;
        };
      },
    });
    const chat = new Chat(client, `thread-${crypto.randomUUID()}`);
    await chat.connect();
    const settings = new SettingsState(client);
    const appLoad = settings.load();
    render(SettingsDialog, { open: true, onClose: () => undefined, settings, chat });
    cleanup.push(() => {
      settings.dispose();
      chat.dispose();
    });
    const provider = page.getByRole("combobox", { name: "Provider", exact: true });
    await expect.element(provider).toBeDisabled();
    await appLoad;
    await expect.element(provider).toBeEnabled();
    // Filled and focused as soon as the settings are known, not when the dialog's own (slow) load answers.
    expect(document.activeElement).toBe(provider.element());
    await userEvent.selectOptions(provider, "openai-compatible");
    await expect.element(field("Base URL")).toBeVisible();
    await slowAnswered;
    await new Promise((resolve) => setTimeout(resolve, 50));
    await expect.element(provider).toHaveValue("openai-compatible");
    await expect.element(field("Base URL")).toBeVisible();
  });

  it("works with the keyboard alone: focus starts on Provider, Enter saves", async () => {
    const { chat } = await open();
    const provider = page.getByRole("combobox", { name: "Provider" }).element();
    expect(document.activeElement).toBe(provider);
    await userEvent.keyboard("{Tab}");
    expect(document.activeElement).toBe(field("Model").element());
    await userEvent.keyboard("{Control>}a{/Control}scripted-2{Enter}");
    await expect.element(page.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();
    expect(chat.view?.model).toMatchObject({ provider: "demo", model: "scripted-2" });
  });

  it("fills a 360 px screen without sideways scrolling, in light and dark", async () => {
    const before = { width: window.innerWidth, height: window.innerHeight };
    await page.viewport(360, 640);
    try {
      await open();
      await userEvent.selectOptions(page.getByRole("combobox", { name: "Provider" }), "wllama");
      await userEvent.click(page.getByText("Request log", { exact: true }));
      const dialog = page.getByRole("dialog", { name: "Settings" }).element() as HTMLDialogElement;
      await expect.poll(() => Math.round(dialog.getBoundingClientRect().width)).toBe(360);
      expect(dialog.scrollWidth).toBeLessThanOrEqual(dialog.clientWidth);
      for (const el of dialog.querySelectorAll("input, select, button")) expect(el.getBoundingClientRect().right).toBeLessThanOrEqual(360);

      const input = field("GGUF URL").element();
      document.documentElement.setAttribute("data-theme", "dark");
      expect(getComputedStyle(input).backgroundColor).toBe("rgb(13, 17, 23)");
      expect(getComputedStyle(input).color).toBe("rgb(230, 237, 243)");
      document.documentElement.setAttribute("data-theme", "light");
      expect(getComputedStyle(input).backgroundColor).toBe("rgb(255, 255, 255)");
    } finally {
      document.documentElement.removeAttribute("data-theme");
      await page.viewport(before.width, before.height);
    }
  });

  it("lists provider requests in the request log", async () => {
    const { client } = await open();
    await client.listProviderModels({ provider: "openai-compatible", model: "", baseUrl: `${inject("modelServer")}/v1` });
    await userEvent.click(page.getByText("Request log", { exact: true }));
    const log = page.getByTestId("request-log");
    // Exact names: the host cell holds a random port, which may contain "404" (it did: 127.0.0.1:40493).
    await expect.element(log.getByRole("cell", { name: "/v1/models", exact: true })).toBeVisible();
    await expect.element(log.getByRole("cell", { name: "GET", exact: true })).toBeVisible();
    await expect.element(log.getByRole("cell", { name: "404", exact: true })).toBeVisible();
  });

  it("offers llama.cpp in the tab where the browser can run it, else lists it disabled with the reason", async () => {
    await open();
    const provider = page.getByRole("combobox", { name: "Provider", exact: true });
    const option = () => [...(provider.element() as HTMLSelectElement).options].find((o) => o.value === "wllama")!;
    expect(option().disabled).toBe(false);
    expect(page.getByTestId("tab-model-support").query()).toBeNull();
    // Close the first dialog before opening the second: both would name a "Provider" field.
    cleanupRendered();
    for (const undo of cleanup.splice(0).reverse()) undo();

    // This Chromium has JSPI: take it away, as Safari and Firefox (by default) lack it.
    const suspending = Object.getOwnPropertyDescriptor(WebAssembly, "Suspending")!;
    Reflect.deleteProperty(WebAssembly, "Suspending");
    cleanup.push(() => Object.defineProperty(WebAssembly, "Suspending", suspending));
    await open();
    expect(option().disabled).toBe(true);
    expect(option().textContent).toBe("In this tab (llama.cpp): not available in this browser");
    const reason = page.getByTestId("tab-model-support");
    await expect
      .element(reason)
      .toHaveTextContent(
        "In this tab (llama.cpp) is not available: " +
          "llama.cpp in the tab needs WebAssembly JSPI (JavaScript Promise Integration), which this browser does not have. " +
          "Chrome or Edge 137 or later has everything it needs.",
      );
    await expect.element(provider).toHaveAccessibleDescription(expect.stringContaining("needs WebAssembly JSPI"));
    // Every other provider can still be chosen.
    await userEvent.selectOptions(provider, "openai-compatible");
    await expect.element(field("Base URL")).toBeVisible();
  });

  it("chooses the tool descriptions (automatic, full, compact) and saves the choice", async () => {
    const { client } = await open();
    const tools = page.getByRole("combobox", { name: "Tool descriptions", exact: true });
    await expect.element(tools).toHaveValue("auto");
    expect([...(tools.element() as HTMLSelectElement).options].map((o) => o.textContent)).toEqual([
      "Automatic (compact below 16,384 tokens)",
      "Full",
      "Compact",
    ]);
    await expect
      .element(tools)
      .toHaveAccessibleDescription(expect.stringContaining("Compact descriptions for a window under 16,384 tokens"));
    await userEvent.selectOptions(tools, "compact");
    await expect.element(tools).toHaveAccessibleDescription(expect.stringContaining("One line per tool and no compact_conversation"));
    await userEvent.click(save());
    await expect.element(page.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();
    expect((await client.getSettings()).toolProfile).toBe("compact");
  });

  it("chooses the harness profile (automatic or a built-in one) and saves the choice", async () => {
    const { client } = await open();
    const profile = page.getByRole("combobox", { name: "Harness profile", exact: true });
    await expect.element(profile).toHaveValue("auto");
    const labels = [...(profile.element() as HTMLSelectElement).options].map((o) => o.textContent);
    expect(labels[0]).toBe("Automatic (by provider and model)");
    expect(labels).toEqual(expect.arrayContaining(["Claude Sonnet 4.6", "OpenAI Codex (GPT-5.3)", "Compact"]));
    await userEvent.selectOptions(profile, "openai:gpt-5.3-codex");
    await expect.element(profile).toHaveAccessibleDescription(expect.stringContaining("deepagentsjs' Codex profile"));
    await userEvent.click(save());
    await expect.element(page.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();
    expect((await client.getSettings()).harnessProfile).toBe("openai:gpt-5.3-codex");
  });

  it("chooses the one model a server lists, so Save is ready; the key hint follows a typed key", async () => {
    await open();
    await userEvent.selectOptions(page.getByRole("combobox", { name: "Provider" }), "openai-compatible");
    await expect.element(field("Model")).toHaveValue("");
    await expect.element(save()).toBeDisabled();
    await userEvent.fill(field("Base URL"), `${inject("llamaServer")}/v1`);
    await expect.element(field("Model")).toHaveValue("qwen.gguf");
    await expect.element(save()).toBeEnabled();
    const key = field("API key");
    await expect.element(key).toHaveAccessibleDescription(expect.stringContaining("No key set."));
    await userEvent.fill(key, KEY);
    await expect.element(key).toHaveAccessibleDescription(expect.stringContaining("The key you typed is set when you save."));
    expect(document.body.textContent).not.toContain(KEY);
  });

  it("takes a local server's loaded context as the window and says a setting may only lower it", async () => {
    await open();
    await userEvent.selectOptions(page.getByRole("combobox", { name: "Provider" }), "openai-compatible");
    await userEvent.fill(field("Base URL"), `${inject("llamaServer")}/v1`);
    await userEvent.fill(field("Model"), "qwen");
    const window = page.getByRole("spinbutton", { name: "Context window" });
    // llama.cpp's /props says 4,096 (its n_ctx_train of 32,768 is the family maximum, never used).
    await expect.element(window).toHaveValue(4_096);
    await expect.element(window).toHaveAccessibleDescription(expect.stringContaining("a number here may lower it, never raise it"));
    await expect.element(window).toHaveAccessibleDescription(expect.stringContaining("This model's default: 4,096 tokens."));
  });
});

describe("model manager", () => {
  it("recommends models with sizes and downloads nothing until asked", async () => {
    const { client } = await open();
    await userEvent.selectOptions(page.getByRole("combobox", { name: "Provider" }), "wllama");
    const list = page.getByTestId("recommended-models");
    for (const text of [
      "Qwen2.5-0.5B-Instruct Q4_K_M",
      "≈ 491 MB",
      "Qwen2.5-1.5B-Instruct Q4_K_M",
      "≈ 1.12 GB",
      "Qwen3-1.7B Q4_K_M",
      "≈ 1.11 GB",
    ])
      await expect.element(list.getByText(text, { exact: false })).toBeVisible();
    await expect.element(page.getByRole("button", { name: "Download Qwen2.5-0.5B-Instruct Q4_K_M" })).toBeVisible();
    expect(document.body.textContent).toContain("never uploaded");
    expect(await client.requestLog()).toEqual([]);
  });

  it("validates a GGUF URL, downloads with progress, cancels, resumes, uses and deletes the model", async () => {
    const { client } = await open();
    await userEvent.selectOptions(page.getByRole("combobox", { name: "Provider" }), "wllama");
    const url = field("GGUF URL");
    const go = page.getByRole("button", { name: "Download from URL" });
    await userEvent.fill(url, "https://example.com/model.bin");
    await expect.element(go).toBeDisabled();
    await userEvent.fill(url, "https://example.com/big-00001-of-00003.gguf");
    await expect.element(page.getByText("all 3 files are downloaded", { exact: false })).toBeVisible();

    const source = `${inject("modelServer")}/slow/files/plain.gguf?run=${crypto.randomUUID()}`;
    await userEvent.fill(url, source);
    await userEvent.click(go);
    const bar = page.getByRole("progressbar", { name: "Downloading plain.gguf" });
    await expect.element(bar).toBeVisible();
    // The slow route sends 16 KB every 25 ms (under a second in all): read the figures and cancel at once.
    await expect.element(page.getByTestId("download-progress")).toHaveTextContent(/^\d+(\.\d)? (B|KB) of 482\.9 KB/);
    await userEvent.click(page.getByRole("button", { name: "Cancel download of plain.gguf" }));
    await expect.element(page.getByRole("alert").filter({ hasText: "Cancelled" })).toBeVisible();
    const resume = page.getByRole("button", { name: "Resume download of plain.gguf" });
    await expect.element(resume).toBeVisible();

    await userEvent.click(resume);
    await expect.element(page.getByText("Selected", { exact: true }), { timeout: 10_000 }).toBeVisible();
    const model = page.getByRole("combobox", { name: "Model", exact: true });
    await expect.element(model).toHaveValue(expect.stringMatching(/^plain\.gguf-/));
    const id = (model.element() as HTMLSelectElement).value;
    expect((await client.listLocalModels()).find((m) => m.id === id)).toMatchObject({ complete: true, bytes: 494_464 });
    // A resumed download asks for the rest only (a Range request).
    expect((await client.requestLog()).filter((e) => e.path === "/slow/files/plain.gguf").length).toBeGreaterThanOrEqual(3);

    await userEvent.click(page.getByRole("button", { name: "Delete plain.gguf" }));
    await userEvent.click(page.getByRole("dialog", { name: "Delete plain.gguf?" }).getByRole("button", { name: "Delete" }));
    await expect.element(page.getByRole("button", { name: "Delete plain.gguf" })).not.toBeInTheDocument();
    expect((await client.listLocalModels()).some((m) => m.id === id)).toBe(false);
  });

  it("refuses a model file over 2 GB with the reason and offers no resume", async () => {
    const { client } = await open();
    await userEvent.selectOptions(page.getByRole("combobox", { name: "Provider" }), "wllama");
    await userEvent.fill(field("GGUF URL"), `${inject("modelServer")}/files/huge.gguf`);
    await userEvent.click(page.getByRole("button", { name: "Download from URL" }));
    const alert = page.getByRole("alert").filter({ hasText: "too large" });
    await expect
      .element(alert)
      .toHaveTextContent(
        "A file of this model is too large for the in-tab engine. " +
          "One file of this model is 2.33 GB; the in-tab engine reads files of at most 2 GB. Use a split GGUF",
      );
    await expect.element(page.getByRole("button", { name: "Resume download of huge.gguf" })).not.toBeInTheDocument();
    expect((await client.listLocalModels()).some((m) => m.name === "huge.gguf")).toBe(false);
    expect((await client.requestLog()).filter((e) => e.path === "/files/huge.gguf").map((e) => e.method)).toEqual(["HEAD"]);
  });

  it("uses a dropped .gguf file in place and says it is never uploaded", async () => {
    const { client } = await open();
    await userEvent.selectOptions(page.getByRole("combobox", { name: "Provider" }), "wllama");
    const input = field("Use a .gguf file from this device");
    await userEvent.upload(input, new File([new Uint8Array(1024)], "mine.gguf"));
    await expect.element(page.getByRole("combobox", { name: "Model", exact: true })).toHaveValue("file:mine.gguf");
    await expect.element(page.getByText("your file, this session only")).toBeVisible();
    await userEvent.upload(input, new File(["x"], "notes.txt"));
    await expect.element(page.getByRole("alert").filter({ hasText: ".gguf" })).toBeVisible();
    expect(await client.requestLog()).toEqual([]);
  });
});
