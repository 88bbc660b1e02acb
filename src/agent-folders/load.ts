/**
 * Loading an agent folder: files from any source (a dropped folder, a zip, a JSON bundle, a folder bundled with the
 * site) in, an {@link AgentDefinition} or every problem out. All or nothing: a folder with one problem is refused as
 * a whole, with each problem naming its file (and field and line), so nothing is ever half-loaded.
 *
 * ```
 * my-agent/
 *   agent.yaml               optional manifest (schemas.ts)
 *   AGENTS.md                the agent's instructions
 *   agents/<name>.md         subagents: frontmatter name, description, tools, model; body = system prompt
 *   skills/<name>/SKILL.md   Agent Skills, with any files beside them
 *   files/...                starter files (files/data/a.csv → /data/a.csv)
 *   demos/<name>.json        recorded demos (models/replay/format.ts), replayed with the tools run for real
 * ```
 *
 * Other files at the top (README.md, LICENSE) are kept and ignored; files where the format has a place but not for
 * them (`agents/notes.txt`, `skills/README.md`, `agent.yml`) are refused, since the author meant something by them.
 */
import type { z } from "zod";
import { ok, type Result } from "../core/result.ts";
import { APP_TOOL_NAMES, BUILTIN_TOOL_NAMES } from "../core/tool-names.ts";
import { harnessProfileKeys, hasHarnessProfile } from "../agent/profiles/registry.ts";
import { normalizeRulePath, type FilesystemPermission } from "../backends/permissions.ts";
import { splitFrontmatter } from "../middleware/frontmatter.ts";
import type { DecisionType } from "../middleware/hitl.ts";
import { skillNameProblem } from "../middleware/skills.ts";
import type { ProviderId } from "../models/catalog.ts";
import { DEMOS_DIR, summarizeDemo } from "../models/replay/format.ts";
import { parseDemo } from "../models/replay/parse.ts";
import { MAX_TOOL_NAME, serverPrefix } from "../tools/mcp-names.ts";
import { parseAgentBundle } from "./bundle.ts";
import type {
  AgentDefinition,
  AgentManifest,
  DemoDefinition,
  AgentToolSelection,
  ModelRef,
  SkillDefinition,
  SubagentDefinition,
} from "./definition.ts";
import { compareCodePoints, INSTRUCTIONS_FILE, MANIFEST_FILE, readAgentFiles, type AgentFileInput, type AgentFiles } from "./file-map.ts";
import { invisibleProblem } from "./invisible.ts";
import { issueProblems, line, withoutRefused } from "./issues.ts";
import { MAX_MANIFEST_BYTES } from "./limits.ts";
import { problem, refuse, type AgentFolderError, type AgentProblem } from "./problems.ts";
import { reservedPathProblem } from "./reserved.ts";
import { manifestSchema, skillSchema, subagentSchema, type ManifestYaml } from "./schemas.ts";
import { findSecrets, keyShape, NO_KEYS } from "./secrets.ts";
import { parseLocatedYaml, type LocatedYaml } from "./yaml.ts";
import { unzipAgent } from "./zip.ts";

/** Where an agent's files come from: a file map (a dropped or bundled folder), a zip, or a JSON bundle. */
export type AgentSource = { files: AgentFileInput } | { zip: Uint8Array } | { bundle: string | Uint8Array };

/** Subagent files, skill folders and starter files live under these top-level folders. */
const SUBAGENTS_DIR = "agents/";
export const SKILLS_FOLDER = "skills/";
const STARTER_DIR = "files/";
/** Where a thread gets the folder's skills (reserved.ts). */
export { AGENT_SKILLS_DIR } from "./reserved.ts";

/** Names an author may have meant for agent.yaml or AGENTS.md. */
const MISNAMED: Record<string, string> = {
  "agent.yml": MANIFEST_FILE,
  "agent.json": MANIFEST_FILE,
  "agents.yaml": MANIFEST_FILE,
  "agents.yml": MANIFEST_FILE,
  "agent.md": INSTRUCTIONS_FILE,
};

const utf8 = new TextDecoder("utf-8", { fatal: true });
const known = new Set([...BUILTIN_TOOL_NAMES, ...APP_TOOL_NAMES]);

/**
 * Loads an agent from any source: the files are checked and normalized ({@link readAgentFiles}; a zip's and a
 * bundle's entries first by their own readers), then read as an agent folder ({@link agentFromFiles}). Never throws.
 */
export function loadAgent(source: AgentSource): Result<AgentDefinition, AgentFolderError> {
  const files =
    "zip" in source ? unzipAgent(source.zip) : "bundle" in source ? parseAgentBundle(source.bundle) : readAgentFiles(source.files);
  return files.ok ? agentFromFiles(files.value) : files;
}

/** Problems found while reading one folder, and the helpers every part shares. */
class Reading {
  readonly problems: AgentProblem[] = [];
  /** The namespaces of agent.yaml's `mcp_servers` (`docs` → `docs__<tool>`), once the manifest is read. */
  mcpPrefixes: ReadonlySet<string> = new Set();
  constructor(readonly files: AgentFiles) {}

  /** A built-in tool's name, or one of an MCP server's tools this agent declares (`<server>__<tool>`, as the app names them). */
  isTool(name: string): boolean {
    if (known.has(name)) return true;
    if (name.length > MAX_TOOL_NAME) return false;
    return [...this.mcpPrefixes].some((prefix) => name.startsWith(`${prefix}__`) && /^[A-Za-z0-9_-]+$/.test(name.slice(prefix.length + 2)));
  }

  text(file: string): string | undefined {
    try {
      return utf8.decode(this.files.get(file)!).replace(/^\uFEFF/, "");
    } catch {
      this.problems.push(problem("invalid_utf8", "not UTF-8 text (save it as UTF-8)", { file }));
      return undefined;
    }
  }

  /** Reports every line of Markdown `body` (starting at file line `firstLine`) holding something shaped like a key. */
  keys(file: string, body: string, firstLine = 1): void {
    body.split(/\r?\n/).forEach((text, i) => {
      const shape = keyShape(text);
      if (shape) this.problems.push(problem("secret", `${shape}; ${NO_KEYS}`, { file, line: firstLine + i }));
    });
  }

  /**
   * Parses YAML, reporting secrets, names holding invisible characters (`names` picks them from the raw data) and
   * shape problems; undefined when there are any, except fields the schema refused: then the data without them (the
   * problems are on record), so the rest is checked in the same pass.
   */
  yaml<S extends z.ZodType>(
    file: string,
    yamlText: string,
    firstLine: number,
    schema: S,
    names: (data: object) => NameAt[] = nameField,
  ): { data: z.output<S>; at: LocatedYaml } | undefined {
    if (yamlText.length > MAX_MANIFEST_BYTES) {
      this.problems.push(problem("too_large", `the YAML is over ${MAX_MANIFEST_BYTES / 1024} KiB`, { file }));
      return undefined;
    }
    const parsed = parseLocatedYaml(yamlText, firstLine);
    if (!parsed.ok) {
      const { message, line: at } = parsed.error;
      this.problems.push(problem("invalid_yaml", `invalid YAML: ${message}`, { file, ...(at === undefined ? {} : { line: at }) }));
      return undefined;
    }
    const at = parsed.value;
    const data = at.data ?? {};
    if (typeof data !== "object" || Array.isArray(data)) {
      this.problems.push(problem("invalid_yaml", "must be a mapping of 'field: value' lines", { file, ...line(at, []) }));
      return undefined;
    }
    const secrets = findSecrets(data);
    for (const s of secrets) this.problems.push(problem("secret", s.what, { file, field: s.path.join("."), ...line(at, s.path) }));
    const invisible = names(data).filter(({ path, value }) => {
      const why = typeof value === "string" ? invisibleProblem(value) : undefined;
      if (why)
        this.problems.push(problem("invisible_character", `the name holds ${why}`, { file, field: path.join("."), ...line(at, path) }));
      return why !== undefined;
    });
    const checked = schema.safeParse(data);
    if (!checked.success) {
      this.problems.push(
        ...issueProblems(
          checked.error.issues,
          file,
          at,
          [...secrets, ...invisible].map((s) => s.path),
        ),
      );
      // The rest is still read, so its own problems (a misspelt tool name) are listed with these, not on the next try;
      // problems are on record, so the folder is refused all the same.
      const rest = withoutRefused(data, checked.error.issues);
      const again = rest && schema.safeParse(rest);
      return again?.success && !secrets.length && !invisible.length ? { data: again.data, at } : undefined;
    }
    return secrets.length || invisible.length ? undefined : { data: checked.data, at };
  }

  /** Tool names no built-in tool has, each reported at `list.<i>` (or at `list` itself when `single`). */
  tools(names: readonly string[], file: string, list: Array<string | number>, at: LocatedYaml, single = false): string[] {
    names.forEach((name, i) => {
      if (this.isTool(name)) return;
      const path = single ? list : [...list, i];
      const mcp = this.mcpPrefixes.size
        ? `; an MCP server's are named ${[...this.mcpPrefixes].map((p) => `${p}__<tool>`).join(", ")}`
        : "; an MCP server's tools (<server>__<tool>) need the server in mcp_servers";
      this.problems.push(
        problem("unknown_tool", `no tool is named '${name}' (the tools are ${[...known].join(", ")}${mcp})`, {
          file,
          field: path.join("."),
          ...line(at, path),
        }),
      );
    });
    return [...names];
  }
}

/** A name in parsed YAML: where it is and what it holds (not yet checked to be text). */
interface NameAt {
  path: Array<string | number>;
  value: unknown;
}

const fieldOf = (data: unknown, key: string | number): unknown =>
  typeof data === "object" && data !== null ? (data as Record<string | number, unknown>)[key] : undefined;

/** A subagent's or skill's `name`. */
const nameField = (data: object): NameAt[] => [{ path: ["name"], value: fieldOf(data, "name") }];

/** agent.yaml's names: the agent's, its MCP servers', its async subagents' (the keys). */
function manifestNames(data: object): NameAt[] {
  const servers = fieldOf(data, "mcp_servers");
  const remote = fieldOf(data, "async_subagents");
  return [
    ...nameField(data),
    ...(Array.isArray(servers) ? servers.map((s, i) => ({ path: ["mcp_servers", i, "name"], value: fieldOf(s, "name") })) : []),
    ...(typeof remote === "object" && remote !== null
      ? Object.keys(remote).map((key) => ({ path: ["async_subagents", key], value: key }))
      : []),
  ];
}

function modelRef(value: NonNullable<ManifestYaml["model"]>): ModelRef {
  if (typeof value === "string") return { model: value };
  return {
    ...(value.provider ? { provider: value.provider as ProviderId } : {}),
    ...(value.model ? { model: value.model } : {}),
    ...(value.base_url ? { baseUrl: value.base_url } : {}),
    ...(value.context_window ? { contextWindow: value.context_window } : {}),
  };
}

function readManifest(r: Reading): AgentManifest | undefined {
  const empty: AgentManifest = { suggestions: [], interruptOn: {}, permissions: [], mcpServers: [], asyncSubagents: [] };
  if (!r.files.has(MANIFEST_FILE)) return empty;
  const file = MANIFEST_FILE;
  const source = r.text(file);
  if (source === undefined) return undefined;
  const parsed = r.yaml(file, source, 1, manifestSchema, manifestNames);
  if (!parsed) return undefined;
  const { data: m, at } = parsed;
  const before = r.problems.length;
  // Tool names below may be the declared servers' (`docs__search`): their namespaces first.
  r.mcpPrefixes = new Set((m.mcp_servers ?? []).map((s) => serverPrefix(s.name)));
  const interruptOn: AgentManifest["interruptOn"] = {};
  for (const [tool, rule] of Object.entries(m.interrupt_on ?? {})) {
    r.tools([tool], file, ["interrupt_on", tool], at, true);
    interruptOn[tool] =
      typeof rule === "boolean"
        ? rule
        : {
            ...(rule.allowed_decisions ? { allowedDecisions: rule.allowed_decisions as DecisionType[] } : {}),
            ...(rule.description ? { description: rule.description } : {}),
          };
  }
  const permissions: FilesystemPermission[] = (m.permissions ?? []).map((rule, i) => ({
    operations: rule.operations,
    mode: rule.mode,
    paths: rule.paths.map((path, j) => {
      try {
        return normalizeRulePath(path);
      } catch (cause) {
        const why =
          cause instanceof Error ? cause.message.replace(/^Permission rule path "[^"]*": /, "").replace(/\.$/, "") : String(cause);
        const field = ["permissions", i, "paths", j];
        r.problems.push(problem("invalid_field", why, { file, field: field.join("."), ...line(at, field) }));
        return path;
      }
    }),
  }));
  let tools: AgentToolSelection | undefined;
  if (m.tools !== undefined) {
    if (Array.isArray(m.tools)) tools = { allowed: r.tools(m.tools, file, ["tools"], at), disallowed: [] };
    else {
      tools = {
        ...(m.tools.allowed ? { allowed: r.tools(m.tools.allowed, file, ["tools", "allowed"], at) } : {}),
        disallowed: r.tools(m.tools.disallowed ?? [], file, ["tools", "disallowed"], at),
      };
    }
  }
  const servers = m.mcp_servers ?? [];
  servers.forEach((s, i) => {
    if (servers.findIndex((t) => t.name === s.name) !== i) {
      r.problems.push(
        problem("name_clash", `a second MCP server named '${s.name}'`, {
          file,
          field: `mcp_servers.${i}.name`,
          ...line(at, ["mcp_servers", i]),
        }),
      );
    }
  });
  if (m.harness_profile !== undefined && !hasHarnessProfile(m.harness_profile)) {
    const why = `unknown harness profile '${m.harness_profile}' (registered: ${harnessProfileKeys().join(", ")})`;
    r.problems.push(problem("invalid_field", why, { file, field: "harness_profile", ...line(at, ["harness_profile"]) }));
  }
  if (r.problems.length > before) return undefined;
  return {
    ...(m.name ? { name: m.name } : {}),
    ...(m.description ? { description: m.description } : {}),
    suggestions: m.suggestions ?? [],
    ...(m.model ? { model: modelRef(m.model) } : {}),
    ...(m.sandbox ? { sandbox: m.sandbox } : {}),
    interruptOn,
    permissions,
    ...(tools ? { tools } : {}),
    ...(m.rubric !== undefined ? { rubric: typeof m.rubric === "string" ? { criteria: m.rubric } : rubricOf(m.rubric) } : {}),
    mcpServers: servers.map((s) => ({
      name: s.name,
      url: s.url,
      ...(s.transport ? { transport: s.transport } : {}),
      headers: s.headers ?? [],
    })),
    asyncSubagents: Object.entries(m.async_subagents ?? {}).map(([name, s]) => ({
      name,
      description: s.description,
      url: s.url,
      graphId: s.graph_id,
    })),
    ...(m.harness_profile ? { harnessProfile: m.harness_profile } : {}),
    ...(m.pinned_skills?.length ? { pinnedSkills: [...new Set(m.pinned_skills)] } : {}),
  };
}

function rubricOf(r: { criteria: string; max_iterations?: number | undefined }): { criteria: string; maxIterations?: number } {
  return r.max_iterations === undefined ? { criteria: r.criteria } : { criteria: r.criteria, maxIterations: r.max_iterations };
}

/** A Markdown file's frontmatter, parsed against `schema`, and its body; undefined (problems reported) otherwise. */
function readMarkdown<S extends z.ZodType>(
  r: Reading,
  file: string,
  schema: S,
): { data: z.output<S>; at: LocatedYaml; body: string } | undefined {
  const source = r.text(file);
  if (source === undefined) return undefined;
  const parts = splitFrontmatter(source);
  if (!parts.ok) {
    r.problems.push(problem("invalid_yaml", parts.error, { file, line: 1 }));
    return undefined;
  }
  r.keys(file, parts.value.body, parts.value.bodyLine);
  const parsed = r.yaml(file, parts.value.yaml, parts.value.yamlLine, schema);
  return parsed && { ...parsed, body: parts.value.body.trim() };
}

function readSubagents(r: Reading): SubagentDefinition[] {
  const out: SubagentDefinition[] = [];
  const named = new Map<string, string>();
  for (const file of r.files.keys()) {
    if (!file.startsWith(SUBAGENTS_DIR)) continue;
    const stem = file.slice(SUBAGENTS_DIR.length);
    if (stem.includes("/") || !stem.endsWith(".md")) {
      r.problems.push(problem("misplaced_file", "agents/ holds one Markdown file per subagent (agents/<name>.md), nothing else", { file }));
      continue;
    }
    const read = readMarkdown(r, file, subagentSchema);
    if (!read) continue;
    const { data, at, body } = read;
    const name = data.name ?? stem.slice(0, -3);
    const before = r.problems.length;
    if (data.name === undefined && !/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/.test(name)) {
      r.problems.push(problem("invalid_field", "no 'name', and the file's name is not one (letters, digits, '-' and '_')", { file }));
    }
    const fork = data.mode === "fork";
    if (!body && !fork)
      r.problems.push(problem("missing_field", "the body (the subagent's system prompt, after the frontmatter) is empty", { file }));
    const first = named.get(name);
    if (first) {
      const why = `a second subagent named '${name}' (the first is ${first})`;
      r.problems.push(problem("name_clash", why, { file, field: "name", ...line(at, ["name"]) }));
    } else named.set(name, file);
    const tools = data.tools === undefined ? undefined : r.tools(data.tools, file, ["tools"], at);
    if (r.problems.length > before) continue;
    out.push({
      name,
      description: data.description,
      systemPrompt: body,
      ...(fork ? { mode: "fork" as const } : {}),
      ...(tools ? { tools } : {}),
      ...(data.model !== undefined && data.model !== "inherit" ? { model: modelRef(data.model) } : {}),
      file,
    });
  }
  return out;
}

function readSkills(r: Reading): SkillDefinition[] {
  const folders = new Map<string, string[]>();
  for (const file of r.files.keys()) {
    if (!file.startsWith(SKILLS_FOLDER)) continue;
    const rest = file.slice(SKILLS_FOLDER.length);
    const cut = rest.indexOf("/");
    if (cut < 0) {
      r.problems.push(
        problem("misplaced_file", "skills/ holds one folder per skill (skills/<name>/SKILL.md), no files of its own", { file }),
      );
      continue;
    }
    const folder = rest.slice(0, cut);
    folders.set(folder, [...(folders.get(folder) ?? []), file]);
  }
  const out: SkillDefinition[] = [];
  for (const [folder, files] of folders) {
    const file = `${SKILLS_FOLDER}${folder}/SKILL.md`;
    if (!r.files.has(file)) {
      r.problems.push(
        problem("misplaced_file", `skills/${folder}/ has no SKILL.md (a skill is a folder with a SKILL.md)`, { file: files[0]! }),
      );
      continue;
    }
    const read = readMarkdown(r, file, skillSchema);
    if (!read) continue;
    const { data, at } = read;
    const why = skillNameProblem(data.name, folder);
    if (why) {
      const code = data.name !== folder && !skillNameProblem(data.name, data.name) ? "name_mismatch" : "invalid_field";
      r.problems.push(problem(code, why.replace(/^name /, ""), { file, field: "name", ...line(at, ["name"]) }));
      continue;
    }
    if (data["allowed-tools"] && r.tools(data["allowed-tools"], file, ["allowed-tools"], at).some((t) => !r.isTool(t))) continue;
    out.push({ name: data.name, description: data.description, file, files });
  }
  return out;
}

function readDemos(r: Reading): DemoDefinition[] {
  const out: DemoDefinition[] = [];
  for (const file of r.files.keys()) {
    if (!file.startsWith(DEMOS_DIR)) continue;
    const stem = file.slice(DEMOS_DIR.length);
    if (stem.includes("/") || !stem.endsWith(".json")) {
      r.problems.push(
        problem("misplaced_file", "demos/ holds one JSON file per recorded demo (demos/<name>.json), nothing else", { file }),
      );
      continue;
    }
    const text = r.text(file);
    if (text === undefined) continue;
    const before = r.problems.length;
    // A demo holds what its thread held: a key shown to the model there must not travel with the agent.
    r.keys(file, text);
    const demo = parseDemo(text);
    if (!demo.ok) for (const why of demo.error) r.problems.push(problem("invalid_demo", `not a recorded demo: ${why}`, { file }));
    if (demo.ok && r.problems.length === before) out.push({ file, ...summarizeDemo(demo.value) });
  }
  return out;
}

/** Problems in reading order: folder-wide ones first, then by file (as the folder lists them) and line. */
function sortProblems(problems: AgentProblem[]): AgentProblem[] {
  const key = (p: AgentProblem) => p.file ?? "";
  return problems
    .map((p, i) => ({ p, i }))
    .sort((a, b) => compareCodePoints(key(a.p), key(b.p)) || (a.p.line ?? 0) - (b.p.line ?? 0) || a.i - b.i)
    .map(({ p }) => p);
}

/**
 * Reads checked files as an agent folder: agent.yaml, AGENTS.md, subagents, skills and starter files, validated
 * together. Refused with every problem found (see problems.ts), or a whole {@link AgentDefinition}. Never throws.
 */
export function agentFromFiles(files: AgentFiles): Result<AgentDefinition, AgentFolderError> {
  const r = new Reading(files);
  if (!files.has(INSTRUCTIONS_FILE) && !files.has(MANIFEST_FILE)) {
    const misnamed = [...files.keys()].find((f) => MISNAMED[f.toLowerCase()]);
    const hint = misnamed ? ` ('${misnamed}' is there: name it ${MISNAMED[misnamed.toLowerCase()]})` : "";
    return refuse([
      problem("no_agent", `no ${INSTRUCTIONS_FILE} or ${MANIFEST_FILE} at the folder's top: this is not an agent folder${hint}`),
    ]);
  }
  for (const file of files.keys()) {
    const meant = MISNAMED[file.toLowerCase()];
    if (meant && file !== meant) r.problems.push(problem("misplaced_file", `deeptab reads ${meant}; rename this file`, { file }));
  }
  const manifest = readManifest(r);
  const instructions = files.has(INSTRUCTIONS_FILE) ? r.text(INSTRUCTIONS_FILE) : "";
  if (instructions) r.keys(INSTRUCTIONS_FILE, instructions);
  const subagents = readSubagents(r);
  const skills = readSkills(r);
  (manifest?.pinnedSkills ?? []).forEach((name, i) => {
    if (skills.some((s) => s.name === name)) return;
    const have = skills.length ? `the folder's skills: ${skills.map((s) => s.name).join(", ")}` : "the folder has no skills/";
    r.problems.push(
      problem("invalid_field", `pinned skill '${name}' is not one of the folder's skills (${have})`, {
        file: MANIFEST_FILE,
        field: `pinned_skills.${i}`,
      }),
    );
  });
  const demos = readDemos(r);
  const starterFiles = [...files.keys()]
    .filter((f) => f.startsWith(STARTER_DIR))
    .map((file) => ({ file, path: `/${file.slice(STARTER_DIR.length)}` }));
  // A link agent only adds to its own threads: no starter file in what every thread shares, nor in the thread's
  // skills folder (a skill the review would show only as a file), the harness's, the person's or the shell's.
  for (const { file, path } of starterFiles) {
    const why = reservedPathProblem(path);
    if (why) r.problems.push(problem("reserved_path", why, { file }));
  }
  if (r.problems.length || manifest === undefined || instructions === undefined) return refuse(sortProblems(r.problems));
  return ok({ manifest, instructions: instructions.trim(), subagents, skills, starterFiles, files, ...(demos.length ? { demos } : {}) });
}
