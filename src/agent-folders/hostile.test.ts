/**
 * Property test: agent folders crafted the way a hostile link can craft them (issue 39). Each case is a small valid
 * folder with a few hostile changes drawn from a seeded generator: traversal, absolute and odd paths, starter files
 * aimed at shared or reserved places, names with invisible and direction-changing characters, oversize files, too
 * many files, model references and servers on odd hosts. Read as a file map and as a zip, the loader must never
 * throw; a refusal names at least one problem, each with a code and a message that carries no invisible character
 * raw; an accepted folder has no starter file aimed at a reserved place, no name or path with an invisible
 * character, stays within the limits, and the review's hosts list every host its model references and servers name.
 * A failure prints its seed; `FUZZ_SEED=<seed>` replays it (Node; hostile.browser.test.ts runs the same in Chromium).
 */
import { zipSync, type Zippable } from "fflate";
import { describe, expect, it } from "vitest";
import { normalizePath } from "../backends/paths.ts";
import { pick, randomString, seededRandom } from "../testing/random.ts";
import type { AgentDefinition } from "./definition.ts";
import { agentHosts } from "./hosts.ts";
import { hasInvisible } from "./invisible.ts";
import { loadAgent, type AgentSource } from "./load.ts";
import { MAX_AGENT_BYTES, MAX_AGENT_FILE_BYTES, MAX_AGENT_FILES } from "./limits.ts";
import { agentSeedFiles } from "./options.ts";
import { AGENT_SKILLS_DIR, reservedPlace } from "./reserved.ts";

const RUNS = 400;
const BASE_SEED = Number((typeof process === "undefined" ? undefined : process.env.FUZZ_SEED) ?? 20_260_39);

const INVISIBLE = ["\u202E", "\u202A", "\u2066", "\u2069", "\u200E", "\u200F", "\u061C", "\u200B", "\u200D", "\u2060", "\uFEFF"];
const ODD = [...INVISIBLE, "\u00AD", "\u{E0041}", "\u0085", "\u3164", "\uFE0F", "\u034F", "\u0000", "\u007F", "\uD800", "e\u0301", "é"];
const PLAIN = "abcXYZ019-_.";
const SEGMENTS = ["..", ".", "", "~", "a..b", "...", "CON", " ", "data", "é"];
const PLACES = [
  "memories/",
  "Memories/",
  "skills/x/",
  "agent-skills/report/",
  "agent-skills/",
  "large_tool_results/",
  "conversation_history/",
  "uploads/",
  "tmp/",
  "dev/",
  "data/",
  "notes/skills/",
  "memories-not/",
  "",
  "",
  "data/",
];
const HOSTS = [
  "https://llm.example.org/v1",
  "http://localhost:8080/v1",
  "http://127.0.0.1:11434/v1",
  "http://[::1]:8080/v1",
  "https://xn--80ak6aa92e.com/v1",
  "https://ex\u0430mple.org/v1",
  "https://user:secret@llm.example.org/v1",
  "https://llm.example.org:99999/v1",
  "https://llm.example.org\u202E/v1",
  "javascript:alert(1)",
  "file:///etc/passwd",
  "ftp://llm.example.org/",
  "//llm.example.org/v1",
  "https://",
  "not a url",
  "https://llm.example.org/v1?key=sk-abcdefghijklmnopqrstuvwx",
];

/** A name: plain, or with hostile characters spliced in. */
function hostileName(random: () => number): string {
  const base = randomString(random, PLAIN, 1 + Math.floor(random() * 8));
  if (random() < 0.5) return base;
  const at = Math.floor(random() * (base.length + 1));
  return base.slice(0, at) + pick(random, ODD) + base.slice(at);
}

/** A path inside `files/`, under a reserved or ordinary place, with hostile segments now and then. */
function starterPath(random: () => number): string {
  const segments = [pick(random, PLACES) + hostileName(random)];
  if (random() < 0.3) segments.splice(Math.floor(random() * 2), 0, pick(random, SEGMENTS));
  const path = `files/${segments.join("/")}`;
  const r = random();
  if (r < 0.05) return `/${path}`;
  if (r < 0.1) return path.replace(/\//g, "\\");
  if (r < 0.13) return `C:/${path}`;
  return path;
}

const yamlString = (text: string) => JSON.stringify(text);

/** A folder with a few hostile changes, and what they were (for the failure message). */
function hostileFolder(random: () => number): { files: Map<string, string | Uint8Array>; changes: string[] } {
  const files = new Map<string, string | Uint8Array>([
    ["AGENTS.md", "You are a test agent."],
    ["skills/report/SKILL.md", "---\nname: report\ndescription: Writes reports.\n---\nWrite."],
    ["files/data/a.csv", "a,b\n"],
  ]);
  const manifest: string[] = [];
  const changes: string[] = [];
  const count = 1 + Math.floor(random() * 3);
  for (let i = 0; i < count; i++) {
    const kind = pick(random, ["starter", "starter", "starter", "subagent", "skill", "name", "model", "server", "size", "many", "case"]);
    changes.push(kind);
    if (kind === "starter") files.set(starterPath(random), "x");
    else if (kind === "subagent") {
      const name = hostileName(random);
      const file = random() < 0.5 ? `agents/${name}.md` : "agents/helper.md";
      const model = random() < 0.5 ? `model: { provider: openai-compatible, base_url: ${yamlString(pick(random, HOSTS))} }\n` : "";
      files.set(file, `---\nname: ${yamlString(name)}\ndescription: Helps.\n${model}---\nHelp.`);
    } else if (kind === "skill") {
      const folder = random() < 0.5 ? hostileName(random) : "report";
      files.set(`skills/${folder}/SKILL.md`, `---\nname: ${yamlString(hostileName(random))}\ndescription: A skill.\n---\nDo.`);
    } else if (kind === "name") manifest.push(`name: ${yamlString(hostileName(random))}`);
    else if (kind === "model")
      manifest.push(`model: { provider: openai-compatible, model: m, base_url: ${yamlString(pick(random, HOSTS))} }`);
    else if (kind === "server") {
      manifest.push(`mcp_servers: [{ name: ${yamlString(hostileName(random))}, url: ${yamlString(pick(random, HOSTS))} }]`);
    } else if (kind === "size") files.set(`files/big-${i}.bin`, new Uint8Array(MAX_AGENT_FILE_BYTES + 1));
    else if (kind === "many") for (let n = 0; n <= MAX_AGENT_FILES; n++) files.set(`files/many/${n}.txt`, "");
    else files.set("files/DATA/A.csv", "twin");
  }
  // One key per field: a later change of the same field replaces an earlier one (YAML refuses duplicate keys).
  const fields = new Map(manifest.map((line) => [line.slice(0, line.indexOf(":")), line]));
  if (fields.size) files.set("agent.yaml", [...fields.values()].join("\n") + "\n");
  return { files, changes };
}

/** What an accepted folder must never hold; the first broken promise, or undefined. */
function brokenPromise(agent: AgentDefinition): string | undefined {
  for (const { path } of agent.starterFiles) {
    if (normalizePath(path) !== path) return `starter file ${JSON.stringify(path)} is not a workspace path`;
    if (reservedPlace(path)) return `starter file ${JSON.stringify(path)} is aimed at ${reservedPlace(path)!.prefix}`;
  }
  const skillFolders = agent.skills.map((s) => `${AGENT_SKILLS_DIR}${s.name}/`);
  for (const path of agentSeedFiles(agent).keys()) {
    const place = reservedPlace(path);
    if (place && !skillFolders.some((folder) => path.startsWith(folder))) return `seed file ${JSON.stringify(path)} is in ${place.prefix}`;
  }
  const names = [
    ...agent.files.keys(),
    agent.manifest.name ?? "",
    ...agent.subagents.map((s) => s.name),
    ...agent.skills.map((s) => s.name),
    ...agent.manifest.mcpServers.map((s) => s.name),
    ...agent.manifest.asyncSubagents.map((s) => s.name),
  ];
  const invisible = names.find(hasInvisible);
  if (invisible !== undefined) return `the name ${JSON.stringify(invisible)} holds an invisible character`;
  const sizes = [...agent.files.values()].map((b) => b.length);
  if (sizes.length > MAX_AGENT_FILES || sizes.some((s) => s > MAX_AGENT_FILE_BYTES) || sizes.reduce((a, b) => a + b, 0) > MAX_AGENT_BYTES) {
    return "over the limits";
  }
  const urls = [
    agent.manifest.model?.baseUrl,
    ...agent.subagents.map((s) => s.model?.baseUrl),
    ...agent.manifest.mcpServers.map((s) => s.url),
    ...agent.manifest.asyncSubagents.map((s) => s.url),
  ].filter((u): u is string => u !== undefined);
  const listed = new Set(agentHosts(agent).map((h) => h.origin));
  for (const url of urls) {
    const parsed = new URL(url);
    if (!/^https?:$/.test(parsed.protocol)) return `the URL ${url} is not http(s)`;
    if (parsed.username || parsed.password) return `the URL ${url} carries a user name or password`;
    if (!listed.has(parsed.origin)) return `the host of ${url} is not on the review`;
  }
  return undefined;
}

/** The folder as a zip (its entries as given, hostile names included). */
function asZip(files: Map<string, string | Uint8Array>): Uint8Array {
  const entries: Zippable = {};
  for (const [path, content] of files) entries[path] = typeof content === "string" ? new TextEncoder().encode(content) : content;
  return zipSync(entries, { level: 0 });
}

describe(`property: ${RUNS} hostile agent folders (base seed ${BASE_SEED})`, () => {
  it("are never thrown on; refused naming each problem (no invisible character raw), or accepted keeping every promise", () => {
    let refused = 0;
    let accepted = 0;
    for (let run = 0; run < RUNS; run++) {
      const seed = BASE_SEED + run;
      const { files, changes } = hostileFolder(seededRandom(seed));
      const sources: Array<[string, () => AgentSource]> = [["files", () => ({ files })]];
      // A zip of a folder this large costs more than it finds; a few of every kind are zipped.
      if (run % 4 === 0 && !changes.includes("many") && !changes.includes("size")) sources.push(["zip", () => ({ zip: asZip(files) })]);
      for (const [how, source] of sources) {
        const fail = (why: string, cause?: unknown) =>
          new Error(`seed ${seed} (${how}; ${changes.join(", ")}; paths ${JSON.stringify([...files.keys()].slice(0, 12))}): ${why}`, {
            cause,
          });
        let result: ReturnType<typeof loadAgent>;
        try {
          result = loadAgent(source());
        } catch (cause) {
          throw fail(`the loader threw ${String(cause)}`, cause);
        }
        if (!result.ok) {
          refused++;
          const { problems } = result.error;
          if (problems.length === 0) throw fail("refused without a problem");
          for (const p of problems) {
            if (!p.code || !p.message) throw fail(`a problem without a code or message: ${JSON.stringify(p)}`);
            if (hasInvisible(p.message.replace(/[\n\r\t]/g, " ")) || hasInvisible(p.file ?? "") || hasInvisible(p.field ?? "")) {
              throw fail(`a problem carries an invisible character raw: ${JSON.stringify(p)}`);
            }
          }
          continue;
        }
        accepted++;
        let broken: string | undefined;
        try {
          broken = brokenPromise(result.value);
        } catch (cause) {
          throw fail(`reading the accepted folder threw ${String(cause)}`, cause);
        }
        if (broken) throw fail(`accepted, but ${broken}`);
      }
    }
    // Both sides are exercised.
    expect(refused).toBeGreaterThan(RUNS / 4);
    expect(accepted).toBeGreaterThan(RUNS / 20);
  });
});
