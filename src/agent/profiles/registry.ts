/**
 * The harness profile registry and resolution (deepagentsjs `registerHarnessProfile` / `getHarnessProfile` /
 * `resolveHarnessProfile`): one registry per realm (a global symbol, as upstream), built-ins loaded on first use;
 * registering under a taken key merges over the existing profile; `"provider:model"` resolves to the provider's
 * profile with the model's layered over it (most specific wins).
 */
import { builtinProfiles } from "./builtins/index.ts";
import { createHarnessProfile, EMPTY_HARNESS_PROFILE } from "./create.ts";
import { validateProfileKey } from "./keys.ts";
import { mergeProfiles } from "./merge.ts";
import { isHarnessProfile, type HarnessProfile, type HarnessProfileOptions } from "./types.ts";

const PROFILE_REGISTRY_KEY = Symbol.for("deeptab.harness-profiles.v1");

interface Registry {
  profiles: Map<string, HarnessProfile>;
  builtinKeys: Set<string>;
  builtinsLoaded: boolean;
}

function registry(): Registry {
  const global = globalThis as Record<symbol, unknown>;
  global[PROFILE_REGISTRY_KEY] ??= { profiles: new Map(), builtinKeys: new Set(), builtinsLoaded: false } satisfies Registry;
  const reg = global[PROFILE_REGISTRY_KEY] as Registry;
  if (!reg.builtinsLoaded) {
    reg.builtinsLoaded = true;
    for (const [key, profile] of builtinProfiles()) put(reg, key, profile);
    reg.builtinKeys = new Set(reg.profiles.keys());
  }
  return reg;
}

function put(reg: Registry, key: string, profile: HarnessProfile): void {
  const existing = reg.profiles.get(key);
  reg.profiles.set(key, existing ? mergeProfiles(existing, profile) : profile);
}

/** What `resolveHarnessProfile` looks at: an explicit spec, or the model's provider and name. */
export interface ResolveHarnessProfileOpts {
  /** A key (`"anthropic"`, `"openai:gpt-5.3-codex"`, `"compact"`); when given, hints are ignored. */
  spec?: string;
  /** The model's provider (`"anthropic"`, `"openai"`). */
  providerHint?: string;
  /** The model's name (`"claude-sonnet-4-6"`) or a full `"provider:model"` spec. */
  identifierHint?: string;
}

/**
 * Register a profile under `"provider"` or `"provider:model"`; a key already registered (a built-in included) gets
 * the new profile merged over the old one. A malformed key is an `invalid_option` error.
 */
export function registerHarnessProfile(key: string, profile: HarnessProfile | HarnessProfileOptions): void {
  const valid = validateProfileKey(key);
  put(registry(), valid, isHarnessProfile(profile) ? profile : createHarnessProfile(profile));
}

/** The profile for a spec (`"provider:model"` is the provider's merged with the model's), or undefined. */
export function getHarnessProfile(spec: string): HarnessProfile | undefined {
  const parts = spec.split(":");
  if (parts.length > 2) return undefined;
  const provider = parts.length === 2 ? parts[0] : undefined;
  if (parts.length === 2 && (!parts[0] || !parts[1])) return undefined;
  const { profiles } = registry();
  const exact = profiles.get(spec);
  const base = provider ? profiles.get(provider) : undefined;
  if (exact && base) return mergeProfiles(base, exact);
  return exact ?? base;
}

/** Is there a profile under exactly this spec or its provider? */
export function hasHarnessProfile(spec: string): boolean {
  return getHarnessProfile(spec) !== undefined;
}

/**
 * The profile for an agent: by `spec` when given, else `provider:identifier`, then an identifier that is itself a
 * spec, then the provider alone; {@link EMPTY_HARNESS_PROFILE} when nothing matches.
 */
export function resolveHarnessProfile(opts: ResolveHarnessProfileOpts = {}): HarnessProfile {
  const { spec, providerHint, identifierHint } = opts;
  if (spec !== undefined) return getHarnessProfile(spec) ?? EMPTY_HARNESS_PROFILE;
  if (providerHint && identifierHint && !identifierHint.includes(":")) {
    const profile = getHarnessProfile(`${providerHint}:${identifierHint}`);
    if (profile) return profile;
  }
  if (identifierHint?.includes(":")) {
    const profile = getHarnessProfile(identifierHint);
    if (profile) return profile;
  }
  return (providerHint ? getHarnessProfile(providerHint) : undefined) ?? EMPTY_HARNESS_PROFILE;
}

/** The keys registered, built-ins included, sorted. */
export function harnessProfileKeys(): string[] {
  return [...registry().profiles.keys()].sort();
}

/** Has anything been registered beyond the built-ins? */
export function hasUserRegisteredProfiles(): boolean {
  const reg = registry();
  return [...reg.profiles.keys()].some((key) => !reg.builtinKeys.has(key));
}

/** The system prompt under a profile: its base prompt (or `basePrompt`), then its suffix after a blank line. */
export function applyProfilePrompt(profile: HarnessProfile, basePrompt: string): string {
  const prompt = profile.baseSystemPrompt ?? basePrompt;
  if (profile.systemPromptSuffix === undefined) return prompt;
  return prompt ? `${prompt}\n\n${profile.systemPromptSuffix}` : profile.systemPromptSuffix;
}

/** Forget every registration and reload the built-ins on next use (tests only). */
export function _resetRegistryForTesting(): void {
  const reg = registry();
  reg.profiles.clear();
  reg.builtinKeys = new Set();
  reg.builtinsLoaded = false;
}
