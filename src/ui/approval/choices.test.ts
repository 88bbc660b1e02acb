import { describe, expect, it } from "vitest";
import type { ApprovalAction } from "../../protocol/approvals.ts";
import {
  allApprovable,
  allowedOf,
  approvalTitle,
  argsView,
  descriptionOf,
  enterApproves,
  initialChoices,
  originLabel,
  parseEditedArgs,
  toDecisions,
  waitingLabel,
  type ApprovalContent,
  type Choice,
} from "./choices.ts";

const ALL = ["approve", "edit", "reject", "respond"] as const;

function action(name: string, args: Record<string, unknown>, allowed: ApprovalAction["allowedDecisions"] = [...ALL]): ApprovalAction {
  return { name, args, description: `Run ${name}?`, allowedDecisions: allowed };
}

const del = action("delete", { file_path: "/hello.md" });
const one: ApprovalContent = { actions: [del] };
const two: ApprovalContent = { actions: [del, action("execute", { command: "ls" }, ["approve"])] };

const pick = (approval: ApprovalContent, ...patches: Partial<Choice>[]): Choice[] =>
  initialChoices(approval).map((c, i) => ({ ...c, ...patches[i] }));

describe("initialChoices", () => {
  it("gives one empty choice per action, the edit box holding the arguments as JSON", () => {
    expect(initialChoices(two)).toEqual([
      { type: null, editText: '{\n  "file_path": "/hello.md"\n}', reason: "", answer: "" },
      { type: null, editText: '{\n  "command": "ls"\n}', reason: "", answer: "" },
    ]);
    expect(initialChoices(null)).toEqual([]);
  });
});

describe("parseEditedArgs", () => {
  it("accepts a JSON object", () => {
    expect(parseEditedArgs(' { "a": [1, 2] } ')).toEqual({ ok: true, value: { a: [1, 2] } });
  });

  it("refuses empty text, bad JSON and JSON that is not an object", () => {
    expect(parseEditedArgs("  ")).toEqual({ ok: false, error: "Enter the arguments as a JSON object." });
    const bad = parseEditedArgs('{"a": ');
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.error).toMatch(/^Not valid JSON: /);
    for (const text of ["[1]", "null", "3", '"s"']) {
      expect(parseEditedArgs(text)).toEqual({ ok: false, error: "The arguments must be a JSON object ({ … })." });
    }
  });
});

describe("toDecisions", () => {
  it("turns choices into one decision per action, in order", () => {
    expect(toDecisions(two, pick(two, { type: "reject", reason: "  keep it " }, { type: "approve" }))).toEqual({
      ok: true,
      value: [{ type: "reject", message: "keep it" }, { type: "approve" }],
    });
    expect(toDecisions(one, pick(one, { type: "reject", reason: "   " }))).toEqual({ ok: true, value: [{ type: "reject" }] });
    expect(toDecisions(one, pick(one, { type: "respond", answer: " It is gone already. " }))).toEqual({
      ok: true,
      value: [{ type: "respond", message: "It is gone already." }],
    });
  });

  it("sends an edit with the tool's name and the parsed arguments", () => {
    expect(toDecisions(one, pick(one, { type: "edit", editText: '{"file_path": "/other.md"}' }))).toEqual({
      ok: true,
      value: [{ type: "edit", editedAction: { name: "delete", args: { file_path: "/other.md" } } }],
    });
  });

  it("refuses a missing choice, naming the call", () => {
    expect(toDecisions(two, pick(two, { type: "approve" }))).toEqual({ ok: false, error: "Choose a decision for call 2 (execute)." });
    expect(toDecisions(one, pick(one))).toEqual({ ok: false, error: "Choose a decision for delete." });
  });

  it("refuses a decision the action does not allow (an approve-only call cannot be rejected)", () => {
    const result = toDecisions(two, pick(two, { type: "approve" }, { type: "reject" }));
    expect(result).toEqual({ ok: false, error: "call 2 (execute): Reject is not allowed; allowed: Approve." });
  });

  it("refuses an incomplete choice: bad edited JSON, an empty answer, a wrong count", () => {
    const edit = toDecisions(one, pick(one, { type: "edit", editText: "[]" }));
    expect(edit).toEqual({ ok: false, error: "delete: The arguments must be a JSON object ({ … })." });
    expect(toDecisions(one, pick(one, { type: "respond", answer: "  " }))).toEqual({
      ok: false,
      error: "delete: Write the answer the agent gets instead of the tool's result.",
    });
    expect(toDecisions(two, pick(one, { type: "approve" }))).toEqual({
      ok: false,
      error: "Give one decision for each of the 2 calls (got 1).",
    });
  });
});

describe("labels", () => {
  it("names the origin", () => {
    expect(originLabel(one)).toBe("Main agent");
    expect(originLabel({ ...one, subagent: { type: "general-purpose", taskId: "t1" } })).toBe("Subagent general-purpose");
  });

  it("names the requests waiting after the shown one (parallel subagents are shown one after another)", () => {
    expect(waitingLabel(one)).toBeNull();
    const writer = { type: "writer", taskId: "t2" };
    expect(waitingLabel({ ...one, waiting: [{ subagent: writer, tools: ["write_file"] }] })).toBe(
      "1 more request waits after this one: Subagent writer (write_file)",
    );
    expect(waitingLabel({ ...one, waiting: [{ subagent: writer, tools: ["write_file"] }, { tools: ["delete", "execute"] }] })).toBe(
      "2 more requests wait after this one: Subagent writer (write_file); Main agent (delete, execute)",
    );
  });

  it("titles the dialog", () => {
    expect(approvalTitle(one)).toBe("Approve delete?");
    expect(approvalTitle(two)).toBe("Approve 2 tool calls");
    expect(approvalTitle({ actions: [action("delete", {}, ["reject", "respond"])] })).toBe("Review delete?");
  });

  it("lists allowed decisions in a fixed order, and only those", () => {
    expect(allowedOf(action("x", {}, ["respond", "approve", "respond"]))).toEqual(["approve", "respond"]);
    expect(allApprovable(two)).toBe(true);
    expect(allApprovable({ actions: [del, action("x", {}, ["reject"])] })).toBe(false);
  });

  it("drops the arguments the default description repeats", () => {
    const args = { file_path: "/hello.md" };
    const generic = `Tool execution requires approval\n\nTool: delete\nArgs: ${JSON.stringify(args, null, 2)}`;
    expect(descriptionOf({ ...del, description: generic })).toBe("Tool execution requires approval");
    expect(descriptionOf({ ...del, description: "Deletes a file.\n\nTool: other" })).toBe("Deletes a file.\n\nTool: other");
  });
});

describe("enterApproves", () => {
  it("approves on Enter only when every action allows approve and nothing else is picked", () => {
    expect(enterApproves(two, pick(two))).toBe(true);
    expect(enterApproves(two, pick(two, { type: "approve" }))).toBe(true);
    expect(enterApproves(two, pick(two, { type: "reject" }))).toBe(false);
    expect(enterApproves(two, pick(two, { type: "edit" }))).toBe(false);
    const noApprove: ApprovalContent = { actions: [del, action("x", {}, ["reject", "respond"])] };
    expect(enterApproves(noApprove, pick(noApprove))).toBe(false);
    expect(enterApproves(two, pick(one))).toBe(false);
    expect(enterApproves({ actions: [] }, [])).toBe(false);
  });
});

describe("argsView", () => {
  it("shows execute's command, a diff for file changes, JSON otherwise", () => {
    expect(argsView(action("execute", { command: "npm test" }))).toEqual({ kind: "command", command: "npm test", rest: null });
    expect(argsView(action("execute", { command: "ls", timeout: 5 }))).toEqual({ kind: "command", command: "ls", rest: { timeout: 5 } });
    expect(argsView(action("execute", { command: 3 }))).toEqual({ kind: "json", text: '{\n  "command": 3\n}' });
    const change = { path: "/a.md", before: "a\n", after: "b\n" };
    expect(argsView({ ...action("edit_file", { file_path: "/a.md" }), change })).toEqual({ kind: "diff", ...change });
    expect(argsView({ ...action("write_file", { file_path: "/a.md" }), change })).toEqual({ kind: "diff", ...change });
    expect(argsView(action("edit_file", { file_path: "/a.md" }))).toEqual({ kind: "json", text: '{\n  "file_path": "/a.md"\n}' });
    expect(argsView({ ...action("delete", { file_path: "/a.md" }), change })).toMatchObject({ kind: "json" });
  });
});
