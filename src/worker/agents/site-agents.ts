/**
 * The agents bundled with the site (agent-folders/site.ts): `agents/index.json` and one JSON bundle per folder,
 * fetched relative to the site's base URL when first asked for (they are no part of the page's JavaScript). A site
 * without agents (no index: a 404, or a page served from elsewhere) simply has none; a bundle whose content does not
 * have the hash its index names is refused (a half-deployed site).
 */
import type { AgentDefinition } from "../../agent-folders/definition.ts";
import { hashAgentFiles } from "../../agent-folders/hash.ts";
import { loadAgent } from "../../agent-folders/load.ts";
import { problem, refuse, type AgentFolderError } from "../../agent-folders/problems.ts";
import { parseSiteAgentIndex, SITE_AGENTS_INDEX, type SiteAgentEntry, type SiteAgentIndex } from "../../agent-folders/site.ts";
import { ok, type Result } from "../../core/result.ts";

/** The site's agents, as the worker reads them. */
export interface SiteAgentSource {
  /** The index; an empty one when the site ships no agents or its index cannot be read. */
  index(): Promise<SiteAgentIndex>;
  /** A folder's agent, loaded from its bundle (and kept), with its index entry. */
  agent(folder: string): Promise<Result<{ entry: SiteAgentEntry; agent: AgentDefinition }, AgentFolderError>>;
}

const EMPTY: SiteAgentIndex = { format: "deeptab-site-agents", version: 1, agents: [] };

/** The site's agents under `base` (a URL ending in `/`), fetched with `fetchImpl`. */
export function siteAgents(base: string | undefined, fetchImpl: typeof fetch): SiteAgentSource {
  let index: Promise<SiteAgentIndex> | undefined;
  const loaded = new Map<string, Promise<Result<{ entry: SiteAgentEntry; agent: AgentDefinition }, AgentFolderError>>>();

  async function readIndex(): Promise<SiteAgentIndex> {
    if (base === undefined) return EMPTY;
    try {
      const res = await fetchImpl(new URL(SITE_AGENTS_INDEX, base), { credentials: "same-origin" });
      if (!res.ok) return EMPTY;
      const parsed = parseSiteAgentIndex(await res.json());
      if (!parsed.ok) console.warn(`deeptab: the site's ${SITE_AGENTS_INDEX} is not valid: ${parsed.error.message}`);
      return parsed.ok ? parsed.value : EMPTY;
    } catch {
      // Offline, or no such file: asked again next time.
      index = undefined;
      return EMPTY;
    }
  }

  async function readAgent(folder: string): Promise<Result<{ entry: SiteAgentEntry; agent: AgentDefinition }, AgentFolderError>> {
    const entry = (await source.index()).agents.find((a) => a.folder === folder);
    if (!entry || base === undefined) return refuse([problem("no_agent", `the site has no agent '${folder}'`)]);
    const url = new URL(entry.bundle, base);
    let text: string;
    try {
      const res = await fetchImpl(url, { credentials: "same-origin" });
      if (!res.ok) return refuse([problem("no_agent", `the site's ${entry.bundle} answered HTTP ${res.status}`)]);
      text = await res.text();
    } catch (cause) {
      return refuse([problem("no_agent", `the site's ${entry.bundle} could not be fetched (${String(cause)})`)]);
    }
    const agent = loadAgent({ bundle: text });
    if (!agent.ok) return agent;
    if ((await hashAgentFiles(agent.value.files)) !== entry.hash) {
      return refuse([problem("invalid_bundle", `the site's ${entry.bundle} does not match its index (a deploy in progress?)`)]);
    }
    return ok({ entry, agent: agent.value });
  }

  const source: SiteAgentSource = {
    index() {
      const read = index ?? readIndex();
      index ??= read;
      return read;
    },
    agent(folder) {
      let found = loaded.get(folder);
      if (!found) {
        found = readAgent(folder);
        loaded.set(folder, found);
        void found.then((r) => !r.ok && loaded.delete(folder));
      }
      return found;
    },
  };
  return source;
}
