/**
 * Settings and API keys, in the worker.
 *
 * - Settings (default model, sandbox, approvals, tool descriptions, Python packages) persist in the IndexedDB
 *   store under ["settings"] (memory only without IndexedDB).
 * - Keys live in this worker's memory for the session. Only when the user
 *   asks to remember one is it also written to the store under ["keys"];
 *   a key for the session only leaves a mark there instead (no key, only
 *   that there was one), so after a reload a run can say that the key was
 *   not kept and ask for it, rather than send a request without it;
 *   keys never enter graph state, checkpoints, thread exports, the request
 *   log or error messages (the worker's `redact`, app.ts, hides `secrets()` in any text that leaves).
 * - A key is bound to the origin of the endpoint it was entered with (models/key-endpoint.ts): the base URL the
 *   person's Settings give for that provider when the key is set, or the provider's official URL. `key(provider,
 *   baseUrl)` gives it only for a request to that origin: a model an agent names on another host gets none. A key
 *   remembered before keys were bound is bound on load to the endpoint the stored Settings give.
 * - No call returns a key: the page learns only whether one is set, and for which origin.
 */
import type { BaseStore } from "@langchain/langgraph/web";
import { hasHarnessProfile } from "../../agent/profiles/registry.ts";
import { SANDBOX_KINDS } from "../../agent/sandbox-kinds.ts";
import { safeHttpUrl } from "../../core/http-url.ts";
import { isProviderId, KEY_PROVIDERS } from "../../models/catalog.ts";
import { endpointOrigin, keyForEndpoint } from "../../models/key-endpoint.ts";
import type { KeyStatus, ModelChoice, ProviderId, SandboxChoice, Settings, ToolProfileChoice } from "../../protocol/settings.ts";

const SETTINGS_NS = ["settings"];
const KEYS_NS = ["keys"];
const SANDBOXES: readonly SandboxChoice[] = ["auto", ...SANDBOX_KINDS];
const TOOL_PROFILES: readonly ToolProfileChoice[] = ["auto", "default", "compact"];

/** One setting: its default, and the check of a stored or page-sent value (undefined: invalid, the fallback applies). */
interface SettingSpec<T> {
  default: T;
  check(value: unknown): T | undefined;
}

/**
 * The settings, one spec each: a field of `Settings` (protocol/settings.ts, where each is documented) without a spec here
 * does not compile, and the defaults and the sanitizing below derive from it. The page's control of each is a row
 * of ui/settings/setting-controls.ts, which does not compile without one either.
 */
export const SETTING_SPECS: { readonly [K in keyof Settings]: SettingSpec<Settings[K]> } = {
  defaultModel: { default: { provider: "demo", model: "scripted" }, check: validChoice },
  // WebContainer loads its runtime from StackBlitz (a third party): opt-in, not the default.
  sandbox: { default: "shell", check: (v) => oneOf(SANDBOXES, v) },
  approveExecute: { default: true, check: boolean },
  approveWrites: { default: false, check: boolean },
  toolProfile: { default: "auto", check: (v) => oneOf(TOOL_PROFILES, v) },
  harnessProfile: { default: "auto", check: validProfile },
  // Pyodide's CDN is a third party: packages load only once the person switches them on.
  pythonPackages: { default: "", check: validSource },
};

const SETTING_KEYS = Object.keys(SETTING_SPECS) as ReadonlyArray<keyof Settings>;

/** A Settings with each field from `value` (one call per setting). */
function eachSetting(value: <K extends keyof Settings>(key: K) => Settings[K]): Settings {
  const out: Partial<Record<keyof Settings, unknown>> = {};
  for (const key of SETTING_KEYS) out[key] = value(key);
  return out as Settings;
}

export const DEFAULT_SETTINGS: Settings = eachSetting((key) => SETTING_SPECS[key].default);

export interface SettingsService {
  get(): Promise<Settings>;
  update(patch: Partial<Settings>): Promise<Settings>;
  /**
   * Sets `provider`'s key, bound to the origin of `baseUrl` (unset: the base URL Settings give for that provider,
   * else its official URL).
   */
  setKey(provider: ProviderId, key: string, remember: boolean, baseUrl?: string): Promise<KeyStatus>;
  forgetKey(provider: ProviderId): Promise<KeyStatus>;
  keyStatus(): Promise<KeyStatus[]>;
  /**
   * The key for a request to `provider` at `baseUrl` (unset: its official URL), only when that is the origin the key
   * was entered for; otherwise undefined (worker-internal: never sent to the page).
   */
  key(provider: ProviderId, baseUrl?: string): Promise<string | undefined>;
  /** The origin `provider`'s key is bound to, when one is set. */
  keyOrigin(provider: ProviderId): Promise<string | undefined>;
  /** True when a key for `provider` was set for an earlier session only, and this worker has none. */
  keyNotKept(provider: ProviderId): Promise<boolean>;
  /** The keys this worker holds, for the worker's one list of secrets to hide (app.ts `secrets`, `redact`). */
  secrets(): string[];
  /** Forgets every key and setting (memory and store). */
  clear(): Promise<void>;
}

function validChoice(value: unknown): ModelChoice | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (!isProviderId(v.provider) || typeof v.model !== "string") return undefined;
  const choice: ModelChoice = { provider: v.provider, model: v.model.slice(0, 200) };
  if (typeof v.baseUrl === "string" && v.baseUrl) choice.baseUrl = v.baseUrl.slice(0, 500);
  if (typeof v.contextWindow === "number" && Number.isInteger(v.contextWindow) && v.contextWindow >= 512)
    choice.contextWindow = v.contextWindow;
  if (v.webSearch === true) choice.webSearch = true;
  return choice;
}

/** Settings from stored or page-sent data: anything invalid falls back to `base`'s value (the defaults). */
export function sanitizeSettings(value: unknown, base: Settings = DEFAULT_SETTINGS): Settings {
  const v = typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
  return eachSetting((key) => SETTING_SPECS[key].check(v[key]) ?? base[key]);
}

function boolean(value: unknown): boolean | undefined {
  return typeof value === "boolean" ? value : undefined;
}

function oneOf<T extends string>(allowed: readonly T[], value: unknown): T | undefined {
  return allowed.find((item) => item === value);
}

/** "" (off) or an http(s) URL of at most 500 characters; anything else is undefined. */
function validSource(value: unknown): string | undefined {
  if (value === "") return "";
  return typeof value === "string" && value.length <= 500 ? safeHttpUrl(value) : undefined;
}

/** `auto` or a registered harness profile's key; anything else (a profile no longer registered) is undefined. */
function validProfile(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  return value === "auto" || (value.length <= 200 && hasHarnessProfile(value)) ? value : undefined;
}

export { validChoice as sanitizeModelChoice };

/** A key and the origin it may be sent to (undefined: none, e.g. an OpenAI-compatible key set without a base URL). */
interface BoundKey {
  key: string;
  origin: string | undefined;
}

export function createSettingsService(store: BaseStore | undefined): SettingsService {
  const keys = new Map<ProviderId, BoundKey>();
  const remembered = new Set<ProviderId>();
  /** Providers whose key was for a session only (the store's mark): gone once that worker went. */
  const sessionOnly = new Set<ProviderId>();
  let settings: Settings | undefined;
  /** The origin a key for `provider` set now is bound to: the base URL the Settings give for it, or its official URL. */
  const enteredFor = async (provider: ProviderId, baseUrl?: string) => {
    if (baseUrl) return endpointOrigin(provider, baseUrl);
    const { defaultModel } = await get();
    return endpointOrigin(provider, defaultModel.provider === provider ? defaultModel.baseUrl : undefined);
  };
  const loaded = (async () => {
    if (!store) return;
    for (const item of await store.search(KEYS_NS, { limit: 100 })) {
      const provider = item.key;
      if (!isProviderId(provider)) continue;
      const { key, session, origin } = item.value as { key?: unknown; session?: unknown; origin?: unknown };
      if (typeof key === "string" && key) {
        if (typeof origin === "string") keys.set(provider, { key, origin });
        else {
          // Remembered before keys were bound: bound now to the endpoint the stored Settings give, and stored so.
          const bound = { key, origin: await enteredFor(provider) };
          keys.set(provider, bound);
          await store.put(KEYS_NS, provider, bound);
        }
        remembered.add(provider);
      } else if (session === true) sessionOnly.add(provider);
    }
  })().catch(() => undefined);

  const notKept = (provider: ProviderId) => sessionOnly.has(provider) && !keys.has(provider);
  const status = (provider: ProviderId): KeyStatus => ({
    provider,
    set: keys.has(provider),
    remembered: remembered.has(provider),
    ...(keys.get(provider)?.origin ? { origin: keys.get(provider)!.origin! } : {}),
    ...(notKept(provider) ? { notKept: true } : {}),
  });

  async function get(): Promise<Settings> {
    if (settings) return settings;
    const stored = store ? await store.get(SETTINGS_NS, "app").catch(() => null) : null;
    settings = sanitizeSettings(stored?.value);
    return settings;
  }

  return {
    get,
    async update(patch) {
      const next = sanitizeSettings({ ...(await get()), ...patch }, await get());
      settings = next;
      await store?.put(SETTINGS_NS, "app", { ...next });
      return next;
    },
    async setKey(provider, key, remember, baseUrl) {
      await loaded;
      const trimmed = key.trim();
      if (!trimmed) return this.forgetKey(provider);
      const bound = { key: trimmed, origin: await enteredFor(provider, baseUrl) };
      keys.set(provider, bound);
      if (remember && store) {
        await store.put(KEYS_NS, provider, bound);
        remembered.add(provider);
        sessionOnly.delete(provider);
      } else {
        remembered.delete(provider);
        sessionOnly.add(provider);
        // Only the mark that a key was set for this session: never the key.
        await store?.put(KEYS_NS, provider, { session: true });
      }
      return status(provider);
    },
    async forgetKey(provider) {
      await loaded;
      keys.delete(provider);
      remembered.delete(provider);
      sessionOnly.delete(provider);
      await store?.delete(KEYS_NS, provider);
      return status(provider);
    },
    async keyStatus() {
      await loaded;
      return KEY_PROVIDERS.map(status);
    },
    async key(provider, baseUrl) {
      await loaded;
      return keyForEndpoint(keys.get(provider), provider, baseUrl);
    },
    async keyOrigin(provider) {
      await loaded;
      return keys.get(provider)?.origin;
    },
    async keyNotKept(provider) {
      await loaded;
      return notKept(provider);
    },
    secrets: () => [...keys.values()].map((k) => k.key),
    async clear() {
      await loaded;
      for (const provider of new Set([...keys.keys(), ...sessionOnly])) await store?.delete(KEYS_NS, provider);
      keys.clear();
      remembered.clear();
      sessionOnly.clear();
      settings = { ...DEFAULT_SETTINGS };
      await store?.delete(SETTINGS_NS, "app");
    },
  };
}
