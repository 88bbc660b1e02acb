/**
 * What Settings shows for each built-in harness profile: a label and a one-line hint per registry key. Pure data
 * (the page reaches it through protocol/catalog.ts, without the profiles' prompt texts); a test checks it names every
 * built-in key, so a new built-in profile cannot go unlisted.
 */
export const BUILTIN_PROFILE_LABELS = {
  "anthropic:claude-opus-4-7": {
    label: "Claude Opus 4.7",
    hint: "deepagentsjs' Claude guidance (parallel tool calls, grounded answers) with Opus 4.7's: investigate, use subagents.",
  },
  "anthropic:claude-sonnet-4-6": {
    label: "Claude Sonnet 4.6",
    hint: "deepagentsjs' Claude guidance: parallel tool calls, grounded answers.",
  },
  "anthropic:claude-haiku-4-5": {
    label: "Claude Haiku 4.5",
    hint: "deepagentsjs' Claude guidance: parallel tool calls, grounded answers.",
  },
  "openai:gpt-5.1-codex": {
    label: "OpenAI Codex (GPT-5.1)",
    hint: "deepagentsjs' Codex profile: act without preambles, plan tool calls together.",
  },
  "openai:gpt-5.2-codex": {
    label: "OpenAI Codex (GPT-5.2)",
    hint: "deepagentsjs' Codex profile: act without preambles, plan tool calls together.",
  },
  "openai:gpt-5.3-codex": {
    label: "OpenAI Codex (GPT-5.3)",
    hint: "deepagentsjs' Codex profile: act without preambles, plan tool calls together.",
  },
  compact: { label: "Compact", hint: "deeptab's short tool texts and no compact_conversation, whatever the window." },
} as const satisfies Record<string, { label: string; hint: string }>;

/** A built-in profile's key. */
export type BuiltinProfileKey = keyof typeof BUILTIN_PROFILE_LABELS;
