/**
 * The agents a site ships: every folder under `agents/` at a site's root becomes, at build time, a JSON bundle
 * (bundle.ts) beside one index, served with the page under its base path:
 *
 * ```
 * <base>/agents/index.json        { "format": "deeptab-site-agents", "version": 1, "default": "research",
 *                                   "agents": [{ "folder": "research", "name": …, "hash": …, "bundle": "agents/research.json" }] }
 * <base>/agents/research.json     the folder as a JSON bundle
 * ```
 *
 * Building (`buildSiteAgents`) validates every folder as the app does and refuses the whole set on any problem, each
 * named by folder and file; reading (`parseSiteAgentIndex`) checks the index's shape before the app trusts it.
 * Pure: the Vite plugin and the `deeptab` command read folders from disk and write the results.
 */
import { z } from "zod";
import { SANDBOX_KINDS } from "../agent/sandbox-kinds.ts";
import { ok, type Result } from "../core/result.ts";
import { agentBundle } from "./bundle.ts";
import type { AgentDefinition, AgentManifest, DemoDefinition, ModelRef } from "./definition.ts";
import type { AgentFileInput } from "./file-map.ts";
import { hashAgentFiles } from "./hash.ts";
import { loadAgent } from "./load.ts";
import { problem, refuse, type AgentFolderError, type AgentProblem } from "./problems.ts";

const SITE_AGENTS_FORMAT = "deeptab-site-agents";
const SITE_AGENTS_VERSION = 1;
/** Where the index is, relative to the site's base URL. */
export const SITE_AGENTS_INDEX = "agents/index.json";

/** A site folder's name: what `DEEPTAB_DEFAULT_AGENT` names and the bundle's file is called. */
export const SITE_FOLDER = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** One agent of a site, as the gallery lists it before its bundle is fetched. */
export interface SiteAgentEntry {
  /** Its folder under `agents/`. */
  folder: string;
  /** agent.yaml's `name`, else the folder's. */
  name: string;
  description: string;
  suggestions: string[];
  /** The content hash of its files (hash.ts). */
  hash: string;
  model?: ModelRef;
  sandbox?: AgentManifest["sandbox"];
  /** Its bundle, relative to the site's base URL (`agents/<folder>.json`). */
  bundle: string;
  /** Its recorded demos (their chips show before the bundle is fetched); unset: none. */
  demos?: DemoDefinition[];
}

/** `agents/index.json`. */
export interface SiteAgentIndex {
  format: typeof SITE_AGENTS_FORMAT;
  version: typeof SITE_AGENTS_VERSION;
  /** The folder the page opens on: `DEEPTAB_DEFAULT_AGENT`, or the only agent of the site. */
  default?: string;
  agents: SiteAgentEntry[];
}

/** A site's agents, built: the index and each bundle with its path relative to the base URL. */
export interface SiteAgents {
  index: SiteAgentIndex;
  files: Array<{ path: string; text: string }>;
}

/** One folder of a site: its name under `agents/` and its files (paths relative to it). */
export interface SiteFolder {
  folder: string;
  files: AgentFileInput;
}

/** The name and description an agent is listed with. */
function agentTitle(agent: AgentDefinition, folder: string): { name: string; description: string } {
  return { name: agent.manifest.name ?? folder, description: agent.manifest.description ?? "" };
}

function prefixed(folder: string, problems: readonly AgentProblem[]): AgentProblem[] {
  return problems.map((p) => ({
    ...p,
    message: `agents/${folder}/${p.message}`,
    ...(p.file ? { file: `agents/${folder}/${p.file}` } : {}),
  }));
}

/**
 * Validates and bundles a site's agent folders. `defaultFolder` (DEEPTAB_DEFAULT_AGENT) must be one of them; without
 * it, a site with exactly one agent opens on that one. Any problem in any folder refuses the whole set.
 */
export async function buildSiteAgents(
  folders: readonly SiteFolder[],
  defaultFolder?: string,
): Promise<Result<SiteAgents, AgentFolderError>> {
  const problems: AgentProblem[] = [];
  const entries: SiteAgentEntry[] = [];
  const files: SiteAgents["files"] = [];
  const sorted = [...folders].sort((a, b) => (a.folder < b.folder ? -1 : a.folder > b.folder ? 1 : 0));
  for (const { folder, files: input } of sorted) {
    if (!SITE_FOLDER.test(folder)) {
      problems.push(
        problem("unsafe_path", `'${folder}' is not a folder name a site can serve (letters, digits, - and _)`, {
          file: `agents/${folder}`,
        }),
      );
      continue;
    }
    const loaded = loadAgent({ files: input });
    if (!loaded.ok) {
      problems.push(...prefixed(folder, loaded.error.problems));
      continue;
    }
    const agent = loaded.value;
    const bundle = `agents/${folder}.json`;
    entries.push({
      folder,
      ...agentTitle(agent, folder),
      suggestions: agent.manifest.suggestions,
      hash: await hashAgentFiles(agent.files),
      ...(agent.manifest.model ? { model: agent.manifest.model } : {}),
      ...(agent.manifest.sandbox ? { sandbox: agent.manifest.sandbox } : {}),
      bundle,
      ...(agent.demos?.length ? { demos: agent.demos } : {}),
    });
    files.push({ path: bundle, text: agentBundle(agent.files, folder) });
  }
  if (defaultFolder !== undefined && !folders.some((f) => f.folder === defaultFolder)) {
    const names = folders.map((f) => f.folder).join(", ") || "none";
    problems.push(
      problem("no_agent", `DEEPTAB_DEFAULT_AGENT names '${defaultFolder}', which is not a folder under agents/ (they are: ${names})`),
    );
  }
  if (problems.length) return refuse(problems);
  const chosen = defaultFolder ?? (entries.length === 1 ? entries[0]!.folder : undefined);
  const index: SiteAgentIndex = {
    format: SITE_AGENTS_FORMAT,
    version: SITE_AGENTS_VERSION,
    ...(chosen !== undefined ? { default: chosen } : {}),
    agents: entries,
  };
  return ok({ index, files: [{ path: SITE_AGENTS_INDEX, text: JSON.stringify(index) }, ...files] });
}

const modelRef = z.strictObject({
  provider: z.string().optional(),
  model: z.string().optional(),
  baseUrl: z.string().optional(),
  contextWindow: z.number().int().positive().optional(),
});

const indexSchema = z.strictObject({
  format: z.literal(SITE_AGENTS_FORMAT),
  version: z.literal(SITE_AGENTS_VERSION),
  default: z.string().regex(SITE_FOLDER).optional(),
  agents: z.array(
    z.strictObject({
      folder: z.string().regex(SITE_FOLDER),
      name: z.string(),
      description: z.string(),
      suggestions: z.array(z.string()),
      hash: z.string().regex(/^[0-9a-f]{64}$/),
      model: modelRef.optional(),
      sandbox: z.enum(SANDBOX_KINDS).optional(),
      bundle: z.string().regex(/^agents\/[A-Za-z0-9][A-Za-z0-9_-]{0,63}\.json$/),
      demos: z
        .array(
          z.strictObject({
            file: z.string().regex(/^demos\/[^/]+\.json$/),
            title: z.string(),
            prompt: z.string(),
            replies: z.number().int().nonnegative(),
            tools: z.array(z.string()),
            model: z.string(),
            recordedBy: z.string().optional(),
            scripted: z.boolean(),
          }),
        )
        .optional(),
    }),
  ),
});

/** Reads `agents/index.json` as fetched: the index, or why it is not one (the site's build is broken). */
export function parseSiteAgentIndex(json: unknown): Result<SiteAgentIndex, AgentFolderError> {
  const checked = indexSchema.safeParse(json);
  if (checked.success) return ok(checked.data as SiteAgentIndex);
  const first = checked.error.issues[0]!;
  return refuse([problem("invalid_bundle", `${first.message}`, { file: SITE_AGENTS_INDEX, field: first.path.join(".") })]);
}
