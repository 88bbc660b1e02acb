/**
 * The site-agents plugin: the repository's own agents/ build into an index and a bundle each; a broken folder fails
 * with every problem listed; DEEPTAB_DEFAULT_AGENT picks the page's agent; and a dev server serves the files under
 * its base path (what `npm start` and the browser tests read).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createServer } from "vite";
import { afterEach, describe, expect, it } from "vitest";
import { parseSiteAgentIndex } from "../../../src/agent-folders/site.ts";
import { siteAgentFiles, siteAgentsPlugin } from "./plugin.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function folder(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "site-agents-"));
  dirs.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe("site agents plugin", () => {
  it("builds the repository's example agents into a valid index and one bundle each", async () => {
    const built = await siteAgentFiles(join(process.cwd(), "agents"), undefined);
    expect(built.index.agents.map((a) => a.folder)).toEqual(["coding", "data", "research"]);
    expect(parseSiteAgentIndex(JSON.parse(built.files[0]!.text)).ok).toBe(true);
    expect(built.files.map((f) => f.path)).toEqual(["agents/index.json", "agents/coding.json", "agents/data.json", "agents/research.json"]);
    expect(built.index.default).toBeUndefined();
    expect((await siteAgentFiles(join(process.cwd(), "agents"), "data")).index.default).toBe("data");
  });

  it("fails with every problem of every folder listed, and on a default that is no folder", async () => {
    const root = folder({
      "good/AGENTS.md": "Be good.",
      "bad/agent.yaml": "name: [unclosed\n",
      "worse/agents/critic.md": "---\nname: critic\n---\nCheck.",
      "worse/AGENTS.md": "x",
    });
    const failure = await siteAgentFiles(root, "nope").catch((e: unknown) => String(e));
    expect(failure).toContain("agents/bad/agent.yaml");
    expect(failure).toContain("agents/worse/agents/critic.md");
    expect(failure).toContain("DEEPTAB_DEFAULT_AGENT names 'nope'");
  });

  it("serves the index and bundles under a dev server's base path", async () => {
    const root = folder({ "agents/solo/AGENTS.md": "Solo.", "index.html": "<!doctype html><title>t</title>" });
    const server = await createServer({
      root,
      base: "/deeptab/",
      configFile: false,
      logLevel: "silent",
      plugins: [siteAgentsPlugin()],
      server: { port: 0, host: "127.0.0.1", ws: false },
      optimizeDeps: { noDiscovery: true, include: [] },
    });
    try {
      await server.listen();
      const { port } = server.httpServer!.address() as AddressInfo;
      const index = await (await fetch(`http://127.0.0.1:${port}/deeptab/agents/index.json`)).json();
      const parsed = parseSiteAgentIndex(index);
      expect(parsed.ok && parsed.value.agents.map((a) => a.folder)).toEqual(["solo"]);
      // A sole agent is the site's default.
      expect(parsed.ok && parsed.value.default).toBe("solo");
      const bundle = await fetch(`http://127.0.0.1:${port}/deeptab/agents/solo.json`);
      expect(bundle.status).toBe(200);
      expect(await bundle.text()).toContain('"AGENTS.md"');
    } finally {
      await server.close();
    }
  });
});
