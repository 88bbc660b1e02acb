import { describe, expect, it } from "vitest";
import { parseExecuteResult, stateLabel, terminalCommands } from "./terminal.ts";
import type { TimelineItem, ToolItem } from "../chat/timeline.ts";

const toolItem = (id: string, name: string, args: Record<string, unknown>, rest: Partial<ToolItem>): ToolItem => ({
  kind: "tool",
  index: 0,
  call: { id, name, args },
  status: "done",
  ...rest,
});
const exec = (id: string, command: string, rest: Partial<ToolItem>): ToolItem => toolItem(id, "execute", { command }, rest);

describe("terminal", () => {
  it("parses deepagents' execute trailers", () => {
    expect(parseExecuteResult("3\n2\n1\n\n[Command succeeded with exit code 0]")).toMatchObject({ output: "3\n2\n1\n", exitCode: 0 });
    expect(parseExecuteResult("nope\n[Command failed with exit code 127]")).toMatchObject({ output: "nope", exitCode: 127 });
    expect(parseExecuteResult("x\n[Command timed out]")).toMatchObject({ output: "x", exitCode: null, timedOut: true });
    expect(parseExecuteResult("x\n[Command failed with exit code 1]\n[Output was truncated due to size limits]")).toMatchObject({
      output: "x",
      exitCode: 1,
      truncated: true,
    });
    expect(parseExecuteResult("Error: Execution not available.")).toMatchObject({ recognized: false, exitCode: null });
  });

  it("lists execute calls in order, nested ones at their task, with live output and states", () => {
    const items: TimelineItem[] = [
      { kind: "user", index: 0, text: "go" },
      exec("a", "ls", { result: "a.txt\n[Command succeeded with exit code 0]" }),
      {
        kind: "tool",
        index: 1,
        call: { id: "t", name: "task", args: { subagent_type: "general-purpose", description: "x" } },
        status: "running",
        children: [exec("b", "false", { result: "\n[Command failed with exit code 1]" })],
      },
      exec("c", "sleep 9", { status: "running", output: "tick\n" }),
    ];
    const commands = terminalCommands(items);
    expect(commands.map((c) => [c.command, c.state, c.exitCode, c.output, c.subagent])).toEqual([
      ["ls", "succeeded", 0, "a.txt", undefined],
      ["false", "failed", 1, "", "general-purpose"],
      ["sleep 9", "running", null, "tick\n", undefined],
    ]);
    expect(commands.map(stateLabel)).toEqual(["Exit code 0", "Exit code 1", "Running"]);
  });

  it("lists js_eval runs beside commands, their code as the command: finished, or an error with the interpreter's message", () => {
    const js = (id: string, code: string, rest: Partial<ToolItem>): ToolItem => toolItem(id, "js_eval", { code }, rest);
    const items: TimelineItem[] = [
      js("j1", "console.log(6 * 7)", { result: "42" }),
      exec("a", "ls", { result: "a.txt\n[Command succeeded with exit code 0]" }),
      js("j2", "while (true) {}", { status: "error", result: "TimeoutError: The code ran longer than 30 seconds and was stopped." }),
    ];
    expect(terminalCommands(items).map((c) => [c.command, c.state, c.output])).toEqual([
      ["console.log(6 * 7)", "finished", "42"],
      ["ls", "succeeded", "a.txt"],
      ["while (true) {}", "error", "TimeoutError: The code ran longer than 30 seconds and was stopped."],
    ]);
  });

  it("lists python runs (tools/python.ts) with their code as the command and execute's exit code", () => {
    const items: TimelineItem[] = [
      toolItem("p1", "python", { code: "print(6 * 7)" }, { result: "42\n\n[Command succeeded with exit code 0]" }),
      toolItem("p2", "python", { code: "1/0" }, { result: "ZeroDivisionError: division by zero\n[Command failed with exit code 1]" }),
    ];
    expect(terminalCommands(items).map((c) => [c.command, c.state, c.exitCode, c.output])).toEqual([
      ["print(6 * 7)", "succeeded", 0, "42\n"],
      ["1/0", "failed", 1, "ZeroDivisionError: division by zero"],
    ]);
  });

  it("shows a command answered or rejected at an approval as not run, with the person's text as a note, not as output", () => {
    const commands = terminalCommands([
      exec("a", "npm run build", { status: "responded", result: "It is already built." }),
      exec("b", "rm -rf /", { status: "rejected", result: "No." }),
    ]);
    expect(commands.map((c) => [c.state, c.output, c.note, stateLabel(c)])).toEqual([
      ["responded", "", "It is already built.", "Responded (not run)"],
      ["rejected", "", "No.", "Rejected (not run)"],
    ]);
  });
});
