/**
 * Parallel subagents editing one file never lose an edit silently (issue 21
 * #6): over every file backend, two `task` calls in one message whose
 * children edit the same file either both land, or the one that could not is
 * told so. Runs in Node and, through parallel-edits.browser.test.ts, in
 * Chromium on real IndexedDB.
 */
import { HumanMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph/web";
import { describe, expect, it } from "vitest";
import { ScriptedChatModel } from "../models/scripted.ts";
import { EDIT_SETUPS, editTask, editingChild, taskResults } from "../testing/parallel-edits.ts";
import { createDeepAgent } from "./create-deep-agent.ts";

// Node has no IndexedDB; Chromium has the real one.
const FAKE_INDEXEDDB = "fake-indexeddb/auto";
if (typeof indexedDB === "undefined") await import(/* @vite-ignore */ FAKE_INDEXEDDB);

async function twoEdits(setupIndex: number, content: string, first: [string, string], second: [string, string]) {
  const setup = EDIT_SETUPS[setupIndex]!;
  const made = await setup.make(content);
  const parent = new ScriptedChatModel({
    script: [
      {
        toolCalls: [
          { name: "task", args: { description: editTask(setup.path, ...first), subagent_type: "general-purpose" }, id: "first" },
          // The second child answers later, so it is the one whose change meets the first's.
          { name: "task", args: { description: editTask(setup.path, ...second, 60), subagent_type: "general-purpose" }, id: "second" },
        ],
      },
      { text: "done" },
    ],
  });
  const agent = createDeepAgent({
    model: parent,
    subagents: [{ name: "general-purpose", description: "edits", systemPrompt: "Edit.", model: editingChild() }],
    checkpointer: new MemorySaver(),
    ...(made.backend ? { backend: made.backend } : {}),
    ...(made.store ? { store: made.store } : {}),
  });
  const out = await agent.invoke(
    { messages: [new HumanMessage("edit it twice")], ...(made.files ? { files: made.files } : {}) },
    { configurable: { thread_id: "edits" } },
  );
  return { content: await made.read(out), results: taskResults(out.messages) };
}

describe("parallel subagents editing one file", () => {
  EDIT_SETUPS.forEach((setup, i) => {
    describe(setup.name, () => {
      it("keep both edits of different lines (alpha/beta become ALPHA/BETA)", async () => {
        const { content, results } = await twoEdits(i, "alpha\nbeta\n", ["alpha", "ALPHA"], ["beta", "BETA"]);
        expect(content).toBe("ALPHA\nBETA\n");
        expect(results.first).toMatch(/^edit alpha: Successfully replaced 1 instance/);
        expect(results.second).toMatch(/^edit beta: Successfully replaced 1 instance/);
      });

      it("keep both edits of different words of one line", async () => {
        const { content } = await twoEdits(i, "alpha/beta\n", ["alpha", "ALPHA"], ["beta", "BETA"]);
        expect(content).toBe("ALPHA/BETA\n");
      });

      it("changing the same words, keep the first and tell the second, never a silent lost update", async () => {
        const { content, results } = await twoEdits(i, "alpha\nbeta\n", ["alpha", "FIRST"], ["alpha", "SECOND"]);
        expect(content).toBe("FIRST\nbeta\n");
        expect(results.first).toMatch(/^edit alpha: Successfully replaced 1 instance/);
        // Graph state merges the children's changes afterwards and says what was not applied; a shared
        // store runs the second edit after the first, so the child itself finds its text gone.
        if (setup.name === "StateBackend") {
          expect(results.second).toContain(
            `Conflict: this call's changes to ${setup.path} were not applied: task call first, which ran beside it, ` +
              `changed the same part of the file first`,
          );
          expect(results.second).toContain("This call's version of the conflicting part:\nSECOND\n");
        } else {
          expect(results.second).toMatch(/^edit alpha: Error: String not found in file: 'alpha'/);
        }
      });
    });
  });

  it("a merge of changes to one file by two children is noted in the later one's result", async () => {
    const { results } = await twoEdits(0, "alpha\nbeta\n", ["alpha", "ALPHA"], ["beta", "BETA"]);
    expect(results.first).not.toContain("Note:");
    expect(results.second).toContain(
      "Note: /notes.md was also changed by task call first, which ran beside this call; both changes were merged.",
    );
  });

  it("one child deleting a file another changed keeps the change and says so", async () => {
    const parent = new ScriptedChatModel({
      script: [
        {
          toolCalls: [
            { name: "task", args: { description: editTask("/notes.md", "alpha", "ALPHA"), subagent_type: "general-purpose" }, id: "edit" },
            { name: "task", args: { description: "delete", subagent_type: "deleter" }, id: "del" },
          ],
        },
        { text: "done" },
      ],
    });
    const deleter = new ScriptedChatModel({
      script: [{ toolCalls: [{ name: "delete", args: { file_path: "/notes.md" } }] }, { text: "deleted", delayMs: 60 }],
    });
    const agent = createDeepAgent({
      model: parent,
      subagents: [
        { name: "general-purpose", description: "edits", systemPrompt: "Edit.", model: editingChild() },
        { name: "deleter", description: "deletes", systemPrompt: "Delete.", model: deleter },
      ],
    });
    const out = await agent.invoke({ messages: [new HumanMessage("go")], files: (await EDIT_SETUPS[0]!.make("alpha\n")).files! });
    expect(out.files["/notes.md"]?.content).toBe("ALPHA\n");
    expect(taskResults(out.messages).del).toContain(
      "Conflict: this call deleted /notes.md, but task call edit, which ran beside it, changed the file first, " +
        "so it was kept with those changes.",
    );
  });
});
