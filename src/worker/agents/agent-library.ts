/**
 * The agent library (AgentLibraryApi less `setThreadAgent`, which thread-agents.ts does, and `saveDemo`): the general agent, the
 * site's agents (site-agents.ts) and the ones stored in this browser (agent-store.ts); previews of a link or an
 * upload, which store nothing; `useAgent`, which stores exactly the agent the person reviewed (by its hash); removal,
 * export, and the definition a run or a thread needs.
 */
import { agentBundle } from "../../agent-folders/bundle.ts";
import type { AgentDefinition } from "../../agent-folders/definition.ts";
import { hashAgentFiles } from "../../agent-folders/hash.ts";
import { loadAgent, type AgentSource } from "../../agent-folders/load.ts";
import { zipAgent } from "../../agent-folders/zip.ts";
import { toErrorInfo } from "../../core/errors.ts";
import { ok } from "../../core/result.ts";
import { applyAgentChanges, editedName, editorFiles } from "./agent-edit.ts";
import { fetchAgentLink, linkName, sniffAgent } from "./agent-links.ts";
import {
  agentFail,
  agentReview,
  agentSummary,
  invalidAgent,
  parseAgentId,
  siteAgentId,
  storedAgentId,
  type AgentPlace,
} from "./agent-review.ts";
import type { AgentStore, StoredAgent } from "./agent-store.ts";
import { GENERAL_AGENT } from "./general-agent.ts";
import type { AgentFileChange, AgentLibraryApi, AgentReview, AgentSummary } from "../../protocol/agents.ts";
import type { AgentResult } from "../../protocol/errors.ts";
import type { SiteAgentSource } from "./site-agents.ts";

/** What the library needs. */
export interface AgentLibraryDeps {
  store: AgentStore;
  site: SiteAgentSource;
  /** The request log's fetch: a link's download shows in the request log. */
  fetch: typeof fetch;
  /** The page's origin, named when a host does not allow it to read an agent (CORS). */
  origin: string;
  /** The thread ids whose agent is `agentId` (a stored agent they use cannot be removed). */
  threadsUsing(agentId: string): Promise<string[]>;
  /** deeptab's own system prompt (the general agent's AGENTS.md when it is exported). */
  generalInstructions(): Promise<string>;
  /** The origins the person's provider keys are bound to (a review names the subagents' hosts that get no key). */
  keyOrigins?(): Promise<ReadonlySet<string>>;
}

/** An agent the library resolved: its summary and, except for the general agent, its folder. */
export interface ResolvedAgent {
  summary: AgentSummary;
  agent?: AgentDefinition;
}

/** The library: the protocol's calls, and what threads and runs ask of it. */
export type AgentLibrary = Omit<AgentLibraryApi, "setThreadAgent" | "saveDemo"> & {
  /** The agent with this id (its folder loaded), or `not_found`. */
  resolve(agentId: string): Promise<AgentResult<ResolvedAgent>>;
};

/** Previews kept for `useAgent` (the newest few, each up to an agent's size; an older one must be previewed again). */
const MAX_PENDING = 4;

interface Pending {
  agent: AgentDefinition;
  hash: string;
  origin: "link" | "local";
  url?: string;
  fallbackName: string;
}

/** The general agent as a folder: its AGENTS.md is deeptab's own prompt. */
function generalAgentFolder(instructions: string): Map<string, string> {
  return new Map([
    ["agent.yaml", `name: ${GENERAL_AGENT.name}\ndescription: ${JSON.stringify(GENERAL_AGENT.description)}\n`],
    ["AGENTS.md", `${instructions}\n`],
  ]);
}

/** A file-name-safe slug of an agent's name. */
function agentSlug(name: string): string {
  return (
    name
      .normalize("NFKD")
      .replace(/[^\w-]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .toLowerCase()
      .slice(0, 64) || "agent"
  );
}

export function createAgentLibrary(deps: AgentLibraryDeps): AgentLibrary {
  const origins = async (): Promise<ReadonlySet<string>> => (await deps.keyOrigins?.()) ?? new Set();
  const pending = new Map<string, Pending>();
  const storedDefs = new Map<string, AgentDefinition>();

  function storedAgent(record: StoredAgent): AgentResult<ResolvedAgent> {
    let agent = storedDefs.get(record.hash);
    if (!agent) {
      const loaded = loadAgent({ bundle: record.bundle });
      if (!loaded.ok) return invalidAgent(loaded.error);
      agent = loaded.value;
      storedDefs.set(record.hash, agent);
    }
    const place: AgentPlace = {
      id: storedAgentId(record.hash),
      origin: record.origin,
      hash: record.hash,
      fallbackName: record.fallbackName,
      addedAt: record.addedAt,
      ...(record.url ? { url: record.url } : {}),
    };
    const summary = {
      ...agentSummary(agent, place),
      ...(record.editedFrom && record.editedFrom.id !== place.id ? { editedFrom: record.editedFrom.id } : {}),
      ...(record.unreviewed ? { unreviewed: true as const } : {}),
    };
    return ok({ summary: { ...summary, name: editedName(summary.name, record.editedFrom) }, agent });
  }

  async function general(): Promise<AgentDefinition> {
    const loaded = loadAgent({ files: generalAgentFolder(await deps.generalInstructions()) });
    if (!loaded.ok) throw new Error(`deeptab's own agent folder is invalid: ${loaded.error.message}`);
    return loaded.value;
  }

  async function resolve(agentId: string): Promise<AgentResult<ResolvedAgent>> {
    const id = parseAgentId(agentId);
    if (id?.kind === "general") return ok({ summary: GENERAL_AGENT });
    if (id?.kind === "site") {
      const found = await deps.site.agent(id.folder);
      if (!found.ok) return agentFail("not_found", `No agent ${agentId} on this site (${found.error.message}).`);
      const { entry, agent } = found.value;
      const summary = agentSummary(agent, { id: agentId, origin: "site", hash: entry.hash, fallbackName: entry.folder });
      return ok({ summary, agent });
    }
    if (id?.kind === "stored") {
      const record = await deps.store.get(id.hash);
      if (record) return storedAgent(record);
    }
    return agentFail("not_found", `No agent ${agentId}.`);
  }

  /** Keeps a preview for `useAgent` (the newest few). */
  function remember(preview: Pending): void {
    pending.delete(preview.hash);
    pending.set(preview.hash, preview);
    while (pending.size > MAX_PENDING) pending.delete(pending.keys().next().value!);
  }

  /** Any agent with its folder: the general agent's too. */
  async function withFolder(agentId: string): Promise<AgentResult<Required<ResolvedAgent>>> {
    if (agentId === GENERAL_AGENT.id) return ok({ summary: GENERAL_AGENT, agent: await general() });
    const found = await resolve(agentId);
    return found.ok ? ok({ summary: found.value.summary, agent: found.value.agent! }) : found;
  }

  async function saveEdit(agentId: string, changes: AgentFileChange[]): Promise<AgentResult<AgentSummary>> {
    const base = await withFolder(agentId);
    if (!base.ok) return base;
    const { summary, agent } = base.value;
    const changed = applyAgentChanges(agent.files, changes);
    if (!changed.ok) return agentFail("not_found", changed.error);
    const loaded = loadAgent({ files: changed.value });
    if (!loaded.ok) return invalidAgent(loaded.error);
    const hash = await hashAgentFiles(loaded.value.files);
    if (hash === summary.hash) return agentFail("unchanged", "Nothing changed: every file is as it was.");
    const id = parseAgentId(agentId);
    const record = id?.kind === "stored" ? await deps.store.get(id.hash) : undefined;
    const plainName = agent.manifest.name ?? record?.fallbackName ?? summary.name;
    // A local version no thread uses is replaced; one a thread ran with (or a link's, pinned to its URL) is kept for it.
    const replaces = record?.origin === "local" && (await deps.threadsUsing(agentId)).length === 0 ? record.hash : undefined;
    const next: StoredAgent = {
      hash,
      origin: "local",
      addedAt: new Date().toISOString(),
      fallbackName: record?.fallbackName ?? summary.name,
      bundle: agentBundle(loaded.value.files, loaded.value.manifest.name ?? plainName),
      // The version it came from; when this save replaces that one, the version that one came from (still hidden by it).
      editedFrom: { id: (replaces && record?.editedFrom?.id) || agentId, name: record?.editedFrom?.name ?? plainName },
    };
    try {
      await deps.store.put(next, replaces);
    } catch (cause) {
      return agentFail("storage_failed", `The edit could not be stored (${toErrorInfo(cause).message}); nothing was stored.`);
    }
    if (replaces) storedDefs.delete(replaces);
    storedDefs.set(hash, loaded.value);
    const found = storedAgent(next);
    return found.ok ? ok(found.value.summary) : found;
  }

  async function preview(source: AgentSource, from: Omit<Pending, "agent" | "hash">): Promise<AgentResult<AgentReview>> {
    const loaded = loadAgent(source);
    if (!loaded.ok) return invalidAgent(loaded.error);
    const agent = loaded.value;
    const hash = await hashAgentFiles(agent.files);
    const [stored, pinned] = await Promise.all([deps.store.get(hash), from.url ? deps.store.pinned(from.url) : undefined]);
    remember({ agent, hash, ...from });
    const summary = agentSummary(agent, {
      id: storedAgentId(hash),
      origin: from.origin,
      hash,
      fallbackName: from.fallbackName,
      ...(from.url ? { url: from.url } : {}),
      ...(stored ? { addedAt: stored.addedAt } : {}),
    });
    const keyOrigins = await origins();
    return ok(agentReview(agent, summary, { ...(pinned && pinned !== hash ? { changedFrom: pinned } : {}), stored: !!stored, keyOrigins }));
  }

  return {
    resolve,

    async listAgents() {
      const index = await deps.site.index();
      const site = index.agents.map((e): AgentSummary => ({
        id: siteAgentId(e.folder),
        origin: "site",
        name: e.name,
        description: e.description,
        suggestions: [...e.suggestions],
        hash: e.hash,
        ...(e.model ? { model: { ...e.model } } : {}),
        ...(e.sandbox ? { sandbox: e.sandbox } : {}),
        demos: (e.demos ?? []).map((d) => ({ ...d, tools: [...d.tools] })),
      }));
      const records = await deps.store.list();
      // A version an edit superseded stays for the threads that ran with it, not in the list.
      const superseded = new Set(
        records.flatMap((r) => (r.editedFrom && r.editedFrom.id !== storedAgentId(r.hash) ? [r.editedFrom.id] : [])),
      );
      const stored = records.flatMap((record) => {
        if (record.unreviewed || superseded.has(storedAgentId(record.hash))) return [];
        const found = storedAgent(record);
        return found.ok ? [found.value.summary] : [];
      });
      return [GENERAL_AGENT, ...site, ...stored];
    },

    async defaultAgent() {
      const chosen = (await deps.site.index()).default;
      return chosen === undefined ? undefined : siteAgentId(chosen);
    },

    async previewAgentUrl(url) {
      const fetched = await fetchAgentLink(url, deps.fetch, deps.origin);
      if (!fetched.ok) return fetched;
      const source = sniffAgent(fetched.value);
      if (!source) {
        return invalidAgent({
          message: `This agent cannot be opened: ${url} is neither a zip of an agent folder nor a deeptab JSON bundle.`,
          problems: [
            { code: "invalid_bundle", message: "neither a zip (it does not start with PK) nor a JSON bundle (it does not start with {)" },
          ],
        });
      }
      const href = new URL(url).href;
      return preview(source, { origin: "link", url: href, fallbackName: linkName(href) });
    },

    async previewAgentUpload(upload) {
      const source: AgentSource =
        "files" in upload
          ? { files: upload.files.map((f) => [f.path, f.content] as const) }
          : "zip" in upload
            ? upload
            : { bundle: upload.bundle };
      return preview(source, { origin: "local", fallbackName: "agent" });
    },

    async reviewAgent(agentId) {
      if (agentId === GENERAL_AGENT.id) return ok(agentReview(await general(), GENERAL_AGENT));
      const found = await resolve(agentId);
      if (!found.ok) return found;
      const { summary, agent } = found.value;
      if (summary.unreviewed && summary.hash) {
        // An imported thread's agent: `useAgent` with this hash is the person's **Use this agent**.
        remember({ agent: agent!, hash: summary.hash, origin: "local", fallbackName: summary.name });
        return ok(agentReview(agent!, summary, { keyOrigins: await origins() }));
      }
      const stored = summary.origin === "link" || summary.origin === "local";
      return ok(agentReview(agent!, summary, { stored, keyOrigins: await origins() }));
    },

    async useAgent(hash) {
      const chosen = pending.get(hash);
      if (!chosen) return agentFail("not_found", "This agent is no longer waiting to be used: open its link or file again.");
      const existing = await deps.store.get(hash);
      const record: StoredAgent = {
        hash,
        origin: chosen.origin,
        addedAt: existing?.addedAt ?? new Date().toISOString(),
        fallbackName: chosen.fallbackName,
        bundle: existing?.bundle ?? agentBundle(chosen.agent.files, chosen.fallbackName),
        ...(existing?.editedFrom ? { editedFrom: existing.editedFrom } : {}),
        ...((chosen.url ?? existing?.url) ? { url: chosen.url ?? existing!.url! } : {}),
      };
      try {
        await deps.store.put(record);
      } catch (cause) {
        const info = toErrorInfo(cause);
        return agentFail("storage_failed", `The agent could not be stored (${info.message}); nothing was stored.`);
      }
      pending.delete(hash);
      storedDefs.set(hash, chosen.agent);
      const found = storedAgent(record);
      return found.ok ? ok(found.value.summary) : found;
    },

    async removeAgent(agentId) {
      const id = parseAgentId(agentId);
      if (id?.kind !== "stored") {
        return id
          ? agentFail("not_found", `${agentId} is part of the site and cannot be removed.`)
          : agentFail("not_found", `No agent ${agentId}.`);
      }
      if (!(await deps.store.get(id.hash))) return agentFail("not_found", `No agent ${agentId}.`);
      const using = await deps.threadsUsing(agentId);
      if (using.length) {
        const n = using.length;
        return agentFail("in_use", `${n} thread${n === 1 ? " uses" : "s use"} this agent; delete ${n === 1 ? "it" : "them"} first.`);
      }
      await deps.store.remove(id.hash);
      storedDefs.delete(id.hash);
      return ok(null);
    },

    async exportAgent(agentId) {
      const found = await withFolder(agentId);
      if (!found.ok) return found;
      const { summary, agent } = found.value;
      const slug = agentSlug(summary.name);
      return ok({
        slug,
        zip: zipAgent(agent.files, slug),
        bundle: agentBundle(agent.files, summary.name),
        ...(summary.url ? { url: summary.url } : {}),
      });
    },

    async agentFolder(agentId) {
      const found = await withFolder(agentId);
      return found.ok ? ok({ summary: found.value.summary, files: editorFiles(found.value.agent.files) }) : found;
    },

    saveAgentEdit: saveEdit,
  };
}
