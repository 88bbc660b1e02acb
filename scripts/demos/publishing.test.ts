/**
 * Every way an agent folder is published carries its demos (`demos/*.json`) byte for byte, and the agent loaded at
 * the other end lists them: Share's zip and JSON bundle, a `?agent=` link (the worker's link loader and library,
 * over fake-indexeddb), a site's `agents/` as the gallery and `npm run build` / `deeptab build` bundle it (the Vite
 * plugin and the command share siteAgentFiles), and a site `deeptab new` scaffolds. A site bundle whose demo changed
 * after the build is refused by its folder hash.
 */
import "fake-indexeddb/auto";
import { mkdtemp, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { agentBundle, parseAgentBundle } from "../../src/agent-folders/bundle.ts";
import type { AgentFiles } from "../../src/agent-folders/file-map.ts";
import { loadAgent } from "../../src/agent-folders/load.ts";
import { unzipAgent, zipAgent } from "../../src/agent-folders/zip.ts";
import { DEMOS_DIR } from "../../src/models/replay/format.ts";
import { putAgentFile } from "../../src/testing/agent-link-files.ts";
import { startAgentLinkServer } from "../../src/testing/agent-link-server.ts";
import { openWorkerApi } from "../../src/testing/worker-api.ts";
import { fetchAgentLink, sniffAgent } from "../../src/worker/agents/agent-links.ts";
import { siteAgents } from "../../src/worker/agents/site-agents.ts";
import { newSite } from "../cli/site.ts";
import { siteAgentFiles } from "../vite/agents/plugin.ts";
import { AGENTS_ROOT, folderFiles } from "./record.ts";

const temp = await mkdtemp(join(tmpdir(), "deeptab-demos-publish-"));
afterAll(() => rm(temp, { recursive: true, force: true }));

/** The demo files of a folder, path → bytes. */
function demosOf(files: ReadonlyMap<string, Uint8Array> | AgentFiles): Map<string, Uint8Array> {
  return new Map([...files].filter(([path]) => path.startsWith(DEMOS_DIR)));
}

/** The site's data agent, with its demo. */
async function dataFolder(): Promise<{ files: Map<string, Uint8Array>; demos: Map<string, Uint8Array> }> {
  const files = await folderFiles("data");
  const demos = demosOf(files);
  expect(demos.size).toBeGreaterThan(0);
  return { files, demos };
}

/** A fetch that serves `files` (path under `base` → text), as a static host does. */
function staticFetch(base: string, files: ReadonlyMap<string, string>): typeof fetch {
  return async (input) => {
    const path = String(input instanceof Request ? input.url : input).slice(base.length);
    const text = files.get(path);
    return text === undefined ? new Response("not found", { status: 404 }) : new Response(text);
  };
}

describe("publishing carries demos", () => {
  it("Share's zip and JSON bundle keep every demo byte for byte, and the loaded agent lists them", async () => {
    const { files, demos } = await dataFolder();
    const loaded = loadAgent({ files });
    if (!loaded.ok) throw new Error(loaded.error.message);
    const listed = loaded.value.demos?.map((d) => d.file);
    expect(listed).toEqual([...demos.keys()]);

    const zipped = unzipAgent(zipAgent(loaded.value.files, "data"));
    if (!zipped.ok) throw new Error(zipped.error.message);
    expect(demosOf(zipped.value)).toEqual(demos);
    const fromZip = loadAgent({ zip: zipAgent(loaded.value.files, "data") });
    expect(fromZip.ok && fromZip.value.demos?.map((d) => d.file)).toEqual(listed);

    const bundled = parseAgentBundle(agentBundle(loaded.value.files, "data"));
    if (!bundled.ok) throw new Error(bundled.error.message);
    expect(demosOf(bundled.value)).toEqual(demos);
    const fromBundle = loadAgent({ bundle: agentBundle(loaded.value.files, "data") });
    expect(fromBundle.ok && fromBundle.value.demos?.[0]).toMatchObject({ scripted: true, model: "scripted:data" });
  });

  it("a ?agent= link (zip and bundle) is reviewed, stored and shared again with its demos intact", async () => {
    const { files, demos } = await dataFolder();
    const server = await startAgentLinkServer();
    try {
      const { api } = openWorkerApi(`demos-publish-${crypto.randomUUID()}`);
      for (const [name, bytes] of [
        ["data.zip", zipAgent(files, "data")],
        ["data.json", new TextEncoder().encode(agentBundle(files, "data"))],
      ] as const) {
        const url = await putAgentFile(server.url, `demos/${name}`, bytes);
        // The worker's link loader: download, sniff, load.
        const fetched = await fetchAgentLink(url, fetch, "http://127.0.0.1");
        if (!fetched.ok) throw new Error(fetched.error.message);
        const sniffed = sniffAgent(fetched.value);
        if (!sniffed) throw new Error(`${name} is neither a zip nor a bundle`);
        const loaded = loadAgent(sniffed);
        expect(loaded.ok && loaded.value.demos?.map((d) => d.file)).toEqual([...demos.keys()]);

        const review = await api.previewAgentUrl(url);
        if (!review.ok) throw new Error(review.error.message);
        for (const [path, bytes] of demos) expect(review.value.allFiles).toContainEqual({ path, size: bytes.length });
        expect(review.value.summary.demos?.map((d) => d.file)).toEqual([...demos.keys()]);
        const used = await api.useAgent(review.value.summary.hash!);
        if (!used.ok) throw new Error(used.error.message);
        expect(used.value.demos?.[0]).toMatchObject({ scripted: true, model: "scripted:data", recordedBy: "deeptab (scripted)" });
        const shared = await api.exportAgent(used.value.id);
        if (!shared.ok) throw new Error(shared.error.message);
        const fromZip = unzipAgent(shared.value.zip);
        const fromBundle = parseAgentBundle(shared.value.bundle);
        if (!fromZip.ok || !fromBundle.ok) throw new Error("the shared agent does not load");
        expect(demosOf(fromZip.value)).toEqual(demos);
        expect(demosOf(fromBundle.value)).toEqual(demos);
      }
    } finally {
      await server.close();
    }
  }, 60_000);

  it("a site's build (npm run build, deeptab build, the gallery) keeps every folder's demos; one edited after is refused", async () => {
    const site = await siteAgentFiles(AGENTS_ROOT);
    const served = new Map(site.files.map((f) => [f.path, f.text]));
    const base = "https://example.test/site/";
    const source = siteAgents(base, staticFetch(base, served));
    for (const entry of site.index.agents) {
      const onDisk = demosOf(await folderFiles(entry.folder));
      expect(onDisk.size).toBeGreaterThan(0);
      const bundled = parseAgentBundle(served.get(entry.bundle)!);
      if (!bundled.ok) throw new Error(bundled.error.message);
      expect(demosOf(bundled.value)).toEqual(onDisk);
      // The gallery's loader (the worker's site agents): checked against the index's hash, demos listed.
      const loaded = await source.agent(entry.folder);
      if (!loaded.ok) throw new Error(loaded.error.message);
      expect(loaded.value.agent.demos?.map((d) => d.file)).toEqual([...onDisk.keys()]);
    }

    // One reply of the data agent's demo edited in the deployed bundle: still a valid demo, no longer the folder built.
    const entry = site.index.agents.find((a) => a.folder === "data")!;
    const bundle = JSON.parse(served.get(entry.bundle)!) as { files: Array<{ path: string; text?: string }> };
    const demo = bundle.files.find((f) => f.path.startsWith(DEMOS_DIR))!;
    const edited = JSON.parse(demo.text!) as { calls: Array<{ reply: { text: string }; timing: { chunks: unknown[] } }> };
    const last = edited.calls.at(-1)!;
    last.reply.text = last.reply.text.replace("$3,411.00", "$9,999.00");
    demo.text = JSON.stringify(edited, null, 2);
    const tampered = new Map(served).set(entry.bundle, JSON.stringify(bundle));
    expect(loadAgent({ bundle: tampered.get(entry.bundle)! }).ok).toBe(true);
    const refused = await siteAgents(base, staticFetch(base, tampered)).agent("data");
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.error).toMatchObject({ code: "invalid_agent" });
    expect(!refused.ok && refused.error.problems[0]).toMatchObject({
      code: "invalid_bundle",
      message: `the site's ${entry.bundle} does not match its index (a deploy in progress?)`,
    });
  });

  it("a site `deeptab new` makes carries a demo added to its agent into its build", async () => {
    const dir = join(temp, "my-site");
    await newSite({ dir, deeptab: "^0.1.0" });
    const { demos } = await dataFolder();
    const [path, bytes] = [...demos][0]!;
    await mkdir(join(dir, "agents", "my-site", DEMOS_DIR), { recursive: true });
    await writeFile(join(dir, "agents", "my-site", path), bytes);
    const site = await siteAgentFiles(join(dir, "agents"));
    const bundled = parseAgentBundle(site.files.find((f) => f.path === "agents/my-site.json")!.text);
    if (!bundled.ok) throw new Error(bundled.error.message);
    expect(demosOf(bundled.value)).toEqual(new Map([[path, bytes]]));
    expect(await readFile(join(dir, "agents", "my-site", path))).toEqual(Buffer.from(bytes));
    const loaded = loadAgent({ bundle: site.files.find((f) => f.path === "agents/my-site.json")!.text });
    expect(loaded.ok && loaded.value.demos?.map((d) => d.file)).toEqual([path]);
  });
});
