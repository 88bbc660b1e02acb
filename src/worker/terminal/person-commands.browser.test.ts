/**
 * The person's commands in the app's real agent worker (agent.worker.ts, real IndexedDB, the demo model, the
 * offline shell): they run over the same files as the agent (a file the person writes, the agent's read_file reads;
 * a file the agent's write_file wrote, the person's cat prints), Ctrl+C (cancelCommand) stops a runaway loop, the
 * output cap holds, a rule that asks before commands asks, a command waits while the agent runs, and `python3` (Pyodide,
 * from the site's own copy of the npm package) runs from the person's terminal and writes into the workspace.
 */
import { describe, expect, it, vi } from "vitest";
import type { CommandResult } from "../../protocol/terminal.ts";
import { demoNotePath } from "../../models/demo.ts";
import { WAIT } from "../../testing/wait.ts";
import { filesOf, messagesOf, workerPool } from "../../testing/worker-pool.ts";
import type { AgentClient } from "../../page/client.ts";

const { spawn } = workerPool();

async function shell(client: AgentClient, threadId: string, command: string, approved = false) {
  let printed = "";
  const result = await client.runCommand(threadId, command, (chunk) => void (printed += chunk), { approved });
  return { result, printed };
}

function value(result: CommandResult) {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value;
}

async function agentTurn(client: AgentClient, threadId: string, text: string) {
  const run = await client.run(threadId, { text });
  if (!run.ok) throw new Error(run.error.message);
  expect(await run.value.done).toMatchObject({ status: "complete" });
}

describe("the person's terminal in the agent worker", () => {
  it("shares the files both ways with the agent", async () => {
    const client = spawn();
    await client.updateSettings({ sandbox: "shell", approveExecute: false });
    const mine = await shell(client, "t-files", "mkdir -p /work && echo person-line > /work/person.txt && echo done");
    expect(value(mine.result)).toMatchObject({ exitCode: 0, output: "done\n", sandbox: "shell", cancelled: false });
    expect(mine.printed).toBe("done\n");

    // The demo agent appends to the file with execute, then reads it with read_file: the person's line is there.
    await agentTurn(client, "t-files", "$ echo agent-line >> /work/person.txt");
    const read = (await messagesOf(client, "t-files")).filter((m) => m.role === "tool" && m.name === "read_file");
    expect(read.at(-1)?.content).toMatch(/person-line[\s\S]*agent-line/);

    // A plain message makes the demo agent write its note with write_file (the second turn's): the person's cat prints it.
    await agentTurn(client, "t-files", "remember the plums");
    expect(demoNotePath(2)).toBe("/hello-2.md");
    const cat = await shell(client, "t-files", `cat ${demoNotePath(2)}`);
    expect(value(cat.result).output).toContain("You said: remember the plums");
    // Nothing the person ran entered the conversation.
    const texts = (await messagesOf(client, "t-files")).map((m) => m.content).join("\n");
    expect(texts).not.toContain("person-line > /work/person.txt");
  }, 120_000);

  it("stops a runaway loop on Ctrl+C, and the next command runs", async () => {
    const client = spawn();
    await client.updateSettings({ sandbox: "shell", approveExecute: false });
    const looping = shell(client, "t-stop", "echo started > /started.txt; while true; do :; done");
    // The loop runs once its first line has written the file.
    await vi.waitFor(async () => expect((await client.readFile("t-stop", "/started.txt", 0, 10)).ok).toBe(true), WAIT);
    expect((await shell(client, "t-stop", "echo second")).result).toMatchObject({ ok: false, error: { code: "command_running" } });
    const stopAt = performance.now();
    expect(await client.cancelCommand("t-stop")).toBe(true);
    expect(value((await looping).result)).toMatchObject({ cancelled: true, exitCode: null, output: "^C" });
    expect(performance.now() - stopAt).toBeLessThan(3_000);
    expect(await client.cancelCommand("t-stop")).toBe(false);
    expect(value((await shell(client, "t-stop", "echo after")).result).output).toBe("after\n");
  }, 120_000);

  it("cuts the output at the agent's cap", async () => {
    const client = spawn();
    await client.updateSettings({ sandbox: "shell", approveExecute: false });
    const { result, printed } = await shell(client, "t-cap", "seq 1 300000");
    const run = value(result);
    expect(run.truncated).toBe(true);
    expect(new TextEncoder().encode(run.output).length).toBeLessThanOrEqual(1_000_000);
    expect(run.output.startsWith("1\n2\n3\n")).toBe(true);
    expect(printed).toBe(run.output);
  }, 120_000);

  it("asks first where a rule asks before commands, and shares /tmp with the agent's commands", async () => {
    const client = spawn();
    await client.updateSettings({ sandbox: "shell", approveExecute: true });
    const asked = await shell(client, "t-rule", "echo from-person > /tmp/shared.txt");
    expect(asked.result).toMatchObject({ ok: false, error: { code: "needs_approval", rule: '"Ask before running commands" (Settings)' } });
    expect((await client.readFile("t-rule", "/tmp/shared.txt", 0, 10)).ok).toBe(false);
    expect(value((await shell(client, "t-rule", "echo from-person > /tmp/shared.txt", true)).result).exitCode).toBe(0);

    await client.updateSettings({ approveExecute: false });
    await agentTurn(client, "t-rule", "$ cat /tmp/shared.txt");
    const ran = (await messagesOf(client, "t-rule")).filter((m) => m.role === "tool" && m.name === "execute");
    expect(ran.at(-1)?.content).toContain("from-person");
  }, 120_000);

  it("waits while the agent runs in the thread, and refuses a thread without a sandbox", async () => {
    const client = spawn();
    await client.updateSettings({ sandbox: "shell", approveExecute: false });
    const run = await client.run("t-busy", { text: "$ while true; do :; done" });
    if (!run.ok) throw new Error(run.error.message);
    expect((await shell(client, "t-busy", "ls")).result).toMatchObject({ ok: false, error: { code: "thread_busy" } });
    await client.cancel(run.value.runId);
    await run.value.done;
    expect(value((await shell(client, "t-busy", "echo free")).result).output).toBe("free\n");

    await client.updateSettings({ sandbox: "none" });
    expect((await shell(client, "t-busy", "ls")).result).toMatchObject({ ok: false, error: { code: "no_sandbox" } });
    expect((await shell(client, "t-busy", "   ")).result).toMatchObject({ ok: false, error: { code: "empty_command" } });
  }, 120_000);

  it("runs python3 (Pyodide) from the person's terminal: its output redirected into a file of the workspace", async () => {
    const client = spawn();
    await client.updateSettings({ sandbox: "shell", approveExecute: false });
    // Pyodide's first load in this worker comes from the self-hosted package; its time is not the command's timeout.
    const ran = await shell(client, "t-py", `python3 -c "print(6*7)" > /py.txt; cat /py.txt`);
    expect(value(ran.result)).toMatchObject({ exitCode: 0, output: "42\n", sandbox: "shell", timedOut: false });
    // The terminal also saw the note the first use prints while Python loads (not part of the command's output).
    expect(ran.printed).toMatch(/^\[python3: loading Python[^\n]*\n[\s\S]*42\n$/);
    // The file is the thread's, as the agent and the Files panel see it.
    await vi.waitFor(async () => expect((await filesOf(client, "t-py"))["/py.txt"]).toEqual({ content: "42" }), WAIT);
    const again = await shell(client, "t-py", `python3 -c "import sys; print(sys.version_info[0])"`);
    expect(value(again.result).output).toBe("3\n");
  }, 240_000);
});
