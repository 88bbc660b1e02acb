/**
 * A deny rule denies (issue 21 #2 and #9): a read-deny rule cannot be read
 * around through tools whose answer depends on a file's content (edit_file's
 * "String not found" vs "replaced" answers leaked a secret byte by byte), and
 * a rule path is normalized as file paths are, or refused when the agent is
 * built, never accepted while it can never match. Runs in Node and, through
 * hostile-guarantees.browser.test.ts, in Chromium.
 */
import { HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph/web";
import { describe, expect, it } from "vitest";
import type { FilesystemPermission } from "../backends/permissions.ts";
import type { FileData } from "../backends/protocol.ts";
import { StateBackend } from "../backends/state.ts";
import type { HITLRequest } from "../middleware/hitl.ts";
import { ScriptedChatModel, type ScriptedToolCall } from "../models/scripted.ts";
import { textFile } from "../testing/runtime.ts";
import { createDeepAgent } from "./create-deep-agent.ts";

const SECRET = "sk-secret-42";
const start = () => ({ "/secrets/key.txt": textFile(SECRET), "/pub.md": textFile("sk-public"), "/caf\u00e9/x.md": textFile("sk-cafe") });
const contents = (messages: BaseMessage[]) =>
  messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m)).map((m) => String(m.content));

/** Runs each call in its own turn (no same-path guard between them); returns each result and the files after. */
async function probe(rules: FilesystemPermission[], calls: ScriptedToolCall[]) {
  const model = new ScriptedChatModel({ script: [...calls.map((c) => ({ toolCalls: [c] })), { text: "done" }] });
  const agent = createDeepAgent({ model, permissions: rules });
  const out = await agent.invoke({ messages: [new HumanMessage("go")], files: start() });
  return { results: contents(out.messages), files: out.files as Record<string, FileData> };
}

const readDeny = (...paths: string[]): FilesystemPermission[] => [{ operations: ["read"], paths, mode: "deny" }];
const deniedRead = (path: string) => `Error: permission denied for read on ${path}`;

/** Calls whose answers could tell what /secrets/key.txt holds, and what each must answer under a read-deny rule. */
const ORACLES: Array<[string, ScriptedToolCall, string]> = [
  [
    "edit_file with a string the file holds",
    { name: "edit_file", args: { file_path: "/secrets/key.txt", old_string: "sk-secret", new_string: "sk-secret-x" } },
    deniedRead("/secrets/key.txt"),
  ],
  [
    "edit_file with a string it does not hold",
    { name: "edit_file", args: { file_path: "/secrets/key.txt", old_string: "sk-z", new_string: "x" } },
    deniedRead("/secrets/key.txt"),
  ],
  [
    "edit_file with replace_all",
    { name: "edit_file", args: { file_path: "/secrets/key.txt", old_string: "4", new_string: "4", replace_all: true } },
    deniedRead("/secrets/key.txt"),
  ],
  ["grep over everything", { name: "grep", args: { pattern: "sk-secret" } }, "No matches found"],
  [
    "grep with content output",
    { name: "grep", args: { pattern: "sk-", output_mode: "content" } },
    "/caf\u00e9/x.md:\n  1: sk-cafe\n/pub.md:\n  1: sk-public",
  ],
  ["grep inside the folder", { name: "grep", args: { pattern: "sk-", path: "/secrets" } }, deniedRead("/secrets")],
  ["grep filtered to the folder", { name: "grep", args: { pattern: "sk-", glob: "secrets/**" } }, "No matches found"],
  ["glob over everything", { name: "glob", args: { pattern: "**/*" } }, "['/caf\u00e9/x.md', '/pub.md']"],
  ["ls of the root", { name: "ls", args: { path: "/" } }, "['/caf\u00e9/', '/pub.md']"],
  ["read_file", { name: "read_file", args: { file_path: "/secrets/key.txt" } }, deniedRead("/secrets/key.txt")],
];

describe("a read-deny rule cannot be read around", () => {
  for (const [name, call, expected] of ORACLES) {
    it(`${name}: answers as if the file could not be seen, and leaves it unchanged`, async () => {
      const { results, files } = await probe(readDeny("/secrets/**"), [call]);
      expect(results).toEqual([expected]);
      expect(results.join("\n")).not.toContain("42");
      expect(files["/secrets/key.txt"]!.content).toBe(SECRET);
    });
  }

  it("an interrupt rule on reading pauses edit_file too (its answer is a read)", async () => {
    const model = new ScriptedChatModel({
      script: [{ toolCalls: [{ name: "edit_file", args: { file_path: "/secrets/key.txt", old_string: "sk", new_string: "x" } }] }],
    });
    const agent = createDeepAgent({
      model,
      checkpointer: new MemorySaver(),
      permissions: [{ operations: ["read"], paths: ["/secrets/**"], mode: "interrupt" }],
    });
    const out = await agent.invoke({ messages: [new HumanMessage("go")], files: start() }, { configurable: { thread_id: "int" } });
    const pause = (out as { __interrupt__?: Array<{ value: HITLRequest }> }).__interrupt__?.[0]?.value;
    expect(pause?.actionRequests.map((a) => a.name)).toEqual(["edit_file"]);
  });

  it("a write-only rule still lets the model create files it cannot read back (a drop box)", async () => {
    const { results } = await probe(readDeny("/inbox/**"), [
      { name: "write_file", args: { file_path: "/inbox/note.md", content: "n" } },
      { name: "read_file", args: { file_path: "/inbox/note.md" } },
    ]);
    expect(results).toEqual(["Updated file /inbox/note.md", deniedRead("/inbox/note.md")]);
  });
});

describe("permission rule paths are normalized as file paths are", () => {
  const SAME_AS_SECRETS: Array<[string, string[]]> = [
    ["a trailing slash", ["/secrets/"]],
    ["a bare folder path", ["/secrets"]],
    ["a '.' segment", ["/./secrets/**"]],
    ["repeated slashes", ["//secrets//**"]],
    ["a path starting with **", ["**/secrets/**"]],
  ];
  for (const [name, paths] of SAME_AS_SECRETS) {
    it(`a rule with ${name} (${paths.join(", ")}) denies /secrets and everything below it`, async () => {
      const { results } = await probe(readDeny(...paths), [
        { name: "read_file", args: { file_path: "/secrets/key.txt" } },
        { name: "grep", args: { pattern: "sk-secret" } },
        { name: "edit_file", args: { file_path: "/secrets/key.txt", old_string: "sk", new_string: "x" } },
      ]);
      expect(results).toEqual([deniedRead("/secrets/key.txt"), "No matches found", deniedRead("/secrets/key.txt")]);
    });
  }

  it("a rule written in NFD (café as e + combining accent) covers the NFC path files are stored under", async () => {
    const { results } = await probe(readDeny("/cafe\u0301/**"), [
      { name: "read_file", args: { file_path: "/caf\u00e9/x.md" } },
      { name: "read_file", args: { file_path: "/cafe\u0301/x.md" } },
      { name: "grep", args: { pattern: "sk-cafe" } },
    ]);
    expect(results).toEqual([deniedRead("/caf\u00e9/x.md"), deniedRead("/caf\u00e9/x.md"), "No matches found"]);
  });

  it("a literal file rule covers that file", async () => {
    const { results } = await probe(readDeny("/pub.md"), [{ name: "read_file", args: { file_path: "/pub.md" } }]);
    expect(results).toEqual([deniedRead("/pub.md")]);
  });

  const NEVER_MATCH: Array<[string, Partial<FilesystemPermission>, RegExp]> = [
    ["a relative path", { paths: ["secrets/**"] }, /must be absolute/],
    ["a '..' segment", { paths: ["/a/../secrets/**"] }, /'\.\.' and '~' segments/],
    ["a '~' path", { paths: ["~/secrets"] }, /must be absolute/],
    ["a drive letter", { paths: ["C:\\secrets"] }, /Windows paths/],
    ["an empty path", { paths: [""] }, /non-empty string/],
    ["a control character", { paths: ["/sec\u0000rets/**"] }, /control characters/],
    ["an invalid glob", { paths: ["/[z-a]"] }, /invalid glob pattern/],
    ["no paths", { paths: [] }, /at least one path/],
    ["an unknown operation", { operations: ["Read" as "read"] }, /operations must list/],
    ["an unknown mode", { mode: "block" as "deny" }, /mode must be allow, deny or interrupt/],
  ];
  for (const [name, patch, why] of NEVER_MATCH) {
    it(`a rule with ${name} is refused when the agent is built, saying why`, () => {
      const rule = { operations: ["read"], paths: ["/secrets/**"], mode: "deny", ...patch } as FilesystemPermission;
      const model = new ScriptedChatModel({ script: [] });
      expect(() => createDeepAgent({ model, permissions: [rule] })).toThrow(
        expect.objectContaining({ code: "invalid_option", message: expect.stringMatching(why) }),
      );
      expect(() => createDeepAgent({ model, backend: (rt) => new StateBackend(rt), permissions: [rule] })).toThrow(why);
    });
  }
});
