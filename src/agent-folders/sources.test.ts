import { createHash } from "node:crypto";
import { strToU8, zipSync, type Zippable } from "fflate";
import { describe, expect, it } from "vitest";
import { agentBundle, parseAgentBundle } from "./bundle.ts";
import { readAgentFiles, type AgentFiles } from "./file-map.ts";
import { agentChecksums, hashAgentFiles } from "./hash.ts";
import { loadAgent } from "./load.ts";
import type { AgentFolderError } from "./problems.ts";
import { unzipAgent, zipAgent } from "./zip.ts";

const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0xfe]);

/** A small agent folder: text with a BOM, non-ASCII names, a binary file. */
function folder(): AgentFiles {
  const files = readAgentFiles({
    "AGENTS.md": "\uFEFFBe brief.\n",
    "agent.yaml": "name: Sample\nsuggestions: [Hi]\n",
    "agents/critic.md": "---\ndescription: Checks.\n---\nCheck it.",
    "files/café/logo.png": png,
    "files/notes.md": "# Notes\n",
  });
  if (!files.ok) throw new Error(files.error.message);
  return files.value;
}

function refusedBy(result: { ok: boolean; error?: AgentFolderError }): AgentFolderError {
  expect(result.ok).toBe(false);
  return result.error!;
}

/** Sets a 32-bit field (its offset in the header) of the last central-directory header to `value`: a forged size. */
function patchCentral(zip: Uint8Array, field: number, value: number): Uint8Array {
  const out = zip.slice();
  const view = new DataView(out.buffer);
  let last = -1;
  for (let at = 0; at + 4 <= out.length; at++) if (view.getUint32(at, true) === 0x02014b50) last = at;
  view.setUint32(last + field, value, true);
  return out;
}

describe("agent folders from a zip", () => {
  it("round-trips through zipAgent, unwrapping the one top folder, to the same files and hash", async () => {
    const files = folder();
    const zip = zipAgent(files, "sample");
    expect(zipAgent(files, "sample")).toEqual(zip);
    const back = unzipAgent(zip);
    expect(back.ok && [...back.value]).toEqual([...files]);
    expect(await hashAgentFiles((back as { value: AgentFiles }).value)).toBe(await hashAgentFiles(files));
    const agent = loadAgent({ zip });
    expect(agent.ok && agent.value.manifest.name).toBe("Sample");
  });

  it("reads GitHub's Download ZIP shape (a repo-main/ folder, directory entries, macOS litter)", () => {
    const zip = zipSync({
      "my-agent-main/": new Uint8Array(0),
      "my-agent-main/AGENTS.md": strToU8("Hi."),
      "my-agent-main/skills/": new Uint8Array(0),
      "my-agent-main/skills/report/SKILL.md": strToU8("---\nname: report\ndescription: Reports.\n---\n"),
      "__MACOSX/my-agent-main/._AGENTS.md": strToU8("junk"),
      "my-agent-main/.DS_Store": strToU8("junk"),
    });
    const agent = loadAgent({ zip });
    if (!agent.ok) throw new Error(agent.error.message);
    expect([...agent.value.files.keys()]).toEqual(["AGENTS.md", "skills/report/SKILL.md"]);
    expect(agent.value.skills.map((s) => s.name)).toEqual(["report"]);
  });

  it("a zip entry's name with a bidi override is shown escaped in every problem (a symlink named gpj<U+202E>exe.sh)", () => {
    const zip = zipSync({
      "AGENTS.md": strToU8("x"),
      "gpj\u202Eexe.sh": [strToU8("/etc/passwd"), { os: 3, attrs: 0o120777 << 16 }],
    } as Zippable);
    const error = refusedBy(loadAgent({ zip }));
    expect(error.problems.map((p) => [p.code, p.file])).toEqual([["symlink", "gpj<U+202E>exe.sh"]]);
    expect(error.message).toContain("gpj<U+202E>exe.sh: a symbolic link");
    expect(JSON.stringify(error)).not.toContain("\u202E");
  });

  it("refuses path traversal, absolute paths and symbolic links, storing nothing", () => {
    const zip = zipSync({
      "AGENTS.md": strToU8("x"),
      "../../evil.sh": strToU8("rm -rf /"),
      "/etc/cron.d/x": strToU8("x"),
      link: [strToU8("/etc/passwd"), { os: 3, attrs: 0o120777 << 16 }],
    } as Zippable);
    const error = refusedBy(loadAgent({ zip }));
    expect(error.problems.map((p) => [p.code, p.file])).toEqual([["symlink", "link"]]);
    const noLink = refusedBy(
      loadAgent({ zip: zipSync({ "AGENTS.md": strToU8("x"), "../../evil.sh": strToU8("x"), "/etc/x": strToU8("x") }) }),
    );
    expect(noLink.problems.map((p) => p.code)).toEqual(["unsafe_path", "unsafe_path"]);
    expect(noLink.problems[0]!.message).toBe("../../evil.sh: '..' would reach outside the agent folder");
  });

  it("refuses 10,000 files before reading any", () => {
    const many: Zippable = { "AGENTS.md": strToU8("x") };
    for (let i = 0; i < 10_000; i++) many[`files/${i}.txt`] = new Uint8Array(0);
    const error = refusedBy(loadAgent({ zip: zipSync(many, { level: 0 }) }));
    expect(error.problems).toEqual([expect.objectContaining({ code: "too_large" })]);
    expect(error.message).toContain("the zip holds 10,001 entries; an agent holds at most 2,000 files");
  });

  it("refuses a 200 MB file by its declared size, and a zip bomb that lies about its size as soon as it passes it", () => {
    const zip = zipSync({ "AGENTS.md": strToU8("x"), "files/big.bin": new Uint8Array(1000) });
    const declared = patchCentral(zip, 24, 200 * 1024 * 1024);
    const error = refusedBy(loadAgent({ zip: declared }));
    expect(error.problems.map((p) => p.message)).toEqual([
      "files/big.bin: 200 MiB; one file holds at most 10 MiB",
      "the zip expands to 200 MiB; an agent holds at most 50 MiB",
    ]);
    const bomb = patchCentral(zipSync({ "files/zeros.bin": new Uint8Array(5 * 1024 * 1024) }), 24, 1000);
    expect(refusedBy(loadAgent({ zip: bomb })).problems[0]!.message).toContain("expands past the 1,000 bytes the zip declares for it");
  });

  it("refuses what is not a zip, a damaged entry, and invalid YAML inside, with clear messages", () => {
    expect(refusedBy(loadAgent({ zip: strToU8("hello") })).problems[0]!.message).toBe(
      "not a zip file (no end-of-central-directory record)",
    );
    const stored = zipSync({ "AGENTS.md": strToU8("Hello there") }, { level: 0 });
    // Found by bytes: decoding as UTF-8 would shift the index when the header's date bytes are not valid UTF-8.
    const at = Buffer.from(stored).indexOf("Hello there");
    expect(at).toBeGreaterThan(0);
    stored[at] = "J".charCodeAt(0);
    expect(refusedBy(loadAgent({ zip: stored })).problems[0]!.message).toBe("AGENTS.md: its checksum does not match (a damaged download?)");
    const yaml = refusedBy(loadAgent({ zip: zipSync({ "agent.yaml": strToU8("name: [unclosed") }) }));
    expect(yaml.problems.map((p) => [p.code, p.file])).toEqual([["invalid_yaml", "agent.yaml"]]);
  });
});

describe("agent folders as a JSON bundle", () => {
  it("round-trips text (a BOM kept) and binary files byte for byte, with the same hash", async () => {
    const files = folder();
    const json = agentBundle(files, "Sample");
    const data = JSON.parse(json) as { format: string; version: number; files: Array<{ path: string; text?: string; base64?: string }> };
    expect(data).toMatchObject({ format: "deeptab-agent", version: 1, name: "Sample" });
    expect(data.files.find((f) => f.path === "files/café/logo.png")).toEqual({ path: "files/café/logo.png", base64: "iVBORw0KGgoA//4=" });
    expect(data.files[0]).toEqual({ path: "AGENTS.md", text: "\uFEFFBe brief.\n" });
    const back = parseAgentBundle(json);
    expect(back.ok && [...back.value]).toEqual([...files]);
    expect(await hashAgentFiles((back as { value: AgentFiles }).value)).toBe(await hashAgentFiles(files));
    const agent = loadAgent({ bundle: new TextEncoder().encode(json) });
    expect(agent.ok && agent.value.instructions).toBe("Be brief.");
  });

  it("refuses a wrong format or version, bad base64, unknown entry fields and unsafe paths, naming the field", () => {
    const bundle = (files: unknown, extra: object = {}) => JSON.stringify({ format: "deeptab-agent", version: 1, files, ...extra });
    expect(refusedBy(loadAgent({ bundle: "{" })).problems[0]!.code).toBe("invalid_bundle");
    expect(refusedBy(loadAgent({ bundle: bundle([], { version: 2 }) })).problems[0]!.message).toBe(
      'version: "version" must be 1 (a newer deeptab wrote this bundle?)',
    );
    const error = refusedBy(
      loadAgent({
        bundle: bundle([
          { path: "AGENTS.md", text: "x" },
          { path: "files/a.bin", base64: "###" },
          { path: "b", text: "x", mode: 7 },
        ]),
      }),
    );
    expect(error.problems.map((p) => [p.code, p.field])).toEqual([
      ["invalid_bundle", "files.1.base64"],
      ["invalid_bundle", "files.2"],
    ]);
    const unsafe = refusedBy(
      loadAgent({
        bundle: bundle([
          { path: "AGENTS.md", text: "x" },
          { path: "../x", text: "x" },
        ]),
      }),
    );
    expect(unsafe.problems.map((p) => p.code)).toEqual(["unsafe_path"]);
  });
});

describe("agent folders: the files of any source", () => {
  it("refuses paths that collide on some system, a file that is also a folder, control characters and long paths", () => {
    const error = refusedBy(
      readAgentFiles([
        ["AGENTS.md", "x"],
        ["files/cafe\u0301.md", "1"],
        ["files/café.md", "2"],
        ["files/data", "3"],
        ["files/data/a.csv", "4"],
        ["files/a\u0000b", "5"],
        [`files/${"x".repeat(1100)}`, "6"],
      ]),
    );
    expect(error.problems.map((p) => [p.code, p.message])).toEqual([
      [
        "duplicate_path",
        "files/café.md: appears twice, its name written in two Unicode forms (composed and decomposed accents): one file on some systems",
      ],
      ["unsafe_path", "files/a\\u0000b: control characters (NUL included) are not allowed in paths"],
      ["too_large", expect.stringMatching(/^files\/x{54}…: the path is longer than 1024 characters$/)],
      ["duplicate_path", "files/data/a.csv: 'files/data' is both a file and a folder"],
    ]);
  });

  it("counts files before reading any, and leaves archivers' litter out", () => {
    const many = Array.from({ length: 2_001 }, (_, i): [string, string] => [`files/${i}`, ""]);
    expect(refusedBy(readAgentFiles(many)).message).toBe("This agent cannot be opened: 2,001 files; an agent holds at most 2,000");
    const litter = readAgentFiles({ ".DS_Store": "x", "__MACOSX/._AGENTS.md": "x", "AGENTS.md": "x", "files/Thumbs.db": "x" });
    expect(litter.ok && [...litter.value.keys()]).toEqual(["AGENTS.md"]);
    expect(refusedBy(loadAgent({ files: { ".DS_Store": "x" } })).problems[0]!.code).toBe("no_agent");
  });
});

describe("agent folders: the content hash", () => {
  it("is the SHA-256 of the folder's sha256sum listing, whatever order or Unicode form the paths came in", async () => {
    const files = folder();
    const listing = [...files]
      .map(([path, bytes]) => `${createHash("sha256").update(bytes).digest("hex")}  ${path}\n`)
      .sort((a, b) => (a.slice(66) < b.slice(66) ? -1 : 1))
      .join("");
    expect(await agentChecksums(files)).toBe(listing);
    expect(await hashAgentFiles(files)).toBe(createHash("sha256").update(listing).digest("hex"));
    const shuffled = readAgentFiles([...files].reverse().map(([p, b]) => [p.normalize("NFD"), b] as const));
    expect(await hashAgentFiles((shuffled as { value: AgentFiles }).value)).toBe(await hashAgentFiles(files));
    const changed = new Map(files);
    changed.set("files/notes.md", strToU8("# Notes!\n"));
    expect(await hashAgentFiles(changed)).not.toBe(await hashAgentFiles(files));
  });
});
