import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readAgentFolders } from "../../scripts/vite/agents/read-folders.ts";
import { parseAgentBundle } from "./bundle.ts";
import { hashAgentFiles } from "./hash.ts";
import { buildSiteAgents, parseSiteAgentIndex, SITE_AGENTS_INDEX } from "./site.ts";

/** The repository's example agents (vitest runs at the repository root). */
const repoAgents = join(process.cwd(), "agents");

describe("a site's agents", () => {
  it("bundles every example folder of the repository, each with the hash of its files, and no default with several", async () => {
    const folders = await readAgentFolders(repoAgents);
    const built = await buildSiteAgents(folders);
    if (!built.ok) throw new Error(built.error.message);
    const { index, files } = built.value;
    expect(index.default).toBeUndefined();
    expect(index.agents.map((a) => a.folder)).toEqual(["coding", "data", "research"]);
    expect(files[0]!.path).toBe(SITE_AGENTS_INDEX);
    expect(parseSiteAgentIndex(JSON.parse(files[0]!.text))).toEqual({ ok: true, value: index });
    for (const entry of index.agents) {
      expect(entry.name.length).toBeGreaterThan(0);
      expect(entry.suggestions.length).toBeGreaterThan(0);
      // Its demos are in the index, so the gallery offers their chips before a bundle is fetched; one per agent,
      // on one of its starter prompts.
      expect(entry.demos?.length).toBeGreaterThan(0);
      for (const demo of entry.demos ?? []) {
        expect(entry.suggestions).toContain(demo.prompt);
        expect(demo).toMatchObject({ scripted: true, file: expect.stringMatching(/^demos\/.+\.json$/) });
      }
      const bundle = files.find((f) => f.path === entry.bundle)!;
      const parsed = parseAgentBundle(bundle.text);
      if (!parsed.ok) throw new Error(parsed.error.message);
      expect(await hashAgentFiles(parsed.value)).toBe(entry.hash);
    }
  });

  it("opens on the only agent, or on DEEPTAB_DEFAULT_AGENT, which must name a folder", async () => {
    const one = await buildSiteAgents([{ folder: "solo", files: { "AGENTS.md": "Be brief." } }]);
    expect(one.ok && one.value.index.default).toBe("solo");
    const folders = [
      { folder: "a", files: { "AGENTS.md": "A." } },
      { folder: "b", files: { "AGENTS.md": "B." } },
    ];
    const chosen = await buildSiteAgents(folders, "b");
    expect(chosen.ok && chosen.value.index.default).toBe("b");
    const wrong = await buildSiteAgents(folders, "c");
    expect(wrong.ok).toBe(false);
    if (!wrong.ok)
      expect(wrong.error.message).toContain("DEEPTAB_DEFAULT_AGENT names 'c', which is not a folder under agents/ (they are: a, b)");
  });

  it("refuses the whole set when one folder has a problem, naming the folder and its file", async () => {
    const built = await buildSiteAgents([
      { folder: "good", files: { "AGENTS.md": "Fine." } },
      { folder: "bad", files: { "AGENTS.md": "x", "agent.yaml": "name: [unclosed" } },
      { folder: "bad name", files: { "AGENTS.md": "x" } },
    ]);
    expect(built.ok).toBe(false);
    if (built.ok) return;
    const messages = built.error.problems.map((p) => p.message);
    expect(messages.some((m) => m.startsWith("agents/bad/agent.yaml") && m.includes("invalid YAML"))).toBe(true);
    expect(messages.some((m) => m.includes("'bad name' is not a folder name"))).toBe(true);
  });

  it("refuses an index that is not one", () => {
    expect(parseSiteAgentIndex({ format: "deeptab-site-agents", version: 1, agents: [{ folder: "../x" }] }).ok).toBe(false);
    expect(parseSiteAgentIndex(null).ok).toBe(false);
  });
});
