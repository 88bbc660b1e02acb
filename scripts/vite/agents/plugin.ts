/**
 * The Vite plugin for a site's agents: every folder under `agents/` at the project's root, validated and bundled by
 * buildSiteAgents (src/agent-folders/site.ts) into `agents/index.json` and `agents/<folder>.json` under the site's
 * base path. `vite build` emits them as files (any problem in any folder fails the build, every problem listed;
 * `DEEPTAB_DEFAULT_AGENT=<folder>` names the folder the page opens on); `vite dev`, `vite preview`'s sibling and
 * vitest's browser server serve them from memory, rebuilt when a file under `agents/` changes. They are JSON the
 * worker fetches on demand: no part of the page's JavaScript.
 */
import { resolve } from "node:path";
import type { Connect, Plugin, ResolvedConfig } from "vite";
import { buildSiteAgents, type SiteAgents } from "../../../src/agent-folders/site.ts";
import { readAgentFolders } from "./read-folders.ts";

/** The folder under the project's root that holds a site's agents. */
export const AGENTS_DIR = "agents";

/** The site's agents built from `dir`, or an Error listing every problem. */
export async function siteAgentFiles(dir: string, defaultFolder = process.env.DEEPTAB_DEFAULT_AGENT || undefined): Promise<SiteAgents> {
  const built = await buildSiteAgents(await readAgentFolders(dir), defaultFolder);
  if (built.ok) return built.value;
  const { problems, more } = built.error;
  const list = problems.map((p) => `  - ${p.message}`).join("\n");
  throw new Error(`The site's agents (${dir}) cannot be built:\n${list}${more ? `\n  … and ${more} more` : ""}`);
}

export interface SiteAgentsPluginOptions {
  /** The agents' folder; default `agents/` under Vite's root. */
  dir?: string;
}

export function siteAgentsPlugin(options: SiteAgentsPluginOptions = {}): Plugin {
  let config: ResolvedConfig;
  let dir: string;
  let built: Promise<SiteAgents> | undefined;
  const current = () => (built ??= siteAgentFiles(dir));

  return {
    name: "deeptab:site-agents",
    configResolved(resolved) {
      config = resolved;
      dir = options.dir ?? resolve(resolved.root, AGENTS_DIR);
    },
    async generateBundle() {
      if (config.command !== "build") return;
      const agents = await current().catch((cause: unknown) => this.error(cause instanceof Error ? cause.message : String(cause)));
      for (const file of agents.files) this.emitFile({ type: "asset", fileName: file.path, source: file.text });
      config.logger.info(`site agents: ${agents.index.agents.map((a) => a.folder).join(", ") || "none"} (${dir})`);
    },
    configureServer(server) {
      const onChange = (file: string) => {
        if (file.startsWith(dir)) built = undefined;
      };
      server.watcher.add(dir);
      server.watcher.on("add", onChange).on("change", onChange).on("unlink", onChange);
      const base = server.config.base.endsWith("/") ? server.config.base : `${server.config.base}/`;
      const serve: Connect.NextHandleFunction = (req, res, next) => {
        const path = (req.url ?? "").split("?")[0]!;
        if (!path.startsWith(`${base}${AGENTS_DIR}/`) || !path.endsWith(".json")) return next();
        const name = path.slice(base.length);
        current().then(
          (agents) => {
            const file = agents.files.find((f) => f.path === name);
            if (!file) return next();
            res.setHeader("Content-Type", "application/json; charset=utf-8");
            res.setHeader("Cache-Control", "no-cache");
            res.end(file.text);
          },
          (cause: unknown) => {
            built = undefined;
            const message = cause instanceof Error ? cause.message : String(cause);
            server.config.logger.error(message);
            res.statusCode = 500;
            res.setHeader("Content-Type", "text/plain; charset=utf-8");
            res.end(message);
          },
        );
      };
      server.middlewares.use(serve);
    },
  };
}
