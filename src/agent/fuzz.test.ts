/**
 * Fuzz: thousands of random tool calls (names, argument shapes and types,
 * paths, patterns, ids, broken JSON) from a seeded generator against every
 * built-in tool. Every run must finish within a time bound, answer every call
 * with exactly one result, and throw nothing. A failure prints its seed;
 * `FUZZ_SEED=<seed> npx vitest run src/agent/fuzz.test.ts` replays it.
 */
import { HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { Command, MemorySaver } from "@langchain/langgraph/web";
import { describe, expect, it } from "vitest";
import { MemoryFileStore } from "../backends/memory-store.ts";
import { ShellBackend } from "../backends/sandbox/shell.ts";
import { ScriptedChatModel, type ScriptedToolCall } from "../models/scripted.ts";
import { pick, seededRandom } from "../testing/random.ts";
import { FILE_TOOLS } from "../testing/tool-names.ts";
import { createDeepAgent } from "./create-deep-agent.ts";

const RUNS = 800;
const CALLS_PER_RUN = 8;
/** One run may hold a shell command that loops until its 1-2 s timeout. */
const RUN_TIME_BOUND_MS = 6_000;
const BASE_SEED = Number(process.env.FUZZ_SEED ?? 20_261_202);

const TOOLS = [...FILE_TOOLS, "task", "write_todos", "compact_conversation"];
const KEYS = [
  "file_path",
  "path",
  "content",
  "old_string",
  "new_string",
  "replace_all",
  "offset",
  "limit",
  "pattern",
  "glob",
  "output_mode",
  "command",
  "timeout",
  "description",
  "subagent_type",
  "todos",
  "extra",
];
const PATHS = [
  "/a.md",
  "/d/b.txt",
  "/memories/AGENTS.md",
  "/skills/s/SKILL.md",
  "/locked/x",
  "/hidden/key",
  "/large_tool_results/x",
  "relative.md",
  "/a/../b",
  "~/x",
  "C:\\x",
  "",
  "/",
  "/d",
  "/ü/日本.md",
  "/cafe\u0301.md",
  "/a.md/below",
  `/${"x".repeat(300)}`,
  `/${"y/".repeat(80)}z`,
  "/sp ace/f.md",
  "/\u0000nul",
  "/a//b/./c",
];
const PATTERNS = [
  "*",
  "**/*",
  "**/*.md",
  "*.{md,txt}",
  "[z-a]",
  "{unclosed",
  "**a**a**a**a**a**b",
  "[!a]*",
  "?",
  "",
  "\\",
  "a".repeat(2_000),
  "TODO",
  "(",
  ".*",
  // Alternatives: nested, empty, unclosed, over the limit, with globstars inside, and times long fixed pieces.
  "{*.md,**/{a,d}/*,[!a]*}",
  "{,}",
  "{}",
  "{a,{b,}",
  "x/{**,y}/z",
  "{a,b}".repeat(9),
  `**/*${"x".repeat(40)}${"{x,y}".repeat(8)}z*`,
  `*${"y/".repeat(20)}{y,z}{**,/}*`,
];

/** What /hidden/key holds; a read-deny rule covers it, so no answer may tell it (issue 21 #2, #9). */
const HIDDEN = "HIDDEN-SECRET-7f3a";

/** Files each run starts with, so reads, edits and searches find something. */
function startFiles() {
  const at = "2026-01-01T00:00:00.000Z";
  const file = (content: string) => ({ content, encoding: "utf-8" as const, createdAt: at, modifiedAt: at });
  return {
    "/a.md": file("text\nTODO one\ntext again"),
    "/d/b.txt": file("w".repeat(90_000)),
    "/memories/AGENTS.md": file("remember text"),
    "/skills/s/SKILL.md": file("---\nname: s\ndescription: a skill\n---\nuse text"),
    "/locked/x": file("locked text"),
    "/hidden/key": file(`text ${HIDDEN}`),
  };
}

const SHELL_COMMANDS = [
  "cat /a.md | grep TODO | wc -l",
  "ls -la / && find / -name '*.md'",
  "echo x > /new.txt; cat /new.txt",
  "rm -rf /d; ls /",
  "seq 1 100000 | tail -1",
  "while true; do :; done",
  "echo unterminated '",
  "cat /nope",
  "node -v",
  "mkdir /a.md/sub",
  "printf '\\xff\\x00' > /bin.dat; wc -c /bin.dat",
  ": > /locked/x",
  "exit 7",
  "",
];

function randomValue(r: () => number, depth = 0): unknown {
  const kind = Math.floor(r() * 12);
  switch (kind) {
    case 0:
      return null;
    case 1:
      return Math.floor(r() * 2_000) - 1_000;
    case 2:
      return r() < 0.5;
    case 3:
      return pick(r, PATHS);
    case 4:
      return pick(r, PATTERNS);
    case 5:
      return "z".repeat(Math.floor(r() * 100_000));
    case 6:
      return depth < 2 ? Array.from({ length: Math.floor(r() * 4) }, () => randomValue(r, depth + 1)) : [];
    case 7:
      return depth < 2 ? { content: randomValue(r, depth + 1), status: pick(r, ["pending", "done", null]) } : {};
    case 8:
      return 1.5;
    case 9:
      return "line one\nline two\r\nthree";
    case 10:
      return pick(r, ["general-purpose", "nope", "files_with_matches", "content", "count", "echo hi"]);
    default:
      return "";
  }
}

function randomArgs(r: () => number, name: string): unknown {
  const shape = r();
  if (shape < 0.05) return null;
  if (shape < 0.08) return ["not", "an", "object"];
  if (shape < 0.1) return "a string";
  const args: Record<string, unknown> = {};
  // Mostly the tool's own keys, well-typed, so calls reach deep into the tools; sometimes anything.
  const plausible: Record<string, Array<[string, () => unknown]>> = {
    ls: [["path", () => pick(r, PATHS)]],
    read_file: [
      ["file_path", () => pick(r, PATHS)],
      ["offset", () => Math.floor(r() * 20) - 2],
      ["limit", () => Math.floor(r() * 50)],
    ],
    write_file: [
      ["file_path", () => pick(r, PATHS)],
      ["content", () => (r() < 0.2 ? "w".repeat(100_000) : "text")],
    ],
    edit_file: [
      ["file_path", () => pick(r, PATHS)],
      ["old_string", () => pick(r, ["text", "", "w", "nothing"])],
      ["new_string", () => pick(r, ["text", "new", ""])],
      ["replace_all", () => r() < 0.5],
    ],
    delete: [["file_path", () => pick(r, PATHS)]],
    glob: [
      ["pattern", () => pick(r, PATTERNS)],
      ["path", () => pick(r, PATHS)],
    ],
    grep: [
      ["pattern", () => pick(r, PATTERNS)],
      ["path", () => pick(r, PATHS)],
      ["glob", () => pick(r, PATTERNS)],
      ["output_mode", () => pick(r, ["content", "count", "files_with_matches", "lines"])],
    ],
    task: [
      ["description", () => "look around"],
      ["subagent_type", () => pick(r, ["general-purpose", "nope"])],
    ],
    write_todos: [["todos", () => [{ content: "a", status: pick(r, ["pending", "completed", "bad"]) }]]],
    execute: [
      ["command", () => pick(r, SHELL_COMMANDS)],
      ["timeout", () => pick(r, [1, 2, 0, -1, 5_000, 1.5])],
    ],
  };
  for (const [key, make] of plausible[name] ?? []) if (r() < 0.9) args[key] = make();
  // Sometimes a stray key or a value of the wrong type.
  if (r() < 0.25) args[pick(r, KEYS)] = randomValue(r);
  return args;
}

function randomCalls(r: () => number): ScriptedToolCall[] {
  const ids = ["call_0", "dup", "", "id with spaces", "ünïcode", "a/b.c", "x".repeat(300), "nul\u0000id", "y".repeat(5_000), "~"];
  return Array.from({ length: 1 + Math.floor(r() * CALLS_PER_RUN) }, (_, i) => {
    const name = r() < 0.9 ? pick(r, TOOLS) : pick(r, ["", "no_such_tool", "LS", "write_file "]);
    const call: ScriptedToolCall = { name, args: randomArgs(r, name) };
    const idKind = r();
    if (idKind < 0.1) call.noId = true;
    else if (idKind < 0.3) call.id = pick(r, ids);
    else call.id = `c${i}`;
    const json = r();
    if (json < 0.05) call.rawArgs = '{"file_path": "/a.md", "content": "cut';
    else if (json < 0.08) call.rawArgs = "not json at all";
    return call;
  });
}

describe(`fuzz: ${RUNS} runs of random tool calls against every built-in tool (base seed ${BASE_SEED})`, () => {
  it("never throws, never hangs, and answers every call exactly once", async () => {
    let calls = 0;
    for (let run = 0; run < RUNS; run++) {
      const seed = BASE_SEED + run;
      const r = seededRandom(seed);
      const script = randomCalls(r);
      calls += script.length;
      const model = new ScriptedChatModel({
        script: (ctx) => {
          // Children (no task tool) and the parent's second call just answer.
          if (!ctx.tools.includes("task") || ctx.call > 0) return { text: "done" };
          return { toolCalls: script };
        },
      });
      // Odd runs use the offline shell (execute included, commands cut at 2 s) over an in-memory store, even ones graph state.
      const shell = run % 2 === 1;
      const agent = createDeepAgent({
        model,
        ...(shell ? { backend: new ShellBackend({ files: new MemoryFileStore(startFiles()), maxTimeout: 2 }) } : {}),
        checkpointer: new MemorySaver(),
        todos: true,
        memory: ["/memories/AGENTS.md"],
        skills: ["/skills"],
        // The read rule is written as a folder with a trailing slash: it must still cover everything in it.
        ...(shell
          ? {}
          : {
              permissions: [
                { operations: ["write" as const], paths: ["/locked/**"], mode: "deny" as const },
                { operations: ["read" as const], paths: ["/hidden/"], mode: "deny" as const },
              ],
            }),
      });
      const started = performance.now();
      let out: { messages: BaseMessage[] };
      try {
        out = await agent.invoke(
          { messages: [new HumanMessage("fuzz")], files: startFiles() },
          { configurable: { thread_id: `fuzz-${seed}` } },
        );
      } catch (err) {
        throw new Error(`fuzz seed ${seed} threw: ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}`, { cause: err });
      }
      const elapsed = performance.now() - started;
      expect(elapsed, `fuzz seed ${seed} took ${elapsed.toFixed(0)} ms`).toBeLessThan(RUN_TIME_BOUND_MS);
      const results = out.messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m));
      expect(results.length, `fuzz seed ${seed}: ${script.length} calls, ${results.length} results`).toBe(script.length);
      expect(new Set(results.map((m) => m.tool_call_id)).size, `fuzz seed ${seed}: result ids are not unique`).toBe(script.length);
      expect(out.messages.at(-1)!.text, `fuzz seed ${seed}: the run did not end with the model's answer`).toBe("done");
      if (!shell) {
        const told = results.find((m) => m.text.includes(HIDDEN) || /replaced .*\/hidden\//.test(m.text));
        expect(told?.text, `fuzz seed ${seed}: an answer told what the read-denied /hidden/key holds`).toBeUndefined();
      }
    }
    expect(calls).toBeGreaterThan(3_000);
  }, 240_000);
});

const RESUME_RUNS = 300;

/** A resume value: mostly decisions (well-formed or not, allowed or not), sometimes anything at all. */
function randomResume(r: () => number): unknown {
  const decision = (): unknown => {
    if (r() < 0.15) return randomValue(r);
    const d: Record<string, unknown> = { type: pick(r, ["approve", "edit", "reject", "respond", "approve", "allow", null, 7]) };
    if (r() < 0.5) d.message = pick(r, ["not that", "", "  ", 42, null, ["x"]]);
    if (r() < 0.5)
      d.editedAction = pick(r, [
        { args: { file_path: "/e.md", content: "e" } },
        {},
        { args: ["x"] },
        null,
        { name: 3, args: {} },
        { name: "write_file", args: { file_path: "/e2.md", content: "e" } },
      ]);
    return d;
  };
  if (r() < 0.1) return randomValue(r);
  const resume: Record<string, unknown> = { decisions: Array.from({ length: pick(r, [0, 1, 2, 2, 2, 3]) }, decision) };
  if (r() < 0.1) resume.taskId = pick(r, ["t1", "", 5]);
  return resume;
}

describe(`fuzz: ${RESUME_RUNS} paused runs answered with random decisions (base seed ${BASE_SEED})`, () => {
  it("a resume either runs or is refused with invalid_decision, and a refused one leaves the pause as it was", async () => {
    let refused = 0;
    let accepted = 0;
    for (let run = 0; run < RESUME_RUNS; run++) {
      const seed = BASE_SEED + run;
      const r = seededRandom(seed);
      const model = new ScriptedChatModel({
        script: (ctx) =>
          ctx.call > 0
            ? { text: "done" }
            : {
                toolCalls: [
                  { name: "write_file", args: { file_path: "/w.md", content: "w" }, id: "w" },
                  { name: "delete", args: { file_path: "/a.md" }, id: "d" },
                ],
              },
      });
      const agent = createDeepAgent({
        model,
        checkpointer: new MemorySaver(),
        interruptOn: { write_file: { allowedDecisions: ["approve", "reject"] }, delete: true },
      });
      const config = { configurable: { thread_id: `resume-${seed}` } };
      await agent.invoke({ messages: [new HumanMessage("fuzz")], files: startFiles() }, config);
      const pauseOf = async () => JSON.stringify((await agent.getState(config)).tasks.flatMap((t) => t.interrupts));
      const paused = await pauseOf();
      let done = false;
      for (let attempt = 0; attempt < 4 && !done; attempt++) {
        const resume = randomResume(r);
        try {
          await agent.invoke(new Command({ resume }), config);
          done = true;
          accepted++;
        } catch (err) {
          const code = (err as { code?: unknown }).code;
          expect(code, `resume seed ${seed}: ${JSON.stringify(resume)} threw ${String(err)}`).toBe("invalid_decision");
          expect(await pauseOf(), `resume seed ${seed}: a refused decision changed the pause`).toBe(paused);
          refused++;
        }
      }
      if (!done) await agent.invoke(new Command({ resume: { decisions: [{ type: "approve" }, { type: "approve" }] } }), config);
      const state = await agent.getState(config);
      const messages = (state.values as { messages: BaseMessage[] }).messages;
      const results = messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m));
      expect(results.length, `resume seed ${seed}: every call gets one result`).toBe(2);
      expect(messages.at(-1)!.text, `resume seed ${seed}: the run did not end with the model's answer`).toBe("done");
    }
    // Both outcomes are exercised.
    expect(refused).toBeGreaterThan(RESUME_RUNS / 2);
    expect(accepted).toBeGreaterThan(RESUME_RUNS / 10);
  }, 240_000);
});
