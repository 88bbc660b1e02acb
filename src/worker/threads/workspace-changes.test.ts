import { describe, expect, it } from "vitest";
import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { ASYNC_SUBAGENT_SOURCE, RUBRIC_GRADER_SOURCE, STEERED_KEY, WORKSPACE_NOTE_SOURCE } from "../../core/messages.ts";
import { changesBetween, isTracked, quoted, restoreSteps, turnMessageIds, workspaceNote } from "./workspace-changes.ts";

describe("the workspace over time", () => {
  const before = { "/a.txt": "h1", "/b.txt": "h2", "/c.txt": "h3" };
  const after = { "/a.txt": "h1", "/b.txt": "h9", "/d.txt": "h4" };

  it("lists what changed between two manifests, by path", () => {
    expect(changesBetween(before, after)).toEqual([
      { path: "/b.txt", kind: "changed" },
      { path: "/c.txt", kind: "deleted" },
      { path: "/d.txt", kind: "added" },
    ]);
    expect(changesBetween(after, after)).toEqual([]);
    expect(changesBetween({}, {})).toEqual([]);
  });

  it("restores a manifest: writes what differs or went, deletes what is new; only the asked paths when given", () => {
    expect(restoreSteps(after, before)).toEqual({ write: ["/b.txt", "/c.txt"], remove: ["/d.txt"] });
    expect(restoreSteps(after, before, ["/d.txt"])).toEqual({ write: [], remove: ["/d.txt"] });
    expect(restoreSteps(after, before, ["/a.txt"])).toEqual({ write: [], remove: [] });
    expect(restoreSteps(before, before)).toEqual({ write: [], remove: [] });
  });

  it("leaves the harness's and the shared paths out", () => {
    expect(isTracked("/notes/a.md")).toBe(true);
    expect(isTracked("/uploads/x.png")).toBe(true);
    for (const p of ["/memories/AGENTS.md", "/skills/s/SKILL.md", "/large_tool_results/c1", "/conversation_history/t.md"])
      expect(isTracked(p)).toBe(false);
  });

  it("words the agent's note the same way every time", () => {
    expect(workspaceNote("revert", "Write the plan\nplease", { write: ["/plan.md"], remove: ["/new.txt"] })).toBe(
      '[Workspace note] The person reverted these files to how they were before their message "Write the plan please": ' +
        "/new.txt (deleted: it did not exist then), /plan.md (restored). Read a file again before relying on it.",
    );
    expect(workspaceNote("rewind", "go", { write: [], remove: [] })).toContain("restored the workspace to how it was before");
    expect(quoted("x".repeat(100))).toHaveLength(82);
  });

  it("ends the turn of the last message that started one, and of every message steered into it", () => {
    const person = (id: string) => new HumanMessage({ id, content: id });
    const steered = (id: string) => new HumanMessage({ id, content: id, additional_kwargs: { [STEERED_KEY]: true } });
    const tagged = (id: string, source: string) => new HumanMessage({ id, content: id, additional_kwargs: { lc_source: source } });
    const call = new AIMessage({ content: "", tool_calls: [{ id: "c", name: "ls", args: {} }] });
    const result = new ToolMessage({ tool_call_id: "c", content: "" });
    expect(turnMessageIds([person("a"), new AIMessage("done"), person("b"), new AIMessage("done")])).toEqual(["b"]);
    expect(turnMessageIds([person("a"), call, result, steered("s1"), steered("s2"), new AIMessage("done")])).toEqual(["a", "s1", "s2"]);
    // A message queued as a run ended starts the next turn (not marked steered): the earlier turn is left as it ended.
    expect(turnMessageIds([person("a"), call, result, steered("s1"), new AIMessage("x"), person("q"), new AIMessage("y")])).toEqual(["q"]);
    expect(turnMessageIds([person("a"), tagged("g", RUBRIC_GRADER_SOURCE), tagged("n", WORKSPACE_NOTE_SOURCE)])).toEqual(["a"]);
    // An async subagent's status note, added after the person's message as a run starts, is not a turn of theirs.
    expect(turnMessageIds([person("a"), tagged("t", ASYNC_SUBAGENT_SOURCE), new AIMessage("ok")])).toEqual(["a"]);
    expect(turnMessageIds([new AIMessage("hi")])).toEqual([]);
  });
});
