import { describe, expect, it, vi } from "vitest";
import { ok } from "../../core/result.ts";
import type { CommandResult, CommandRun } from "../../protocol/terminal.ts";
import { PersonTerminal, SHARE_OUTPUT_CAP, shareText, type CommandRunner, type PersonCommand } from "./person-terminal.ts";

/** What the terminal drew, escape sequences removed. */
function plain(text: string): string {
  // eslint-disable-next-line no-control-regex -- the escape sequences drawn
  return text.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "").replace(/\r/g, "");
}

const run = (over: Partial<CommandRun>): CommandResult =>
  ok({ output: "", exitCode: 0, truncated: false, timedOut: false, cancelled: false, durationMs: 1, sandbox: "shell", ...over });

function setup(answer: (command: string, onOutput: (c: string) => void, approved: boolean) => Promise<CommandResult>) {
  let drawn = "";
  const screen = { write: (t: string) => void (drawn += t), clear: () => void (drawn = ""), cols: 80 };
  const runner: CommandRunner = { run: vi.fn(answer), cancel: vi.fn(async () => true) };
  const changes: (readonly PersonCommand[])[] = [];
  const term = new PersonTerminal(screen, runner, (c) => changes.push(c));
  term.start("hello");
  return { term, runner, changes, drawn: () => plain(drawn) };
}

describe("the person's terminal", () => {
  it("runs a submitted line, shows its output and lists it", async () => {
    const t = setup(async (_command, onOutput) => {
      onOutput("hi\n");
      return run({ output: "hi\n" });
    });
    t.term.input("echo hi");
    t.term.input("\r");
    await vi.waitFor(() => expect(t.changes).toHaveLength(1));
    expect(t.runner.run).toHaveBeenCalledWith("echo hi", expect.any(Function), false);
    expect(t.drawn()).toContain("$ echo hi\nhi\n$ ");
    expect(t.changes[0]).toEqual([{ key: 0, command: "echo hi", output: "hi\n", state: "succeeded", exitCode: 0, truncated: false }]);
    expect(t.term.busy).toBe(false);
  });

  it("prints what was not streamed (a timeout's message), the exit code and a cut", async () => {
    const t = setup(async () => run({ output: "Error: Command timed out", exitCode: null, timedOut: true, truncated: true }));
    t.term.input("sleep 999\r");
    await vi.waitFor(() => expect(t.changes).toHaveLength(1));
    expect(t.drawn()).toContain("Error: Command timed out\n[output cut at the sandbox's limit]\n[timed out]\n$ ");
    expect(t.changes[0]![0]!.state).toBe("timed_out");
  });

  it("sends Ctrl+C to a running command and ignores other keys meanwhile", async () => {
    let finish: (r: CommandResult) => void = () => undefined;
    const t = setup(() => new Promise((resolve) => (finish = resolve)));
    t.term.input("while true; do :; done\r");
    expect(t.term.busy).toBe(true);
    t.term.input("ls\r");
    t.term.input("\x03");
    expect(t.runner.cancel).toHaveBeenCalledTimes(1);
    expect(t.runner.run).toHaveBeenCalledTimes(1);
    finish(run({ output: "^C", exitCode: null, cancelled: true }));
    await vi.waitFor(() => expect(t.term.busy).toBe(false));
    expect(t.drawn()).toMatch(/\^C\n\$ $/);
    expect(t.changes[0]![0]!.state).toBe("cancelled");
  });

  it("asks before a command a rule stops, and runs it only on y", async () => {
    const t = setup(async (_c, _o, approved) =>
      approved
        ? run({ output: "ran\n" })
        : { ok: false, error: { name: "Error", code: "needs_approval", message: "Approval needed: the rule.", rule: "the rule" } },
    );
    t.term.input("rm -r /x\r");
    await vi.waitFor(() => expect(t.drawn()).toContain("Approval needed: the rule. Run it? [y/N] "));
    t.term.input("n");
    await vi.waitFor(() => expect(t.drawn()).toContain("n\nNot run.\n$ "));
    expect(t.runner.run).toHaveBeenCalledTimes(1);
    t.term.input("\x1b[A\r");
    await vi.waitFor(() => expect(t.term.busy).toBe(true));
    t.term.input("y");
    await vi.waitFor(() => expect(t.changes).toHaveLength(1));
    expect(t.runner.run).toHaveBeenLastCalledWith("rm -r /x", expect.any(Function), true);
  });

  it("says why a command was refused, and keeps it out of the list", async () => {
    const t = setup(async () => ({
      ok: false,
      error: { name: "Error", code: "thread_busy", message: "The agent is working in this thread." },
    }));
    t.term.input("ls\r");
    await vi.waitFor(() => expect(t.drawn()).toContain("The agent is working in this thread.\n$ "));
    expect(t.changes).toEqual([]);
  });

  it("clears the screen on Ctrl+L and keeps the line", () => {
    const t = setup(async () => run({}));
    t.term.input("abc");
    t.term.input("\x0c");
    expect(t.drawn()).toBe("$ abc");
  });
});

describe("shareText", () => {
  const command: PersonCommand = { key: 0, command: "ls", output: "a\nb\n", state: "succeeded", exitCode: 0, truncated: false };

  it("quotes the command, its output and how it ended", () => {
    expect(shareText(command)).toBe("I ran this in the terminal (exit code 0):\n```\n$ ls\na\nb\n```");
  });

  it("keeps the output's tail under the cap and never breaks its fence", () => {
    const long = shareText({ ...command, output: "x".repeat(SHARE_OUTPUT_CAP + 10), state: "failed", exitCode: 2 });
    expect(long).toContain("(exit code 2)");
    expect(long).toContain("[… the first 10 characters left out]");
    expect(long.length).toBeLessThan(SHARE_OUTPUT_CAP + 200);
    expect(shareText({ ...command, output: "```\n" })).toMatch(/^I ran .*\n~~~~\n\$ ls\n```\n~~~~$/);
  });
});

describe("the person's terminal's history", () => {
  it("starts from a kept history and reports each command that joins it (the command only, never its output)", async () => {
    let drawn = "";
    const screen = { write: (t: string) => void (drawn += t), clear: () => void (drawn = ""), cols: 80 };
    const runner: CommandRunner = { run: vi.fn(async () => run({ output: "SECRET OUTPUT\n" })), cancel: vi.fn(async () => true) };
    const kept: (readonly string[])[] = [];
    const term = new PersonTerminal(screen, runner, () => undefined, { history: ["ls", "pwd"], onHistory: (h) => kept.push(h) });
    term.start("hello");
    term.input("\x1b[A");
    expect(plain(drawn)).toContain("$ pwd");
    term.input("\x1b[B");
    term.input("echo new\r");
    await vi.waitFor(() => expect(term.busy).toBe(false));
    expect(kept).toEqual([["ls", "pwd", "echo new"]]);
    // A blank line and a repeat change nothing.
    term.input("\r");
    term.input("\x1b[A\r");
    await vi.waitFor(() => expect(term.busy).toBe(false));
    expect(kept).toHaveLength(1);
    expect(JSON.stringify(kept)).not.toContain("SECRET");
  });
});
