/**
 * deepagentsjs 1.10–1.13 file-tool behaviours (issue 18), through whole agent runs over graph state and over the
 * app's layout (an IndexedDB workspace with a /memories/ store route). Chromium runs this file too
 * (upstream-parity.browser.test.ts), on real IndexedDB.
 */
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { Command, InMemoryStore, MemorySaver } from "@langchain/langgraph/web";
import { describe, expect, it } from "vitest";
import { compositeBackend } from "../backends/composite.ts";
import { indexedDBBackend } from "../backends/indexeddb.ts";
import type { FilesystemPermission } from "../backends/permissions.ts";
import type { FileData } from "../backends/protocol.ts";
import type { BackendOption } from "../backends/runtime.ts";
import { createBackendRuntime } from "../backends/runtime.ts";
import { StoreBackend } from "../backends/store.ts";
import { DeeptabError } from "../core/errors.ts";
import type { AgentTool } from "../harness/types.ts";
import type { HITLRequest, InterruptOnConfig } from "../middleware/hitl.ts";
import { ScriptedChatModel, type ScriptedTurn } from "../models/scripted.ts";
import { textFile } from "../testing/runtime.ts";
import { createDeepAgent } from "./create-deep-agent.ts";

// Node has no IndexedDB; Chromium has the real one.
const FAKE_INDEXEDDB = "fake-indexeddb/auto";
if (typeof indexedDB === "undefined") await import(/* @vite-ignore */ FAKE_INDEXEDDB);

interface Layout {
  name: string;
  backend(): { option?: BackendOption; seed(thread: string, files: Record<string, string>): Promise<Record<string, FileData>> };
}

const LAYOUTS: Layout[] = [
  {
    name: "StateBackend",
    backend: () => ({
      seed: async (_thread, files) => Object.fromEntries(Object.entries(files).map(([p, c]) => [p, textFile(c)])),
    }),
  },
  {
    name: "IndexedDB workspace, /memories/ store",
    backend: () => {
      const idb = indexedDBBackend({ dbName: `parity-${crypto.randomUUID()}` });
      return {
        option: compositeBackend(idb, { "/memories/": (rt) => new StoreBackend(rt.store!, ["memories"]) }),
        seed: async (thread, files) => {
          const b = idb(createBackendRuntime({}, { configurable: { thread_id: thread } }));
          for (const [p, c] of Object.entries(files)) await b.write(p, c);
          return {};
        },
      };
    },
  },
];

type Pause = HITLRequest;
const pausesOf = (out: unknown): Pause[] => ((out as { __interrupt__?: Array<{ value: Pause }> }).__interrupt__ ?? []).map((i) => i.value);
const results = (messages: BaseMessage[]) =>
  messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m)).map((m) => String(m.content));

interface RunOptions {
  seed?: Record<string, string>;
  permissions?: FilesystemPermission[];
  interruptOn?: InterruptOnConfig;
}

/** Runs the script; each pause is approved. Returns the tool results, the history and the pauses' action requests. */
async function run(layout: Layout, script: ScriptedTurn[], options: RunOptions = {}) {
  const { option, seed } = layout.backend();
  const thread = crypto.randomUUID();
  const files = await seed(thread, options.seed ?? {});
  const model = new ScriptedChatModel({ script: [...script, { text: "done" }] });
  const agent = createDeepAgent({
    model,
    ...(option ? { backend: option } : {}),
    store: new InMemoryStore(),
    checkpointer: new MemorySaver(),
    permissions: options.permissions ?? [],
    interruptOn: options.interruptOn ?? {},
  });
  const config = { configurable: { thread_id: thread } };
  const asked: Pause["actionRequests"][] = [];
  let out: unknown = await agent.invoke({ messages: [new HumanMessage("go")], files }, config);
  for (let pauses = pausesOf(out); pauses.length; pauses = pausesOf(out)) {
    if (asked.length > 10) throw new Error("more than 10 pauses");
    asked.push(pauses[0]!.actionRequests);
    const decisions = pauses[0]!.actionRequests.map(() => ({ type: "approve" as const }));
    out = await agent.invoke(new Command({ resume: { decisions } }), config);
  }
  const messages = (await agent.getState(config)).values.messages as BaseMessage[];
  return { results: results(messages), messages, asked };
}

const call = (name: string, args: Record<string, unknown>): ScriptedTurn => ({ toolCalls: [{ name, args }] });

for (const layout of LAYOUTS) {
  describe(`upstream file-tool parity (${layout.name})`, () => {
    it("write_file overwrites an existing file (deepagentsjs #674)", async () => {
      const { results: r } = await run(layout, [
        call("write_file", { file_path: "/a.md", content: "one\nold line" }),
        call("write_file", { file_path: "/a.md", content: "two" }),
        call("read_file", { file_path: "/a.md" }),
      ]);
      expect(r).toEqual(["Updated file /a.md", "Updated file /a.md", "     1\ttwo"]);
    });

    it("write_file overwrites an existing file (deepagentsjs #674) once its approval is given", async () => {
      const { results: r, asked } = await run(
        layout,
        [call("write_file", { file_path: "/a.md", content: "one" }), call("write_file", { file_path: "/a.md", content: "two" })],
        { interruptOn: { write_file: true }, seed: {} },
      );
      expect(asked.map((a) => a[0]!.args)).toEqual([
        { file_path: "/a.md", content: "one" },
        { file_path: "/a.md", content: "two" },
      ]);
      expect(r).toEqual(["Updated file /a.md", "Updated file /a.md"]);
    });

    it("delete removes directories recursively (deepagentsjs 1.13)", async () => {
      const { results: r } = await run(
        layout,
        [call("delete", { file_path: "/d" }), call("glob", { pattern: "**/*.md" }), call("delete", { file_path: "/d" })],
        { seed: { "/d/a.md": "a", "/d/b/c.md": "c", "/d2.md": "sibling" } },
      );
      expect(r).toEqual(["Deleted /d", "['/d2.md']", "Error: File '/d' not found"]);
    });

    it("delete of a directory is refused whole when a deny rule covers one file inside it (nothing is half-deleted)", async () => {
      const { results: r } = await run(
        layout,
        [call("delete", { file_path: "/d" }), call("glob", { pattern: "**/*.md" }), call("delete", { file_path: "/d/a.md" })],
        {
          seed: { "/d/a.md": "a", "/d/b/keep.md": "kept", "/d/b/c.md": "c" },
          permissions: [{ operations: ["write"], paths: ["/d/b/keep.md"], mode: "deny" }],
        },
      );
      expect(r).toEqual([
        "Error: permission denied for write on /d/b/keep.md; nothing under /d was deleted.",
        "['/d/a.md', '/d/b/c.md', '/d/b/keep.md']",
        "Deleted /d/a.md",
      ]);
    });

    it("delete of a directory asks first when an interrupt rule covers a file inside it", async () => {
      const { results: r, asked } = await run(layout, [call("delete", { file_path: "/d" }), call("delete", { file_path: "/e.md" })], {
        seed: { "/d/x/secret.md": "s", "/e.md": "e" },
        permissions: [{ operations: ["write"], paths: ["/d/x/**"], mode: "interrupt" }],
      });
      expect(asked.map((a) => a.map((x) => x.args))).toEqual([[{ file_path: "/d" }]]);
      expect(r).toEqual(["Deleted /d", "Deleted /e.md"]);
    });

    it("the file tools accept path for file_path (deepagentsjs #659); with both, file_path wins", async () => {
      const { results: r, messages } = await run(layout, [
        call("write_file", { path: "/p.md", content: "x y x" }),
        call("read_file", { path: "/p.md" }),
        call("edit_file", { path: "/p.md", old_string: "x", new_string: "q" }),
        call("edit_file", { file_path: "/p.md", path: "/elsewhere.md", old_string: "y", new_string: "z" }),
        call("delete", { path: "/p.md" }),
      ]);
      expect(r).toEqual([
        "Updated file /p.md",
        "     1\tx y x",
        // deepagentsjs' wording for an edit that finds several matches.
        "Error: String 'x' has multiple occurrences (appears 2 times) in file. " +
          "Use replace_all=True to replace all instances, or provide a more specific string with surrounding context.",
        "Successfully replaced 1 instance(s) of the string in '/p.md'",
        "Deleted /p.md",
      ]);
      // The history holds the calls as the tools read them.
      const args = messages.flatMap((m) => (AIMessage.isInstance(m) ? (m.tool_calls ?? []).map((c) => c.args) : []));
      expect(args.every((a) => typeof a.file_path === "string" && !("path" in a))).toBe(true);
    });

    it("a path argument meets approvals and permission rules as file_path would (deepagentsjs #659)", async () => {
      const { results: r, asked } = await run(layout, [call("write_file", { path: "/guarded/a.md", content: "x" })], {
        permissions: [{ operations: ["write"], paths: ["/guarded/**"], mode: "interrupt" }],
      });
      expect(asked).toEqual([[expect.objectContaining({ name: "write_file", args: { file_path: "/guarded/a.md", content: "x" } })]]);
      expect(r).toEqual(["Updated file /guarded/a.md"]);
    });
  });
}

describe("upstream tool-name parity", () => {
  it("a user tool named like a built-in is refused when the agent is built (deepagentsjs TOOL_NAME_COLLISION)", () => {
    const model = new ScriptedChatModel({ script: [] });
    const tool: AgentTool = { name: "delete", description: "mine", schema: { type: "object", properties: {} }, run: async () => "" };
    expect(() => createDeepAgent({ model, tools: [tool] })).toThrow(DeeptabError);
    expect(() => createDeepAgent({ model, tools: [tool] })).toThrow(
      "Tool name(s) [delete] conflict with built-in tools. Rename your custom tools to avoid this.",
    );
  });
});
