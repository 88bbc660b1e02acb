/**
 * One conformance suite for every backend: the same behaviours, error codes
 * and edge cases (unicode, binary, spaces, empty and 1 MB files), run in Node
 * and in Chromium against each implementation.
 */
import { InMemoryStore } from "@langchain/langgraph/web";
import { describe, expect, it } from "vitest";
import { CompositeBackend } from "../backends/composite.ts";
import { MAX_FILE_WRITE_BYTES } from "../backends/file-ops.ts";
import { isBackendError, type BackendProtocol, type Outcome } from "../backends/protocol.ts";
import { createBackendRuntime } from "../backends/runtime.ts";
import { StateBackend } from "../backends/state.ts";
import { StepFiles } from "../backends/step-files.ts";
import { StoreBackend } from "../backends/store.ts";
import { FIXED_NOW } from "./runtime.ts";

export type BackendMaker = () => Promise<BackendProtocol> | BackendProtocol;

function ok<T>(value: Outcome<T>): T {
  if (isBackendError(value)) throw new Error(`expected success, got ${value.error}: ${value.message}`);
  return value;
}

function code<T>(value: Outcome<T>): string | undefined {
  return isBackendError(value) ? value.error : undefined;
}

/** Two backends over one storage as two tool calls of one AI message get them. */
export type StepMaker = () => Promise<[BackendProtocol, BackendProtocol]> | [BackendProtocol, BackendProtocol];

export interface ConformanceOptions {
  /** Entries a backend lists at "/" besides the suite's own (a composite's routes). */
  rootExtras?: string[];
  /** For backends whose calls of one step see the storage through separate views (StateBackend); default: one backend twice. */
  step?: StepMaker;
}

/** Two StateBackends as two calls of one step get them: one view of the step's files, separate pending updates. */
export function stateStep(): [StateBackend, StateBackend] {
  const files = new StepFiles({});
  const call = () => new StateBackend(createBackendRuntime({}, {}, () => FIXED_NOW, files));
  return [call(), call()];
}

/**
 * The six cases of deepagentsjs' sandbox standard tests (libs/standard-tests) that ShellBackend did not pass, each as
 * Python deepagents 0.7 answers it: passed where Python agrees with upstream JS, kept (and said why) where it does not.
 */
const SANDBOX_PEER_ROWS: { name: string; check: (b: BackendProtocol) => Promise<void> }[] = [
  {
    name: "read with limit=0 reads no lines (upstream: empty content; Python: a non-positive limit reads nothing)",
    check: async (b) => {
      ok(await b.write("/rd.txt", "Line 1\nLine 2\nLine 3"));
      expect(ok(await b.read("/rd.txt", 0, 0))).toEqual({ lines: [], offset: 0, totalLines: 3 });
      expect(ok(await b.read("/rd.txt", 1, 0)).lines).toEqual([]);
    },
  },
  {
    name: "edit with identical strings succeeds and changes nothing (upstream and Python: counted occurrences, no error)",
    check: async (b) => {
      ok(await b.write("/same.txt", "Same text"));
      expect(ok(await b.edit("/same.txt", "Same text", "Same text"))).toEqual({ path: "/same.txt", occurrences: 1 });
      expect(ok(await b.read("/same.txt")).lines).toEqual(["Same text"]);
      // Python counts first: a string found twice still needs replace_all.
      ok(await b.write("/twice.txt", "a a"));
      expect(code(await b.edit("/twice.txt", "a", "a"))).toBe("not_unique");
      expect(ok(await b.edit("/twice.txt", "a", "a", true))).toEqual({ path: "/twice.txt", occurrences: 2 });
    },
  },
  {
    name: "ls of a missing directory is an error, as Python's (`path_not_found`), not upstream JS's empty list",
    check: async (b) => {
      expect(code(await b.ls("/li-does-not-exist-12345"))).toBe("file_not_found");
    },
  },
  {
    name: "glob answers absolute paths, as Python's (its permission rules match absolute paths), not relative to the folder",
    check: async (b) => {
      ok(await b.write("/gl-basic/file1.txt", "c"));
      ok(await b.write("/gl-basic/file3.py", "c"));
      expect(ok(await b.glob("*.txt", "/gl-basic")).map((f) => f.path)).toEqual(["/gl-basic/file1.txt"]);
    },
  },
  {
    name: "glob lists files only, as Python's (only regular files are emitted), not upstream JS's directories too",
    check: async (b) => {
      ok(await b.write("/gl-dirs/dir1/in.txt", "c"));
      ok(await b.write("/gl-dirs/file.txt", "c"));
      expect(ok(await b.glob("*", "/gl-dirs")).map((f) => [f.path, f.isDir])).toEqual([["/gl-dirs/file.txt", false]]);
    },
  },
  {
    name: "glob character classes: [1-2], [!1-2] and [^1-2] (negation, as Python's and bash's)",
    check: async (b) => {
      for (const f of ["file1.txt", "file2.txt", "file3.txt", "fileA.txt"]) ok(await b.write(`/gl-cc/${f}`, "c"));
      const names = async (pattern: string) => ok(await b.glob(pattern, "/gl-cc")).map((f) => f.path.slice("/gl-cc/".length));
      expect(await names("file[1-2].txt")).toEqual(["file1.txt", "file2.txt"]);
      expect(await names("file[!1-2].txt")).toEqual(["file3.txt", "fileA.txt"]);
      expect(await names("file[^1-2].txt")).toEqual(["file3.txt", "fileA.txt"]);
    },
  },
];

export function backendConformance(name: string, make: BackendMaker, options: ConformanceOptions = {}): void {
  const extras = new Set(options.rootExtras ?? []);
  const step: StepMaker =
    options.step ??
    (async () => {
      const b = await make();
      return [b, b];
    });
  describe(`backend conformance: ${name}`, () => {
    it("writes and reads", async () => {
      const b = await make();
      expect(ok(await b.write("/a.txt", "one\ntwo\nthree\n"))).toEqual({ path: "/a.txt" });
      expect(ok(await b.read("/a.txt"))).toStrictEqual({
        lines: ["one", "two", "three"],
        offset: 0,
        totalLines: 3,
        startLine: 1,
        endLine: 3,
      });
      expect(ok(await b.read("/a.txt", 1, 1)).lines).toEqual(["two"]);
    });

    it("says which lines a read returned and where to read on (deepagentsjs 1.13.2 ReadResult)", async () => {
      const b = await make();
      ok(await b.write("/w.txt", "l1\nl2\nl3\nl4\nl5\n"));
      const window = (slice: Awaited<ReturnType<BackendProtocol["read"]>>) => {
        const { totalLines, startLine, endLine, nextOffset } = ok(slice);
        return { totalLines, startLine, endLine, nextOffset };
      };
      expect(window(await b.read("/w.txt", 0, 2))).toStrictEqual({ totalLines: 5, startLine: 1, endLine: 2, nextOffset: 2 });
      expect(window(await b.read("/w.txt", 2, 2))).toStrictEqual({ totalLines: 5, startLine: 3, endLine: 4, nextOffset: 4 });
      // The last window reaches the end: no next offset.
      expect(window(await b.read("/w.txt", 4, 2))).toStrictEqual({ totalLines: 5, startLine: 5, endLine: 5, nextOffset: undefined });
      expect(window(await b.read("/w.txt", 0, 100))).toStrictEqual({ totalLines: 5, startLine: 1, endLine: 5, nextOffset: undefined });
      // Past the end, or an empty file: no lines, so no window.
      expect(window(await b.read("/w.txt", 9, 2))).toStrictEqual({
        totalLines: 5,
        startLine: undefined,
        endLine: undefined,
        nextOffset: undefined,
      });
      ok(await b.write("/w0.txt", ""));
      expect(window(await b.read("/w0.txt"))).toStrictEqual({
        totalLines: 0,
        startLine: undefined,
        endLine: undefined,
        nextOffset: undefined,
      });
    });

    it("write_file overwrites an existing file (deepagentsjs #674): replaced entirely, nothing of the old text left", async () => {
      const b = await make();
      ok(await b.write("/a.txt", "one\ntwo\nthree\n"));
      expect(ok(await b.write("/a.txt", "again"))).toEqual({ path: "/a.txt" });
      expect(ok(await b.read("/a.txt"))).toStrictEqual({ lines: ["again"], offset: 0, totalLines: 1, startLine: 1, endLine: 1 });
      expect(ok(await b.ls("/a.txt"))).toMatchObject([{ path: "/a.txt", isDir: false, size: 5 }]);
      expect(ok(await b.write("/a.txt", ""))).toEqual({ path: "/a.txt" });
      expect(ok(await b.read("/a.txt")).totalLines).toBe(0);
      // Still never a file where a directory is, nor one past the size cap over an existing file.
      ok(await b.write("/d/in.md", "x"));
      expect(code(await b.write("/d", "over a folder"))).toBe("is_directory");
      expect(code(await b.write("/a.txt", "x".repeat(MAX_FILE_WRITE_BYTES + 1)))).toBe("file_too_large");
      expect(ok(await b.read("/a.txt")).totalLines).toBe(0);
    });

    it("edits with unique or all matches", async () => {
      const b = await make();
      ok(await b.write("/e.txt", "x y x"));
      expect(await b.edit("/e.txt", "x", "z")).toEqual({
        error: "not_unique",
        // deepagentsjs' wording (backends/utils.ts performStringReplacement).
        message:
          "Error: String 'x' has multiple occurrences (appears 2 times) in file. " +
          "Use replace_all=True to replace all instances, or provide a more specific string with surrounding context.",
      });
      expect(ok(await b.edit("/e.txt", "y", "w"))).toEqual({ path: "/e.txt", occurrences: 1 });
      expect(ok(await b.edit("/e.txt", "x", "z", true))).toEqual({ path: "/e.txt", occurrences: 2 });
      expect(ok(await b.read("/e.txt")).lines).toEqual(["z w z"]);
      expect(code(await b.edit("/e.txt", "absent", "q"))).toBe("string_not_found");
      expect(code(await b.edit("/missing.txt", "a", "b"))).toBe("file_not_found");
    });

    it("lists direct children with implied directories", async () => {
      const b = await make();
      ok(await b.write("/d/one.md", "1"));
      ok(await b.write("/d/sub/two.md", "2"));
      ok(await b.write("/top.md", "t"));
      const root = ok(await b.ls("/")).filter((f) => !extras.has(f.path));
      expect(root.map((f) => [f.path, f.isDir])).toEqual([
        ["/d", true],
        ["/top.md", false],
      ]);
      const d = ok(await b.ls("/d"));
      expect(d.map((f) => [f.path, f.isDir])).toEqual([
        ["/d/one.md", false],
        ["/d/sub", true],
      ]);
      expect(d[0]!.size).toBe(1);
      expect(code(await b.ls("/nowhere"))).toBe("file_not_found");
    });

    it("globs and greps literally", async () => {
      const b = await make();
      ok(await b.write("/src/a.ts", "const a = 1; // TODO(x)\n"));
      ok(await b.write("/src/deep/b.ts", "no\nTODO(x) here\n"));
      ok(await b.write("/notes.md", "TODO(x) in md\n"));
      expect(ok(await b.glob("**/*.ts")).map((f) => f.path)).toEqual(["/src/a.ts", "/src/deep/b.ts"]);
      expect(ok(await b.glob("*.md")).map((f) => f.path)).toEqual(["/notes.md"]);
      expect(ok(await b.glob("*.ts", "/src")).map((f) => f.path)).toEqual(["/src/a.ts"]);
      const all = ok(await b.grep("TODO(x)"));
      expect(all.map((m) => [m.path, m.line])).toEqual([
        ["/notes.md", 1],
        ["/src/a.ts", 1],
        ["/src/deep/b.ts", 2],
      ]);
      expect(ok(await b.grep("TODO(x)", "/src", "*.ts")).map((m) => m.path)).toEqual(["/src/a.ts", "/src/deep/b.ts"]);
      expect(ok(await b.grep(".*"))).toEqual([]);
    });

    it("deletes files", async () => {
      const b = await make();
      if (!b.delete) return expect(b.delete).toBeUndefined();
      ok(await b.write("/gone.md", "x"));
      expect(ok(await b.delete("/gone.md"))).toEqual({ path: "/gone.md" });
      expect(code(await b.read("/gone.md"))).toBe("file_not_found");
      expect(code(await b.delete("/gone.md"))).toBe("file_not_found");
      ok(await b.write("/gone.md", "back"));
      expect(ok(await b.read("/gone.md")).lines).toEqual(["back"]);
    });

    it("delete removes directories recursively (deepagentsjs 1.13), and only what is below the path", async () => {
      const b = await make();
      if (!b.delete) return expect(b.delete).toBeUndefined();
      ok(await b.write("/tree/a.md", "a"));
      ok(await b.write("/tree/sub/b.md", "b"));
      ok(await b.write("/tree/sub/deep/c.md", "c"));
      ok(await b.write("/treehouse.md", "a sibling whose name starts like the folder"));
      ok(await b.write("/tree2/keep.md", "k"));
      expect(ok(await b.delete("/tree/sub/"))).toEqual({ path: "/tree/sub" });
      expect(ok(await b.ls("/tree")).map((f) => f.path)).toEqual(["/tree/a.md"]);
      expect(ok(await b.delete("/tree"))).toEqual({ path: "/tree" });
      expect(code(await b.ls("/tree"))).toBe("file_not_found");
      expect(code(await b.read("/tree/sub/deep/c.md"))).toBe("file_not_found");
      expect(ok(await b.glob("**/*.md")).map((f) => f.path)).toEqual(["/tree2/keep.md", "/treehouse.md"]);
      expect(await b.delete("/tree")).toEqual({ error: "file_not_found", message: "Error: File '/tree' not found" });
      expect(code(await b.delete("relative/dir"))).toBe("invalid_path");
    });

    it("a refused recursive delete removes nothing (the refuse hook sees every file first)", async () => {
      const b = await make();
      if (!b.delete) return expect(b.delete).toBeUndefined();
      ok(await b.write("/keep/a.md", "a"));
      ok(await b.write("/keep/inner/secret.md", "s"));
      const seen: string[][] = [];
      const refusal = { error: "permission_denied" as const, message: "Error: refused" };
      const res = await b.delete("/keep", {
        refuse: (paths) => {
          seen.push([...paths]);
          return paths.includes("/keep/inner/secret.md") ? refusal : undefined;
        },
      });
      expect(res).toEqual(refusal);
      expect(seen).toEqual([["/keep/a.md", "/keep/inner/secret.md"]]);
      expect(ok(await b.glob("**", "/keep")).map((f) => f.path)).toEqual(["/keep/a.md", "/keep/inner/secret.md"]);
      seen.length = 0;
      expect(ok(await b.delete("/keep/a.md", { refuse: (paths) => void seen.push([...paths]) }))).toEqual({ path: "/keep/a.md" });
      expect(seen).toEqual([["/keep/a.md"]]);
    });

    it("returns error codes for bad paths and directories", async () => {
      const b = await make();
      ok(await b.write("/dir/f.md", "x"));
      for (const bad of ["relative.md", "/a/../b", "~/x", "C:\\x", ""]) {
        expect(code(await b.read(bad)), bad).toBe("invalid_path");
        expect(code(await b.write(bad, "x")), bad).toBe("invalid_path");
      }
      expect(code(await b.read("/dir"))).toBe("is_directory");
      expect(code(await b.write("/dir", "x"))).toBe("is_directory");
      expect(code(await b.read("/nope.md"))).toBe("file_not_found");
    });

    it("never lets one path be a file and a directory, across the calls of one step too", async () => {
      const [first, second] = await step();
      ok(await first.write("/dir/f.md", "below"));
      expect(code(await second.write("/dir", "a file named like the folder"))).toBe("is_directory");
      ok(await first.write("/plain.md", "a file"));
      const below = await second.write("/plain.md/child.md", "below a file");
      expect(below).toEqual({
        error: "invalid_path",
        message: "Error: Cannot create '/plain.md/child.md': '/plain.md' is a file, not a directory.",
      });
      expect(code(await second.read("/dir"))).toBe("is_directory");
      expect(ok(await second.read("/dir/f.md")).lines).toEqual(["below"]);
      expect(
        ok(await first.ls("/"))
          .filter((f) => !extras.has(f.path))
          .map((f) => [f.path, f.isDir]),
      ).toEqual([
        ["/dir", true],
        ["/plain.md", false],
      ]);
    });

    it("keeps unicode, spaces in paths and empty files", async () => {
      const b = await make();
      ok(await b.write("/über dir/日本 語.md", "héllo ✓ 🚀\nzweite Zeile"));
      expect(ok(await b.read("/über dir/日本 語.md")).lines).toEqual(["héllo ✓ 🚀", "zweite Zeile"]);
      expect(ok(await b.grep("🚀")).map((m) => m.path)).toEqual(["/über dir/日本 語.md"]);
      ok(await b.write("/empty.txt", ""));
      expect(ok(await b.read("/empty.txt"))).toStrictEqual({ lines: [], offset: 0, totalLines: 0 });
      expect(ok(await b.ls("/")).find((f) => f.path === "/empty.txt")?.size).toBe(0);
    });

    it("round-trips binary and text through upload/download", async () => {
      const b = await make();
      if (!b.uploadFiles || !b.downloadFiles) return expect(b.uploadFiles).toBeUndefined();
      const binary = new Uint8Array(256).map((_, i) => i);
      const text = new TextEncoder().encode("plain ✓");
      expect(
        await b.uploadFiles([
          { path: "/bin.dat", content: binary },
          { path: "/t.txt", content: text },
          { path: "bad", content: text },
        ]),
      ).toEqual([{ path: "/bin.dat" }, { path: "/t.txt" }, { path: "bad", error: "invalid_path" }]);
      const [bin, txt, missing] = await b.downloadFiles(["/bin.dat", "/t.txt", "/missing"]);
      expect(Array.from(bin!.content!)).toEqual(Array.from(binary));
      expect(new TextDecoder().decode(txt!.content)).toBe("plain ✓");
      expect(missing!.error).toBe("file_not_found");
      expect(ok(await b.read("/t.txt")).lines).toEqual(["plain ✓"]);
      expect(code(await b.read("/bin.dat"))).toBe("invalid_argument");
    });

    it("handles a 1 MB file", async () => {
      const b = await make();
      const line = "0123456789".repeat(10);
      const content = Array.from({ length: 10_486 }, (_, i) => `${i}:${line}`).join("\n");
      expect(content.length).toBeGreaterThan(1_000_000);
      ok(await b.write("/big.txt", content));
      const slice = ok(await b.read("/big.txt", 10_000, 5));
      expect(slice.totalLines).toBe(10_486);
      expect(slice.lines[0]).toBe(`10000:${line}`);
      expect(ok(await b.grep("10485:")).map((m) => m.line)).toEqual([10_486]);
      ok(await b.edit("/big.txt", `10485:${line}`, "last"));
      expect(ok(await b.read("/big.txt", 10_485, 1)).lines).toEqual(["last"]);
    });

    it("refuses a write or an edit past the file-size cap (file_too_large) and keeps the file as it was", async () => {
      const b = await make();
      expect(await b.write("/huge.txt", "é".repeat(MAX_FILE_WRITE_BYTES / 2 + 1))).toMatchObject({
        error: "file_too_large",
        message:
          "Error: '/huge.txt' would be 10 MB; a file may hold at most 10 MB. Nothing was written. " +
          "Write smaller files (split the content), or make a smaller change.",
      });
      expect(code(await b.read("/huge.txt"))).toBe("file_not_found");
      ok(await b.write("/at-cap.txt", "x".repeat(MAX_FILE_WRITE_BYTES)));
      // The edit: a 20 KB replace_all over 5,000 matches would make a 100 MB file.
      ok(await b.write("/e.txt", "ab\n".repeat(5_000)));
      expect(await b.edit("/e.txt", "ab", "y".repeat(20_000), true)).toMatchObject({
        error: "file_too_large",
        message: expect.stringMatching(/^Error: '\/e.txt' would be 95.4 MB; a file may hold at most 10 MB\. Nothing was written\./),
      });
      const kept = ok(await b.read("/e.txt", 0, 10_000));
      expect(kept.totalLines).toBe(5_000);
      expect(new Set(kept.lines)).toEqual(new Set(["ab"]));
    });

    it.each(SANDBOX_PEER_ROWS)("deepagentsjs sandbox standard tests: $name", async ({ check }) => {
      await check(await make());
    });
  });
}

/**
 * The suite over StoreBackend on an InMemoryStore and over a CompositeBackend
 * each way round (state default with a store route, store default with a state
 * route): the same cases in Node and in Chromium, where `where` ("Chromium")
 * is added to their names.
 */
export function inMemoryConformance(where?: string): void {
  const tag = where ? `, ${where}` : "";
  const state = () => new StateBackend(createBackendRuntime({}, {}, () => FIXED_NOW));
  const store = (namespace: string) => new StoreBackend(new InMemoryStore(), [namespace], () => FIXED_NOW);
  const stateDefault = () => new CompositeBackend(state(), { "/memories/": store("m") });
  const storeDefault = () => new CompositeBackend(store("d"), { "/r/": state() });
  /** Both calls of the step route to one store and to one view of the step's state files. */
  const compositeStep = (route: (s: StateBackend, st: StoreBackend) => CompositeBackend) => () => {
    const shared = store("s");
    return stateStep().map((s) => route(s, shared)) as [CompositeBackend, CompositeBackend];
  };
  backendConformance(`StoreBackend (InMemoryStore${tag})`, () => store("fs"));
  backendConformance(`CompositeBackend (state default, store route${tag})`, stateDefault, {
    rootExtras: ["/memories"],
    step: compositeStep((s, st) => new CompositeBackend(s, { "/memories/": st })),
  });
  backendConformance(`CompositeBackend (store default, state route${tag})`, storeDefault, {
    rootExtras: ["/r"],
    step: compositeStep((s, st) => new CompositeBackend(st, { "/r/": s })),
  });
}
