/**
 * A thread's agent in thread exports and imports. An export carries the agent the thread ran with (its id, name and
 * hash, and its folder as a JSON bundle while this browser has that exact version). An import checks that agent with
 * the loader and its hash before the thread writes anything (a bad agent refuses the whole import), then finds it
 * here: an agent stored with that hash, or the site's agent of that id when it still has that hash; otherwise the
 * agent is stored unreviewed, not listed, and the thread does not run until the person has read its review and chosen
 * **Use this agent** (agent-library.ts `reviewAgent`/`useAgent`). So an imported file never makes deeptab contact a
 * host, or follow instructions, the person has not seen: exactly the promise a link's review makes.
 */
import { agentBundle } from "../../agent-folders/bundle.ts";
import { hashAgentFiles } from "../../agent-folders/hash.ts";
import { loadAgent } from "../../agent-folders/load.ts";
import { err, ok, type Result } from "../../core/result.ts";
import type { AgentLibrary } from "../agents/agent-library.ts";
import { parseAgentId, storedAgentId } from "../agents/agent-review.ts";
import type { AgentStore } from "../agents/agent-store.ts";
import type { ThreadAgentExport, ThreadInfo } from "../../protocol/threads.ts";
import type { ThreadAgentTransfer } from "./threads.ts";

export function threadAgentTransfer(deps: {
  library: Pick<AgentLibrary, "resolve" | "exportAgent">;
  store: AgentStore;
}): ThreadAgentTransfer {
  return {
    async exported(agent) {
      const now = await deps.library.resolve(agent.id);
      const same = now.ok && now.value.summary.hash === agent.hash && now.value.agent;
      if (!same) return { ...agent };
      return { ...agent, bundle: agentBundle(now.value.agent!.files, agent.name) };
    },

    async imported(agent: ThreadAgentExport): Promise<Result<{ agent: ThreadInfo["agent"]; keep(): Promise<void> }, string>> {
      const none = async () => undefined;
      const known = async (id: string) => {
        const found = await deps.library.resolve(id);
        return found.ok && found.value.summary.hash === agent.hash;
      };
      if (agent.bundle === undefined) {
        // The exporting browser no longer had that version: the thread says its agent is gone, unless this one has it.
        const here = agent.hash ? await deps.store.get(agent.hash) : undefined;
        const id = here ? storedAgentId(here.hash) : agent.id;
        return ok({ agent: { id, name: agent.name, ...(agent.hash ? { hash: agent.hash } : {}) }, keep: none });
      }
      const loaded = loadAgent({ bundle: agent.bundle });
      if (!loaded.ok) return err(`its agent (${agent.name}) is not valid: ${loaded.error.message}`);
      const hash = await hashAgentFiles(loaded.value.files);
      if (agent.hash !== undefined && agent.hash !== hash)
        return err(`its agent's files do not have the hash the export names (${agent.name})`);
      const info = { name: agent.name, hash };
      if (await deps.store.get(hash)) return ok({ agent: { id: storedAgentId(hash), ...info }, keep: none });
      if (parseAgentId(agent.id)?.kind === "site" && (await known(agent.id))) return ok({ agent: { id: agent.id, ...info }, keep: none });
      const own = loaded.value.manifest.name ?? agent.name;
      const record = {
        hash,
        origin: "local" as const,
        addedAt: new Date().toISOString(),
        fallbackName: agent.name,
        bundle: agentBundle(loaded.value.files, own),
        // An edit the exporting browser showed as "<name> (edited)" keeps that name here (the version it came from is
        // that browser's: the record names itself, which hides nothing).
        ...(agent.name === `${own} (edited)` ? { editedFrom: { id: agent.id, name: own } } : {}),
        unreviewed: true as const,
      };
      return ok({ agent: { id: storedAgentId(hash), ...info }, keep: () => deps.store.put(record) });
    },
  };
}
