/**
 * The settings' model fields as pure functions over the provider table
 * (models/catalog.ts, through protocol/catalog.ts): what the fields hold for a
 * choice, what a provider switch changes, the choice the fields describe,
 * their problems, and the placeholders and hints they show. The form's state
 * class (form.svelte.ts) calls these; nothing here is reactive.
 */
import {
  BUILTIN_PROFILE_LABELS,
  COMPACT_PROFILE_BELOW,
  LOCAL_SERVER_WINDOW,
  PROVIDERS,
  providerInfo,
  type BuiltinProfileKey,
  type ProviderInfo,
  type WllamaSupport,
} from "../../protocol/catalog.ts";
import type { KeyStatus, ModelChoice, ProviderId, SandboxChoice, ToolProfileChoice } from "../../protocol/settings.ts";
import { checkBaseUrl, parseContextWindow } from "./checks.ts";

const en = (n: number) => n.toLocaleString("en-US");

/** What the model fields hold (text as typed). */
export interface ModelFields {
  provider: ProviderId;
  baseUrl: string;
  model: string;
  /** The context window as typed; empty means the model's default. */
  windowText: string;
}

/**
 * The fields for a choice. A base URL is only ever one the person typed or saved: a required one the choice lacks
 * stays empty, with the example (`defaultBaseUrl`) as its placeholder, because the form asks the base URL for its
 * models and window as soon as it is valid, and a pre-filled example would contact a host nobody chose.
 */
export function fieldsOf(choice: ModelChoice): ModelFields {
  return {
    provider: choice.provider,
    baseUrl: choice.baseUrl ?? "",
    model: choice.model,
    windowText: choice.contextWindow ? String(choice.contextWindow) : "",
  };
}

/**
 * The fields after switching to `next`: its default model (in the tab: the
 * first model on this device), a required base URL kept (else empty, the
 * example only its placeholder: see {@link fieldsOf}), an optional one
 * emptied, the window back to the model's default.
 */
export function switchProvider(fields: ModelFields, next: ProviderId, localModelIds: readonly string[]): ModelFields {
  const info = providerInfo(next);
  return {
    provider: next,
    model: info.runsIn === "tab" ? (localModelIds[0] ?? "") : info.defaultModel,
    baseUrl: info.baseUrl === "required" ? fields.baseUrl : "",
    windowText: "",
  };
}

/** Where the model's requests go, as far as the fields say: provider and base URL (only when one is shown and valid). */
export function endpointOf(fields: ModelFields): ModelChoice {
  const info = providerInfo(fields.provider);
  const base = fields.baseUrl.trim();
  const given = info.baseUrl !== "none" && base !== "" && baseUrlError(info, fields.baseUrl) === null;
  return { provider: fields.provider, model: fields.model.trim(), ...(given ? { baseUrl: base } : {}) };
}

/** The choice the fields describe; the context window only when it differs from the model's default. */
export function choiceOf(fields: ModelFields, defaultWindow: number | undefined): ModelChoice {
  const typed = parseContextWindow(fields.windowText);
  return { ...endpointOf(fields), ...(typed !== undefined && typed !== defaultWindow ? { contextWindow: typed } : {}) };
}

/** `choice` with the thread's "Web search" switch: on only where the provider runs a search of its own (`webSearchTool`). */
export function withWebSearch(choice: ModelChoice, on: boolean): ModelChoice {
  const { webSearch: _was, ...rest } = choice;
  return on && providerInfo(choice.provider).webSearchTool ? { ...rest, webSearch: true } : rest;
}

/** The hint under the "Web search" switch. */
export const WEB_SEARCH_HINT =
  "The provider searches the web on its own servers (no other key); answers cite their sources as links. " +
  "Saved with this thread's model, as new threads' default.";

/** A base URL's problem: a required one must be a URL; an optional one only when given. */
export function baseUrlError(info: ProviderInfo, text: string): string | null {
  if (info.baseUrl === "required" || (info.baseUrl === "optional" && text.trim())) return checkBaseUrl(text);
  return null;
}

export function modelError(info: ProviderInfo, model: string): string | null {
  if (model.trim()) return null;
  return info.runsIn === "tab" ? "Download or choose a model below." : "Enter a model id.";
}

export function baseUrlPlaceholder(info: ProviderInfo): string {
  return info.defaultBaseUrl ?? (info.officialUrl ? `${info.officialUrl} (default)` : "");
}

/** Host names of this device and of private networks (RFC 1918, link-local, IPv6 ULA): what Local Network Access guards. */
const LOCAL_NAME = /^(localhost|.*\.localhost|.*\.local|\[::1\]|\[f[cd][0-9a-f:]*\])$/i;
const LOCAL_IPV4 = /^(127\.\d+\.\d+\.\d+|10\.\d+\.\d+\.\d+|192\.168\.\d+\.\d+|172\.(1[6-9]|2\d|3[01])\.\d+\.\d+|169\.254\.\d+\.\d+)$/;
const isLocalHost = (host: string): boolean => LOCAL_NAME.test(host) || LOCAL_IPV4.test(host);

/**
 * What to say when a page served from the web is pointed at a server on this device or the local network: from
 * Chrome 142, Local Network Access makes the browser ask the person first, and a refusal looks like a network failure.
 * Null when the base URL is not local or the page itself is (a page on localhost asks nothing).
 */
export function localNetworkNote(baseUrl: string, pageHostname: string): string | null {
  let host: string;
  try {
    host = new URL(baseUrl.trim()).hostname;
  } catch {
    return null;
  }
  if (!isLocalHost(host) || isLocalHost(pageHostname)) return null;
  return (
    `${host} is on this device or your local network: Chrome 142 and later first ask whether this site may reach it ` +
    "(Local Network Access). Choose Allow, or every request to it fails as if the server were down."
  );
}

/** The base URL's hint: the provider's examples (or what an optional one means), and the local-network note. */
export function baseUrlHint(info: ProviderInfo, baseUrl = "", pageHostname = ""): string {
  const hint = info.baseUrlExamples ?? "Optional: leave empty for the official API, or give a proxy or compatible endpoint.";
  const note = localNetworkNote(baseUrl, pageHostname);
  return note ? `${hint} ${note}` : hint;
}

export function keyPlaceholder(info: ProviderInfo, status: KeyStatus | undefined): string {
  if (status?.set) return `set${status.remembered ? " (remembered on this device)" : " (this session)"}: type to replace it`;
  return info.keyPlaceholder ?? "paste your key";
}

/** The key's hint: whether one is set, or what happens to the one being typed (`typed`, never shown). */
export function keyHint(info: ProviderInfo, status: KeyStatus | undefined, typed = ""): string {
  const set = typed.trim()
    ? status?.set
      ? "The key you typed replaces the one set when you save."
      : "The key you typed is set when you save."
    : status?.set
      ? "A key is set. It is never shown again."
      : status?.notKept
        ? "No key set: the one used before the reload was for that session only and was not kept."
        : "No key set.";
  return `${set} It is sent only to ${info.label}.`;
}

/** Whether the provider's model list can be asked for: not in the tab, and not without a key the listing needs. */
export function canList(info: ProviderInfo, status: KeyStatus | undefined): boolean {
  return info.runsIn !== "tab" && (info.key !== "required" || status?.set === true);
}

/** What the provider listed (`/v1/models`), or why not; undefined before it answered. */
export type Listing = { ok: true; value: readonly string[] } | { ok: false; error: { message: string } };

/** Model ids for the datalist: the listed ones, else the table's suggestions (a server may list one twice). */
export function suggestionsOf(info: ProviderInfo, listed: Listing | undefined): string[] {
  const ids = listed?.ok ? listed.value : info.suggestions;
  return ids.filter((m, i, all) => all.indexOf(m) === i);
}

/** The model to choose when a server lists exactly one and none is typed; undefined otherwise. */
export function onlyListed(listed: Listing | undefined, model: string): string | undefined {
  if (!listed?.ok || model.trim()) return undefined;
  const ids = listed.value.filter((m, i, all) => all.indexOf(m) === i);
  return ids.length === 1 ? ids[0] : undefined;
}

/** The line under the model id: what the server listed, the problem, why there is no list, or a nudge. */
export function modelHint(info: ProviderInfo, listed: Listing | undefined, problem: string | null, status: KeyStatus | undefined): string {
  if (listed?.ok && info.baseUrl === "required" && listed.value.length) {
    const n = listed.value.length;
    return `${n} model${n === 1 ? "" : "s"} listed by the server: ${problem ? "choose one" : "or type any id"}.`;
  }
  if (problem) return problem;
  if (listed && !listed.ok) return `Could not list this provider's models (${listed.error.message}); type the model id.`;
  if (info.key === "required" && !status?.set) return "Add a key to list this provider's models, or type the model id.";
  return "Pick a suggestion or type any model id.";
}

export function windowPlaceholder(info: ProviderInfo, defaultWindow: number | undefined): string {
  return defaultWindow === undefined && info.serverWindow ? String(LOCAL_SERVER_WINDOW) : "";
}

/** What Settings says when a server did not report its window (the context meter says it in its own words). */
const ASSUMED_WINDOW = `Assumed ${en(LOCAL_SERVER_WINDOW)} tokens — the server did not say.`;

export function windowHint(info: ProviderInfo, defaultWindow: number | undefined): string {
  return [
    info.serverWindow && defaultWindow === undefined ? `${ASSUMED_WINDOW} Enter the model's window if you know it.` : "",
    "Tokens the model can read at once; earlier messages are summarized at 85% of it.",
    info.serverWindow
      ? "The server's window is used where it tells it (vLLM, OpenRouter, llama.cpp's /props, LM Studio, Ollama): " +
        `a number here may lower it, never raise it; without either, ${en(LOCAL_SERVER_WINDOW)} tokens.`
      : "",
    defaultWindow !== undefined ? `This model's default: ${en(defaultWindow)} tokens.` : "",
  ]
    .filter(Boolean)
    .join(" ");
}

/** One option of the Provider select. */
export interface ProviderOption {
  id: ProviderId;
  label: string;
  /** Why it cannot be chosen in this browser, when it cannot. */
  unavailable?: string;
}

/** What this browser offers: Chrome's Prompt API (its model is listed only where it exists) and llama.cpp's needs. */
export interface BrowserAbilities {
  promptApi: boolean;
  tab: WllamaSupport;
}

/**
 * The Provider select's options, in the table's order: the browser's own
 * model only where the page has the Prompt API (or it is the current
 * choice); llama.cpp in the tab listed disabled, with the reason, where the
 * browser cannot run it.
 */
export function providerOptions(current: ProviderId, abilities: BrowserAbilities): ProviderOption[] {
  return PROVIDERS.filter((p) => p.runsIn !== "browser" || abilities.promptApi || p.id === current).map((p) =>
    p.runsIn === "tab" && !abilities.tab.ok
      ? { id: p.id, label: p.label, unavailable: abilities.tab.reason }
      : { id: p.id, label: p.label },
  );
}

/** A choice of a select with the line that explains it. */
export interface Explained {
  label: string;
  hint: string;
}

/** The sandboxes, in the order offered (exhaustive: a new SandboxChoice does not compile until it is here). */
export const SANDBOXES: Readonly<Record<SandboxChoice, Explained>> = {
  shell: { label: "Offline shell (default)", hint: "Bash in this tab over the agent's files: no network, no node or npm." },
  webcontainer: {
    label: "WebContainer (loads from StackBlitz, a third party)",
    hint:
      "Node.js and npm in the tab. Its runtime loads from StackBlitz, a third party; " +
      "the offline shell runs commands until it is ready.",
  },
  auto: { label: "Automatic", hint: "WebContainer when it boots (it loads from StackBlitz, a third party), else the offline shell." },
  none: { label: "None", hint: "The agent cannot run shell commands; Python runs through its python tool." },
};

/** The tool description profiles, in the order offered. */
export const TOOL_PROFILES: Readonly<Record<ToolProfileChoice, Explained>> = {
  auto: {
    label: `Automatic (compact below ${en(COMPACT_PROFILE_BELOW)} tokens)`,
    hint: `Compact descriptions for a window under ${en(COMPACT_PROFILE_BELOW)} tokens, full ones otherwise.`,
  },
  default: { label: "Full", hint: "deepagents' full descriptions whatever the window (more than twice the tokens of the compact ones)." },
  compact: { label: "Compact", hint: "One line per tool and no compact_conversation: leaves a small window room to work." },
};

/** The harness profiles Settings offers: automatic, then every built-in one. */
export type HarnessProfileChoice = "auto" | BuiltinProfileKey;

/** The harness profiles, in the order offered (the built-ins' labels come with the profiles). */
export const HARNESS_PROFILES: Readonly<Record<HarnessProfileChoice, Explained>> = {
  auto: {
    label: "Automatic (by provider and model)",
    hint: "The profile registered for the thread's model, if any (Claude and Codex models have one); an agent may name its own.",
  },
  ...BUILTIN_PROFILE_LABELS,
};

/** A saved profile as the form can show it: one Settings does not offer (a library's own) shows as automatic. */
export function harnessProfileChoice(saved: string | undefined): HarnessProfileChoice {
  return saved !== undefined && Object.hasOwn(HARNESS_PROFILES, saved) ? (saved as HarnessProfileChoice) : "auto";
}

/** A table's entries in its order, typed by its keys. */
export function entriesOf<K extends string, V>(table: Readonly<Record<K, V>>): Array<[K, V]> {
  return Object.entries(table) as Array<[K, V]>;
}
