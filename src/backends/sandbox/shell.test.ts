import { HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { InMemoryStore } from "@langchain/langgraph/web";
import { describe, expect, it } from "vitest";
import { createDeepAgent } from "../../agent/create-deep-agent.ts";
import { ScriptedChatModel } from "../../models/scripted.ts";
import { backendConformance } from "../../testing/backend-conformance.ts";
import { FIXED_NOW } from "../../testing/runtime.ts";
import { CompositeBackend } from "../composite.ts";
import { MemoryFileStore } from "../memory-store.ts";
import { isBackendError, type Outcome } from "../protocol.ts";
import { StoreBackend } from "../store.ts";
import { ShellBackend } from "./shell.ts";

function ok<T>(value: Outcome<T>): T {
  if (isBackendError(value)) throw new Error(value.message);
  return value;
}

backendConformance("ShellBackend (in-memory files)", () => new ShellBackend({ now: () => FIXED_NOW }));

describe("ShellBackend: commands over the backend's own files", () => {
  it("runs pipes, redirects, && and ||, globs, here-docs and variables", async () => {
    const sh = new ShellBackend();
    ok(await sh.write("/data/a.txt", "banana\napple\ncherry\napple\n"));
    ok(await sh.write("/data/b.txt", "kiwi\n"));
    const run = async (cmd: string) => (await sh.execute(cmd)).output;
    expect(await run("cat /data/a.txt | sort | uniq -c | sort -rn | head -1")).toMatch(/^\s*2 apple\n$/);
    expect(await run("echo one > /out.txt && echo two >> /out.txt; cat /out.txt")).toBe("one\ntwo\n");
    expect(await run("false || echo recovered && echo chained")).toBe("recovered\nchained\n");
    expect(await run("echo /data/*.txt")).toBe("/data/a.txt /data/b.txt\n");
    expect(await run("NAME=deeptab; cat <<EOF\nhello $NAME\nEOF")).toBe("hello deeptab\n");
    expect(await run("echo $(( 6 * 7 )) $(echo nested)")).toBe("42 nested\n");
    expect(await run("grep -c apple /data/a.txt; sed -n 2p /data/a.txt; awk 'NR==3' /data/a.txt")).toBe("2\napple\ncherry\n");
    expect(await run(`echo '{"a":[1,2,3]}' | jq '.a | length'`)).toBe("3\n");
    expect(await run("find /data -name '*.txt' | sort | xargs wc -l | tail -1")).toMatch(/5 total/);
    expect(await run("echo to-stderr >&2; echo to-stdout")).toBe("to-stdout\nto-stderr\n");
  });

  it("files a command writes are files for the tools, and the other way round", async () => {
    const sh = new ShellBackend();
    ok(await sh.write("/notes.md", "written by the tool\n"));
    expect((await sh.execute("cat /notes.md")).output).toBe("written by the tool\n");
    await sh.execute(
      "mkdir -p /src/lib && printf 'x = 1\\n' > /src/lib/x.py && cp /notes.md /src/copy.md && mv /src/copy.md /src/moved.md",
    );
    expect(ok(await sh.read("/src/lib/x.py")).lines).toEqual(["x = 1"]);
    expect(ok(await sh.glob("**/*.md")).map((f) => f.path)).toEqual(["/notes.md", "/src/moved.md"]);
    expect(ok(await sh.grep("tool")).map((m) => m.path)).toEqual(["/notes.md", "/src/moved.md"]);
    await sh.execute("rm /notes.md && rm -r /src/lib");
    expect(ok(await sh.ls("/")).map((f) => f.path)).toEqual(["/src"]);
    expect((await sh.execute("ls /src")).output).toBe("moved.md\n");
  });

  it("keeps binary bytes, and /tmp, /dev/null and empty directories out of the store", async () => {
    const store = new MemoryFileStore();
    const sh = new ShellBackend({ files: store });
    const bytes = new Uint8Array([0, 255, 10, 128]);
    ok(await sh.uploadFiles!([{ path: "/bin.dat", content: bytes }]));
    await sh.execute("cat /bin.dat > /copy.dat; echo scratch > /tmp/t; echo gone > /dev/null; mkdir /empty");
    const [copy] = await sh.downloadFiles!(["/copy.dat"]);
    expect(Array.from(copy!.content!)).toEqual([0, 255, 10, 128]);
    expect((await sh.execute("cat /tmp/t; ls -d /empty")).output).toBe("scratch\n/empty\n");
    expect([...(await store.snapshot()).entries()].map(([p]) => p).sort()).toEqual(["/bin.dat", "/copy.dat"]);
  });

  it("reports failures as the command's: exit codes, a write below a file, missing sandboxes", async () => {
    const sh = new ShellBackend();
    ok(await sh.write("/f", "a file"));
    expect(await sh.execute("exit 3")).toEqual({ output: "", exitCode: 3, truncated: false });
    const below = await sh.execute("echo x > /f/child");
    expect(below.exitCode).not.toBe(0);
    expect(below.output).toMatch(/not a directory/);
    for (const [cmd, where] of [
      ["node -v", /WebContainer/],
      ["npm install", /WebContainer/],
      ["python3 -c 1", /no sandbox in this browser tab/],
      ["git status", /no sandbox in this browser tab/],
      ["curl https://example.com", /no network access/],
    ] as const) {
      const res = await sh.execute(cmd);
      expect(res.exitCode, cmd).toBe(127);
      expect(res.output, cmd).toMatch(where);
    }
  });

  it("stops a command at its timeout and says so", async () => {
    const sh = new ShellBackend();
    const started = performance.now();
    const res = await sh.execute("while true; do :; done", 1);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(res.exitCode).toBeNull();
    expect(res.output).toMatch(/^Command timed out after 1 seconds and was stopped/);
    // A larger timeout than the maximum is cut to it; the default applies when none is given.
    const capped = new ShellBackend({ maxTimeout: 1 });
    expect((await capped.execute("while true; do :; done", 500)).output).toMatch(/after 1 seconds/);
  });

  it("caps the output it returns and says it was truncated", async () => {
    const sh = new ShellBackend({ maxOutputBytes: 1_000 });
    const res = await sh.execute("seq 1 5000");
    expect(res.truncated).toBe(true);
    expect(new TextEncoder().encode(res.output).length).toBeLessThanOrEqual(1_000);
    expect(res.output.startsWith("1\n2\n3\n")).toBe(true);
  });
});

describe("ShellBackend in an agent", () => {
  it("gives the agent execute, and execute and read_file see the same file", async () => {
    const model = new ScriptedChatModel({
      script: [
        { toolCalls: [{ name: "execute", args: { command: "seq 3 | sed 's/^/line /' > /made.txt && wc -l < /made.txt" } }] },
        { toolCalls: [{ name: "read_file", args: { file_path: "/made.txt" } }] },
        { toolCalls: [{ name: "write_file", args: { file_path: "/tool.txt", content: "from the tool" } }] },
        { toolCalls: [{ name: "execute", args: { command: "cat /tool.txt; exit 2" } }] },
        { text: "done" },
      ],
    });
    const out = await createDeepAgent({ model, backend: new ShellBackend() }).invoke({ messages: [new HumanMessage("go")] });
    expect(model.calls[0]!.tools).toContain("execute");
    const results = (out.messages as BaseMessage[]).filter((m): m is ToolMessage => ToolMessage.isInstance(m)).map((m) => m.content);
    expect(results).toEqual([
      "3\n\n[Command succeeded with exit code 0]",
      "     1\tline 1\n     2\tline 2\n     3\tline 3",
      "Updated file /tool.txt",
      "from the tool\n[Command failed with exit code 2]",
    ]);
  });

  it("is refused under permission rules its shell could bypass, and allowed when they lie on an isolated route", () => {
    const model = new ScriptedChatModel({ script: [] });
    const rules = [{ operations: ["write" as const], paths: ["/memories/**"], mode: "deny" as const }];
    expect(() => createDeepAgent({ model, backend: new ShellBackend(), permissions: rules })).toThrow(/command execution/);
    const composite = new CompositeBackend(new ShellBackend(), { "/memories/": new StoreBackend(new InMemoryStore(), ["m"]) });
    expect(() => createDeepAgent({ model, backend: composite, permissions: rules })).not.toThrow();
  });
});
