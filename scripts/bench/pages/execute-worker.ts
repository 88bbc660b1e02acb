/**
 * Bench page (scripts/bench/browser.ts): the app's real agent worker
 * (src/worker/agent.worker.ts through `connectAgent`) on the demo model, with
 * the offline shell and approvals off. Interleaves "$ true" turns (the demo
 * model calls `execute`, then answers) with plain demo turns (`write_file`,
 * then the answer), two of the first to one of the second, each kind on its
 * own thread, after one warm-up of each, and reads each tool result's
 * `durationMs` from `getThread`. Then times
 * `ShellBackend.execute("true")` on this page: over a MemoryFileStore, and
 * over an IndexedDB workspace with a new ShellBackend per call (as the
 * worker's sandbox service builds it), and how long the demo model's
 * `setTimeout(DEMO_CHUNK_DELAY_MS)` pause really takes (timers run late).
 *
 * Open /scripts/bench/pages/execute-worker.html on the Vite dev server and
 * call `window.benchExecuteWorker()`; `npm run bench` does that in headless Chromium.
 */
import { IndexedDBBackend, IndexedDBFiles } from "../../../src/backends/indexeddb.ts";
import { MemoryFileStore } from "../../../src/backends/memory-store.ts";
import { ShellBackend } from "../../../src/backends/sandbox/shell.ts";
import { newShellSession } from "../../../src/backends/sandbox/shell-session.ts";
import { DEMO_CHUNK_DELAY_MS } from "../../../src/models/demo.ts";
import { connectAgent, type AgentClient } from "../../../src/page/client.ts";
import { spawnAgentWorker } from "../../../src/page/spawn.ts";
import type { ExecuteBenchResult, TurnRun } from "./results.ts";

const ROUNDS = 10;
const DIRECT_CALLS = 200;
const COMMAND = "true";

/** One turn on the thread: wall time, the demo model's pauses, and the named tool's recorded duration. */
async function turn(client: AgentClient, threadId: string, text: string, toolName: string): Promise<TurnRun> {
  let chunks = 0;
  const answers = new Set<string | undefined>();
  const start = performance.now();
  const started = await client.run(threadId, { text }, (e) => {
    if (e.type !== "token") return;
    chunks += e.chunks;
    answers.add(e.messageId);
  });
  if (!started.ok) throw new Error(started.error.message);
  const end = await started.value.done;
  const wallMs = performance.now() - start;
  if (end.type !== "done" || end.status !== "complete") throw new Error(`turn "${text}" ended ${JSON.stringify(end)}`);
  const result = (await client.getThread(threadId)).messages.findLast((m) => m.role === "tool" && m.name === toolName);
  if (!result || result.status !== "success" || result.durationMs === undefined)
    throw new Error(`turn "${text}": no successful ${toolName} result with a duration`);
  if (toolName === "execute" && !result.content.includes("exit code 0")) throw new Error(`execute failed: ${result.content}`);
  // The demo pauses between the streamed chunks of an answer, not before its first.
  return { wallMs, pauses: chunks - answers.size, toolMs: result.durationMs };
}

/** Per-call times of `execute(COMMAND)` on the backend `next()` returns, after a warm-up. */
async function timeExecute(next: () => ShellBackend): Promise<number[]> {
  for (let i = 0; i < 5; i++) await next().execute(COMMAND);
  const times: number[] = [];
  for (let i = 0; i < DIRECT_CALLS; i++) {
    const shell = next();
    const start = performance.now();
    const out = await shell.execute(COMMAND);
    times.push(performance.now() - start);
    if (out.exitCode !== 0) throw new Error(`ShellBackend.execute("${COMMAND}") exited ${out.exitCode}`);
  }
  return times;
}

async function bench(): Promise<ExecuteBenchResult> {
  const client = connectAgent(spawnAgentWorker());
  const execute: TurnRun[] = [];
  const plain: TurnRun[] = [];
  try {
    await client.updateSettings({ sandbox: "shell", approveExecute: false });
    const status = await client.sandboxStatus();
    if (status.active !== "shell") throw new Error(`the sandbox is ${status.active}, not the offline shell`);
    const shellTurn = () => turn(client, "bench-execute", `$ ${COMMAND}`, "execute");
    const plainTurn = () => turn(client, "bench-plain", "hello", "write_file");
    await shellTurn();
    await plainTurn();
    // Rounds of "$ true", plain, "$ true": the cheap execute turns twice as often (durationMs is in whole ms).
    for (let i = 0; i < ROUNDS; i++) {
      execute.push(await shellTurn());
      plain.push(await plainTurn());
      execute.push(await shellTurn());
    }
  } finally {
    client.close();
  }

  const memory = new ShellBackend({ files: new MemoryFileStore() });
  const memoryMs = await timeExecute(() => memory);
  const files = new IndexedDBFiles({ dbName: "bench-execute-files" });
  const session = newShellSession();
  try {
    const indexedDBMs = await timeExecute(() => new ShellBackend({ files: new IndexedDBBackend(files, "bench"), session }));
    const timerMs: number[] = [];
    for (let i = 0; i < 20; i++) {
      const start = performance.now();
      await new Promise((resolve) => setTimeout(resolve, DEMO_CHUNK_DELAY_MS));
      timerMs.push(performance.now() - start);
    }
    return { command: COMMAND, chunkDelayMs: DEMO_CHUNK_DELAY_MS, timerMs, execute, plain, memoryMs, indexedDBMs };
  } finally {
    await files.close();
  }
}

window.benchExecuteWorker = bench;
