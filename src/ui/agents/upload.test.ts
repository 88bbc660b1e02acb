import { describe, expect, it } from "vitest";
import { checkSize, pickFrom, readPick, type AgentPick } from "./upload.ts";

const file = (name: string, text = "x") => new File([text], name);
const limits = { archiveBytes: 100, folderBytes: 50, files: 3 } as const;

/** A File that says it is `size` bytes without holding them (what a picker hands over for a file on disk). */
function sized(name: string, size: number): File {
  const f = file(name);
  Object.defineProperty(f, "size", { value: size });
  Object.defineProperty(f, "arrayBuffer", { value: () => Promise.reject(new Error("read")) });
  return f;
}

describe("agent uploads", () => {
  it("takes one .zip or .json as an archive, and refuses any other single file by name", () => {
    expect(pickFrom([{ path: "a.zip", file: file("a.zip") }], false)).toMatchObject({ ok: true, value: { kind: "zip" } });
    expect(pickFrom([{ path: "A.JSON", file: file("A.JSON") }], false)).toMatchObject({ ok: true, value: { kind: "bundle" } });
    const refused = pickFrom([{ path: "notes.txt", file: file("notes.txt") }], false);
    expect(refused).toMatchObject({ ok: false, error: { code: "invalid_agent" } });
    expect(!refused.ok && refused.error.message).toContain("“notes.txt” is not an agent");
    expect(pickFrom([], false)).toMatchObject({ ok: false, error: { code: "invalid_agent" } });
  });

  it("drops a picked or dropped folder's own name from its paths, and keeps loose files as they are", () => {
    const picked = pickFrom(
      [
        { path: "my-agent/AGENTS.md", file: file("AGENTS.md") },
        { path: "my-agent/agents/critic.md", file: file("critic.md") },
      ],
      true,
    );
    expect(picked.ok && "folder" in picked.value && picked.value.folder.map((f) => f.path)).toEqual(["AGENTS.md", "agents/critic.md"]);
    // A picked folder holding just a zip is still a folder.
    const lone = pickFrom([{ path: "my-agent/agent.zip", file: file("agent.zip") }], true);
    expect(lone.ok && "folder" in lone.value && lone.value.folder.map((f) => f.path)).toEqual(["agent.zip"]);
    const loose = pickFrom(
      [
        { path: "AGENTS.md", file: file("AGENTS.md") },
        { path: "agent.yaml", file: file("agent.yaml") },
      ],
      false,
    );
    expect(loose.ok && "folder" in loose.value && loose.value.folder.map((f) => f.path)).toEqual(["AGENTS.md", "agent.yaml"]);
  });

  it("refuses what is too large from sizes alone, before reading a byte", () => {
    const big: AgentPick = { archive: sized("big.zip", 200 * 1024 * 1024), kind: "zip" };
    const refused = checkSize(big);
    expect(refused).toMatchObject({ ok: false, error: { code: "too_large" } });
    expect(!refused.ok && refused.error.message).toBe(
      "“big.zip” is 200.0 MB; an agent's zip or bundle may be at most 80.0 MB. Nothing was read or stored.",
    );
    const many: AgentPick = { folder: ["a", "b", "c", "d"].map((n) => ({ path: n, file: file(n) })) };
    expect(checkSize(many, limits)).toMatchObject({ ok: false, error: { code: "too_large" } });
    const heavy: AgentPick = { folder: [{ path: "a", file: sized("a", 51) }] };
    const folder = checkSize(heavy, limits);
    expect(!folder.ok && folder.error.message).toBe("The folder holds 51 B; an agent may hold at most 50 B. Nothing was read or stored.");
    const fine: AgentPick = { folder: [{ path: "AGENTS.md", file: file("AGENTS.md", "hi") }] };
    expect(checkSize(fine, limits)).toEqual({ ok: true, value: fine });
  });

  it("reads a folder's files and an archive into the upload the worker takes", async () => {
    const folder = await readPick({ folder: [{ path: "AGENTS.md", file: file("AGENTS.md", "hi") }] });
    expect(folder).toEqual({ files: [{ path: "AGENTS.md", content: new TextEncoder().encode("hi") }] });
    expect(await readPick({ archive: file("a.json", "{}"), kind: "bundle" })).toEqual({ bundle: new TextEncoder().encode("{}") });
  });
});
