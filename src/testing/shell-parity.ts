/**
 * The offline shell and the file tools on one tree, as in deepagentsjs' sandboxes (a sandbox's file operations
 * and its commands share one filesystem): `/tmp` written either way is seen the other way, and a directory made
 * with `mkdir`, even an empty one, is listed by `ls` and known to the file API. Run in Node (shell.test.ts) and
 * in Chromium over the app's filesystem (shell.browser.test.ts).
 */
import { describe, expect, it } from "vitest";
import { isBackendError, type FileInfo, type Outcome, type SandboxBackendProtocol } from "../backends/protocol.ts";
import type { ShellBackend } from "../backends/sandbox/shell.ts";

function ok<T>(value: Outcome<T>): T {
  if (isBackendError(value)) throw new Error(`expected success, got ${value.error}: ${value.message}`);
  return value;
}

const code = <T>(value: Outcome<T>): string | undefined => (isBackendError(value) ? value.error : undefined);
const dirs = (listed: FileInfo[]) => listed.filter((f) => f.isDir).map((f) => f.path);

export function shellParityBehaviours(name: string, make: () => Promise<SandboxBackendProtocol> | SandboxBackendProtocol): void {
  describe(`shell and file tools on one tree (${name})`, () => {
    it("the shell's /tmp and the file tools see the same files, both ways", async () => {
      const b = await make();
      ok(await b.write("/tmp/from-tool.txt", "written by write_file"));
      expect(await b.execute("cat /tmp/from-tool.txt")).toMatchObject({ output: "written by write_file", exitCode: 0 });
      expect((await b.execute("echo from the shell > /tmp/from-shell.txt")).exitCode).toBe(0);
      expect(ok(await b.read("/tmp/from-shell.txt")).lines).toEqual(["from the shell"]);
      expect(ok(await b.ls("/tmp")).map((f) => f.path)).toEqual(["/tmp/from-shell.txt", "/tmp/from-tool.txt"]);
      expect(ok(await b.grep("shell", "/tmp")).map((m) => m.path)).toEqual(["/tmp/from-shell.txt"]);
      ok(await b.edit("/tmp/from-shell.txt", "shell", "edit"));
      expect((await b.execute("cat /tmp/from-shell.txt")).output).toBe("from the edit\n");
      expect(ok(await b.delete!("/tmp/from-tool.txt"))).toEqual({ path: "/tmp/from-tool.txt" });
      expect((await b.execute("cat /tmp/from-tool.txt")).exitCode).toBe(1);
      // /tmp is the session's scratch space: it is not a workspace file.
      expect(ok(await b.glob("**/*.txt")).map((f) => f.path)).toEqual(["/tmp/from-shell.txt"]);
    });

    it("a directory made with mkdir, even empty, is listed by ls and known to the file API; an empty one lists as []", async () => {
      const b = await make();
      expect((await b.execute("mkdir -p /made/empty /made2 && touch /made/file.txt")).exitCode).toBe(0);
      expect(dirs(ok(await b.ls("/")))).toEqual(expect.arrayContaining(["/made", "/made2"]));
      expect(ok(await b.ls("/made")).map((f) => [f.path, f.isDir])).toEqual([
        ["/made/empty", true],
        ["/made/file.txt", false],
      ]);
      expect(ok(await b.ls("/made/empty"))).toEqual([]);
      expect(ok(await b.ls("/made2"))).toEqual([]);
      expect(code(await b.write("/made2", "a file over a folder"))).toBe("is_directory");
      expect(code(await b.read("/made/empty"))).toBe("is_directory");
      ok(await b.write("/made2/now.md", "x"));
      expect(ok(await b.ls("/made2")).map((f) => f.path)).toEqual(["/made2/now.md"]);
      // delete removes the directory with its empty directories, for the shell too.
      expect(ok(await b.delete!("/made"))).toEqual({ path: "/made" });
      expect(code(await b.ls("/made"))).toBe("file_not_found");
      expect((await b.execute("ls /made")).exitCode).not.toBe(0);
      expect(ok(await b.delete!("/made2"))).toEqual({ path: "/made2" });
      expect((await b.execute("mkdir /lonely")).exitCode).toBe(0);
      expect(ok(await b.delete!("/lonely"))).toEqual({ path: "/lonely" });
      expect(await b.delete!("/lonely")).toMatchObject({ error: "file_not_found" });
    });
  });
}

/** `close()` and `isRunning`, as deepagentsjs' sandboxes have them (a shell with its own session). */
export function shellCloseBehaviours(name: string, make: () => Promise<ShellBackend> | ShellBackend): void {
  it(`a closed shell runs no more commands and frees its /tmp; the workspace stays (${name})`, async () => {
    const b = await make();
    expect(b.isRunning).toBe(true);
    ok(await b.write("/kept.md", "workspace"));
    expect((await b.execute("echo scratch > /tmp/s.txt && mkdir /empty")).exitCode).toBe(0);
    await b.close();
    expect(b.isRunning).toBe(false);
    expect(await b.execute("echo hi")).toEqual({
      output: "Error: this sandbox was closed; it runs no more commands.",
      exitCode: 126,
      truncated: false,
    });
    expect(code(await b.read("/tmp/s.txt"))).toBe("file_not_found");
    expect(code(await b.ls("/empty"))).toBe("file_not_found");
    expect(ok(await b.read("/kept.md")).lines).toEqual(["workspace"]);
  });
}
