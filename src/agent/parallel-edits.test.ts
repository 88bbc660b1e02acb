/**
 * Parallel subagents editing one file never lose an edit silently (issue 21
 * #6): over every file backend, two `task` calls in one message whose
 * children edit the same file either both land, or the one that could not is
 * told so; a seeded fuzz holds it for random edits of 2 to 4 children. Runs
 * in Node and, through parallel-edits.browser.test.ts, in Chromium on real
 * IndexedDB.
 */
import { HumanMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph/web";
import { describe, expect, it } from "vitest";
import { ScriptedChatModel } from "../models/scripted.ts";
import { pick, seededRandom } from "../testing/random.ts";
import { EDIT_SETUPS, editTask, editingChild, oneCallChild, taskResults } from "../testing/parallel-edits.ts";
import { createDeepAgent } from "./create-deep-agent.ts";

// Node has no IndexedDB; Chromium has the real one.
const FAKE_INDEXEDDB = "fake-indexeddb/auto";
if (typeof indexedDB === "undefined") await import(/* @vite-ignore */ FAKE_INDEXEDDB);

/** Runs one `task` call per edit in one message (call ids from `ids`), each child making its edit after its delay. */
async function parallelEdits(setupIndex: number, content: string, edits: Array<[string, string, number]>, ids: string[]) {
  const setup = EDIT_SETUPS[setupIndex]!;
  const made = await setup.make(content);
  const parent = new ScriptedChatModel({
    script: [
      {
        toolCalls: edits.map(([from, to, delayMs], i) => ({
          name: "task",
          args: { description: editTask(setup.path, from, to, delayMs), subagent_type: "general-purpose" },
          id: ids[i]!,
        })),
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
    { messages: [new HumanMessage("edit it")], ...(made.files ? { files: made.files } : {}) },
    { configurable: { thread_id: "edits" } },
  );
  return { content: await made.read(out), results: taskResults(out.messages) };
}

// The second child answers later, so it is the one whose change meets the first's.
const twoEdits = (setupIndex: number, content: string, first: [string, string], second: [string, string]) =>
  parallelEdits(
    setupIndex,
    content,
    [
      [...first, 0],
      [...second, 60],
    ],
    ["first", "second"],
  );

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

  /** A child editing alpha -> ALPHA beside a sibling whose one call (`name`, `args`) lands after the edit. */
  async function editBeside(setupIndex: number, name: string, args: Record<string, unknown>) {
    const setup = EDIT_SETUPS[setupIndex]!;
    const made = await setup.make("alpha\nbeta\n");
    const parent = new ScriptedChatModel({
      script: [
        {
          toolCalls: [
            { name: "task", args: { description: editTask(setup.path, "alpha", "ALPHA"), subagent_type: "editor" }, id: "edit" },
            { name: "task", args: { description: "go", subagent_type: "other" }, id: "other" },
          ],
        },
        { text: "done" },
      ],
    });
    const agent = createDeepAgent({
      model: parent,
      subagents: [
        { name: "editor", description: "edits", systemPrompt: "Edit.", model: editingChild() },
        { name: "other", description: "writes", systemPrompt: "Go.", model: oneCallChild(name, { file_path: setup.path, ...args }, 60) },
      ],
      checkpointer: new MemorySaver(),
      ...(made.backend ? { backend: made.backend } : {}),
      ...(made.store ? { store: made.store } : {}),
    });
    const out = await agent.invoke(
      { messages: [new HumanMessage("go")], ...(made.files ? { files: made.files } : {}) },
      { configurable: { thread_id: "edits" } },
    );
    return { content: await made.read(out), results: taskResults(out.messages) };
  }

  describe("a write or delete after a sibling's edit of the same file is never a silent lost update", () => {
    EDIT_SETUPS.forEach((setup, i) => {
      it(`${setup.name}: a subagent rewriting a file a sibling subagent edited first is told, and the edit is kept`, async () => {
        const { content, results } = await editBeside(i, "write_file", { content: "rewritten\n" });
        expect(content).toBe("ALPHA\nbeta\n");
        expect(results.other).toContain(
          `Conflict: this call's changes to ${setup.path} were not applied: task call edit, which ran beside it, ` +
            `changed the same part of the file first`,
        );
      });

      it(`${setup.name}: a subagent deleting a file a sibling subagent edited first is told, and the file kept`, async () => {
        const { content, results } = await editBeside(i, "delete", {});
        expect(content).toBe("ALPHA\nbeta\n");
        expect(results.other).toContain(
          `Conflict: this call deleted ${setup.path}, but task call edit, which ran beside it, changed the file first, ` +
            "so it was kept with those changes.",
        );
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

const FUZZ_RUNS = 12;
const BASE_SEED = Number((typeof process === "undefined" ? undefined : process.env.FUZZ_SEED) ?? 20_261_204);
const WORDS = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"];

describe(`fuzz: ${FUZZ_RUNS} runs of 2 to 4 children editing random words of one file, per backend (base seed ${BASE_SEED})`, () => {
  EDIT_SETUPS.forEach((setup, i) => {
    it(`${setup.name}: every change is in the file, or its task result says it was not applied`, async () => {
      for (let run = 0; run < FUZZ_RUNS; run++) {
        const seed = BASE_SEED + run;
        const random = seededRandom(seed);
        // Two words a line, some lines sharing words' neighbours: children hit one line, one word, or different lines.
        const content = `${WORDS.slice(0, 4).join(" ")}\n${WORDS.slice(4).join(" ")}\n`;
        const edits = Array.from({ length: 2 + Math.floor(random() * 3) }, (_, c): [string, string, number] => [
          pick(random, WORDS.slice(0, 6)),
          `NEW${c}`,
          Math.floor(random() * 40),
        ]);
        const ids = edits.map((_, c) => `c${c}`);
        const { content: after, results } = await parallelEdits(i, content, edits, ids);
        edits.forEach(([from, to], c) => {
          const result = results[ids[c]!]!;
          const told = /Conflict: this call's changes|Error: String not found/.test(result);
          // Each word of the file appears once, so a change is in the file exactly when its new word is.
          expect(after!.includes(to), `seed ${seed}: ${from} -> ${to}; result: ${result}; file: ${after}`).toBe(!told);
        });
      }
    });
  });
});
