/**
 * The shapes agent.yaml and the frontmatter of subagents and skills must have, as zod schemas over the parsed YAML
 * (field names as the files spell them: snake_case in agent.yaml, as deepagents' `interrupt_on`; Agent Skills'
 * `allowed-tools` in SKILL.md). What zod reports becomes problems naming file, field and line (issues.ts); what
 * needs more than a shape (tool names, permission paths, secrets) is checked by the loader (load.ts).
 */
import { z } from "zod";
import { SANDBOX_KINDS } from "../agent/sandbox-kinds.ts";
import { ALL_DECISIONS } from "../middleware/hitl.ts";
import { MAX_SKILL_DESCRIPTION_LENGTH, MAX_SKILL_NAME_LENGTH } from "../middleware/skills.ts";
import { PROVIDERS } from "../models/catalog.ts";

/** Most starter prompts an agent may suggest. */
const MAX_SUGGESTIONS = 12;
/** A subagent's or MCP server's name: letters, digits, `-` and `_` (it is what the model writes in `task`). */
const AGENT_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

const text = (what: string, max: number) =>
  z
    .string({ error: `must be text (${what})` })
    .trim()
    .min(1, "must not be empty")
    .max(max, `longer than ${max.toLocaleString("en")} characters`);

const providerIds = PROVIDERS.map((p) => p.id).filter((id) => id !== "demo");

const httpUrl = z
  .string({ error: "must be a URL" })
  .refine((url) => URL.canParse(url) && /^https?:$/.test(new URL(url).protocol), "must be an http:// or https:// URL")
  .refine(
    (url) => !URL.canParse(url) || (new URL(url).username === "" && new URL(url).password === ""),
    "must not hold a user name or password (user:secret@…): an agent never carries a key",
  );

/** A suggested model: `model: gpt-4o-mini` or a mapping with provider, base_url and context_window. */
const modelSchema = z.union([
  text("a model name, or a mapping with provider and model", 200),
  z.strictObject({
    provider: z.enum(providerIds as [string, ...string[]], { error: `must be one of ${providerIds.join(", ")}` }).optional(),
    model: text("a model name", 200).optional(),
    base_url: httpUrl.optional(),
    context_window: z.int({ error: "must be a whole number of tokens" }).min(512, "must be at least 512 tokens").max(10_000_000).optional(),
  }),
]);

/** A tool list: YAML list of names or one string of names separated by commas or spaces (Claude Code writes `Read, Grep`). */
const toolListSchema = z.union([
  z.array(z.string({ error: "must be a tool name" }).trim().min(1, "must not be empty")),
  z.string().transform((s) => s.split(/[\s,]+/).filter(Boolean)),
]);

const interruptRule = z.union([
  z.boolean(),
  z.strictObject({
    allowed_decisions: z
      .array(z.enum(ALL_DECISIONS as [string, ...string[]], { error: `must be one of ${ALL_DECISIONS.join(", ")}` }))
      .min(1, "must list at least one decision")
      .optional(),
    description: text("what the person is asked", 2_000).optional(),
  }),
]);

const permission = z.strictObject({
  operations: z.array(z.enum(["read", "write"], { error: "must be read or write" })).min(1, "must list read and/or write"),
  paths: z.array(z.string({ error: "must be a path such as /data/**" })).min(1, "must list at least one path"),
  mode: z.enum(["allow", "deny", "interrupt"], { error: "must be allow, deny or interrupt" }),
});

const mcpServer = z.strictObject({
  name: z.string({ error: "must be text" }).regex(AGENT_NAME, "letters, digits, '-' and '_' only"),
  url: httpUrl,
  transport: z.enum(["http", "sse"], { error: "must be http or sse" }).optional(),
  headers: z.array(z.string().regex(/^[A-Za-z0-9-]+$/, "must be a header name (its value is asked of the person)")).optional(),
});

/**
 * An async subagent (`async_subagents: { researcher: { description, url, graph_id } }`, the shape deepagents' CLI
 * reads from config.toml): a graph on a LangGraph server the agent may start long tasks on. No headers: a key for
 * the server is never part of an agent.
 */
const asyncSubagent = z.strictObject({
  description: text("when the main agent should start a task on it", 2_000),
  url: httpUrl,
  graph_id: text("the graph's name or the assistant's id on the server", 200),
});

/** agent.yaml. Every field optional; unknown fields are refused (a typo would otherwise be silently ignored). */
export const manifestSchema = z.strictObject({
  name: text("the agent's name", 100).optional(),
  description: text("one or two sentences", 1_000).optional(),
  suggestions: z.array(text("a starter prompt", 500)).max(MAX_SUGGESTIONS, `at most ${MAX_SUGGESTIONS} suggestions`).optional(),
  model: modelSchema.optional(),
  sandbox: z.enum(SANDBOX_KINDS, { error: `must be ${SANDBOX_KINDS.join(", ").replace(/, (?=\w+$)/, " or ")}` }).optional(),
  interrupt_on: z.record(z.string(), interruptRule).optional(),
  permissions: z.array(permission).optional(),
  tools: z
    .union([toolListSchema, z.strictObject({ allowed: toolListSchema.optional(), disallowed: toolListSchema.optional() })])
    .optional(),
  mcp_servers: z.array(mcpServer).optional(),
  async_subagents: z.record(z.string().regex(AGENT_NAME, "letters, digits, '-' and '_' only"), asyncSubagent).optional(),
  rubric: z
    .union([
      text("what a finished answer must satisfy", 10_000),
      z.strictObject({
        criteria: text("what a finished answer must satisfy", 10_000),
        max_iterations: z.number({ error: "must be a number" }).int("must be a whole number").min(1).max(10).optional(),
      }),
    ])
    .optional(),
  harness_profile: text("a harness profile's key, e.g. anthropic:claude-sonnet-4-6 or compact", 200).optional(),
  /** Skills of the folder (by name) whose SKILL.md is in every request (Python deepagents 0.7's `pinned_skills`). */
  pinned_skills: z.array(text("a skill's name, as its skills/<name>/ folder", MAX_SKILL_NAME_LENGTH)).optional(),
});
export type ManifestYaml = z.infer<typeof manifestSchema>;

/** A subagent's frontmatter (agents/<name>.md); the body is its system prompt. */
export const subagentSchema = z.strictObject({
  name: z.string({ error: "must be text" }).regex(AGENT_NAME, "letters, digits, '-' and '_' only (the model writes it in task)").optional(),
  description: text("when the main agent should hand work to it", 2_000),
  tools: toolListSchema.optional(),
  model: z.union([z.literal("inherit"), modelSchema]).optional(),
  mode: z
    .enum(["isolated", "handoff", "fork"], {
      error: 'must be "isolated" (the default: it sees only its task; "handoff" is its old name) or "fork" (it sees the conversation)',
    })
    .optional(),
});

/** A SKILL.md's frontmatter, the Agent Skills fields. */
export const skillSchema = z.strictObject({
  name: z.string({ error: "must be text" }).max(MAX_SKILL_NAME_LENGTH, `longer than ${MAX_SKILL_NAME_LENGTH} characters`),
  description: text("what the skill does and when to use it", MAX_SKILL_DESCRIPTION_LENGTH),
  license: z.string().optional(),
  compatibility: z.string().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  "allowed-tools": toolListSchema.optional(),
});
