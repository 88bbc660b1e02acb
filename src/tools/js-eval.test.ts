/**
 * `js_eval` (upstream @langchain/quickjs) through whole agent runs over graph state: files in and out, tools called
 * from code, limits, no network, fresh globals, permissions and approvals. Chromium runs this file too
 * (js-eval.browser.test.ts).
 */
import { HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph/web";
import { describe, expect, it } from "vitest";
import { createDeepAgent } from "../agent/create-deep-agent.ts";
import type { FilesystemPermission } from "../backends/permissions.ts";
import type { FileData } from "../backends/protocol.ts";
import type { InterruptOnConfig } from "../middleware/hitl.ts";
import { ScriptedChatModel, type ScriptedTurn } from "../models/scripted.ts";
import { textFile } from "../testing/runtime.ts";
import { jsEvalMiddleware, type JsEvalOptions } from "./js-eval.ts";

interface RunOptions extends JsEvalOptions {
  seed?: Record<string, string>;
  permissions?: FilesystemPermission[];
  interruptOn?: InterruptOnConfig;
}

async function run(codes: string[], options: RunOptions = {}) {
  const script: ScriptedTurn[] = codes.map((code) => ({ toolCalls: [{ name: "js_eval", args: { code } }] }));
  const model = new ScriptedChatModel({ script: [...script, { text: "done" }] });
  const interruptOn = options.interruptOn ?? {};
  const agent = createDeepAgent({
    model,
    checkpointer: new MemorySaver(),
    permissions: options.permissions ?? [],
    interruptOn,
    middleware: [jsEvalMiddleware({ ...options, interruptOn })],
  });
  const config = { configurable: { thread_id: crypto.randomUUID() } };
  const files: Record<string, FileData> = Object.fromEntries(Object.entries(options.seed ?? {}).map(([p, c]) => [p, textFile(c)]));
  await agent.invoke({ messages: [new HumanMessage("go")], files }, config);
  const values = (await agent.getState(config)).values as { messages: BaseMessage[]; files: Record<string, FileData> };
  const results = values.messages.filter((m): m is ToolMessage => m instanceof ToolMessage);
  return { results: results.map((m) => ({ text: String(m.content), status: m.status ?? "success" })), files: values.files };
}

const BOUND = { timeout: 60_000 };

describe("js_eval (upstream @langchain/quickjs)", () => {
  it("returns console output and the last expression's value as upstream formats them", BOUND, async () => {
    const { results } = await run(['console.log("hi", 1 + 1, { a: 1 }); [1, 2].map((x) => x * 3)']);
    expect(results[0]).toEqual({ text: 'hi 2 {"a":1}\n→ [\n  3,\n  6\n]', status: "success" });
  });

  it("reads files in and writes files out through readFile/writeFile and fs", BOUND, async () => {
    const code = [
      "const rows = (await readFile('/data.csv')).split('\\n').slice(1).map((l) => Number(l.split(',')[1]));",
      "await writeFile('/out/sum.txt', String(rows.reduce((a, b) => a + b, 0)));",
      "console.log((await fs.ls('/out')).map((f) => f.path).join(','));",
      "export default (await fs.glob('*.csv')).length;",
    ].join("\n");
    const { results, files } = await run([code], { seed: { "/data.csv": "name,n\na,2\nb,40" } });
    expect(results[0]).toEqual({ text: "/out/sum.txt\n→ 1", status: "success" });
    expect(files["/out/sum.txt"]?.content).toBe("42");
  });

  it("calls the agent's other tools from code (programmatic tool calling), one step over many files", BOUND, async () => {
    const seed = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`/notes/n${i}.md`, i % 4 === 0 ? "TODO fix" : "ok"]));
    const code = [
      "const found = await tools.grep({ pattern: 'TODO', path: '/notes', output_mode: 'files_with_matches' });",
      "const listed = await tools.ls({ path: '/notes' });",
      "console.log(found.trim().split('\\n').length, listed.includes('n19.md'));",
    ].join("\n");
    const { results } = await run([code], { seed });
    expect(results[0]).toEqual({ text: "5 true", status: "success" });
  });

  it("returns a tool's error from code as a thrown error the code can catch", BOUND, async () => {
    const code = "try { await tools.readFile({ file_path: '/missing.txt' }) } catch (e) { console.log('caught:', e.message) }";
    const { results } = await run([code]);
    expect(results[0]?.text).toMatch(/^caught: .*not found/i);
  });

  it("stops an infinite loop within the timeout and reports it", BOUND, async () => {
    const started = Date.now();
    const { results } = await run(["console.log('before'); while (true) {}"], { timeoutSeconds: 1 });
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(results[0]).toEqual({ text: "before\nTimeoutError: The code ran longer than 1 seconds and was stopped.", status: "error" });
  });

  it("stops an awaiting run at its deadline too (a promise that never settles)", BOUND, async () => {
    const { results } = await run(["await new Promise(() => {}); console.log('never')"], { timeoutSeconds: 1 });
    expect(results[0]?.text).toBe("TimeoutError: The code ran longer than 1 seconds and was stopped.");
  });

  it("stops a memory bomb at the memory limit, and the next run works", BOUND, async () => {
    const bomb = "const a = []; while (true) a.push('x'.repeat(1024) + a.length);";
    const { results } = await run([bomb, "1 + 1"], { memoryLimitBytes: 8 * 1024 * 1024 });
    expect(results[0]?.status).toBe("error");
    expect(results[0]?.text).toMatch(/out of memory/i);
    expect(results[1]).toEqual({ text: "→ 2", status: "success" });
  });

  it("caps output over the cap and says how much was dropped", BOUND, async () => {
    const { results } = await run(["for (let i = 0; i < 100; i++) console.log('0123456789');"], { maxOutputChars: 55 });
    expect(results[0]?.text).toBe(`${Array(5).fill("0123456789").join("\n")}\n[truncated 1045 chars]`);
  });

  it("offloads a large result to /large_tool_results/ as any tool's", BOUND, async () => {
    const { results, files } = await run(["console.log('y'.repeat(200_000))"]);
    expect(results[0]?.text).toContain("/large_tool_results/");
    expect(Object.keys(files).some((p) => p.startsWith("/large_tool_results/"))).toBe(true);
  });

  it("has no network, DOM or timers: fetch, XMLHttpRequest, document, setTimeout are absent", BOUND, async () => {
    const code = "[typeof fetch, typeof XMLHttpRequest, typeof WebSocket, typeof document, typeof setTimeout, typeof require].join()";
    const { results } = await run([code, "await fetch('http://127.0.0.1:1/')"]);
    expect(results[0]?.text).toBe("→ undefined,undefined,undefined,undefined,undefined,undefined");
    expect(results[1]).toMatchObject({ status: "error" });
    expect(results[1]?.text).toMatch(/^ReferenceError: .*fetch/);
  });

  it("gives every run a fresh context: a second run does not see the first's globals", BOUND, async () => {
    const { results } = await run(["var kept = 41; globalThis.also = 1; kept + 1", "[typeof kept, typeof also].join()"]);
    expect(results.map((r) => r.text)).toEqual(["→ 42", "→ undefined,undefined"]);
  });

  it("respects a read-deny permission from code, through readFile and through tools", BOUND, async () => {
    const permissions: FilesystemPermission[] = [{ operations: ["read"], paths: ["/secret/**"], mode: "deny" }];
    const code = [
      "for (const f of [() => readFile('/secret/key.txt'), () => tools.read_file({ file_path: '/secret/key.txt' })])",
      "  try { console.log('read:', await f()) } catch (e) { console.log('denied:', e.message) }",
    ].join("\n");
    const { results } = await run([code], { permissions, seed: { "/secret/key.txt": "sk-hidden" } });
    expect(results[0]?.text).not.toContain("sk-hidden");
    expect(results[0]?.text.split("\n").filter((l) => l.startsWith("denied:"))).toHaveLength(2);
  });

  it("refuses from code a tool or write that asks the person first, so code never bypasses an approval", BOUND, async () => {
    const interruptOn: InterruptOnConfig = { write_file: true, edit_file: true };
    const code = [
      "for (const f of [() => writeFile('/a.txt', 'x'), () => tools.writeFile({ file_path: '/a.txt', content: 'x' })])",
      "  try { await f(); console.log('wrote') } catch (e) { console.log(e.message) }",
    ].join("\n");
    const { results, files } = await run([code], { interruptOn });
    const refusal = "write_file asks the person before it runs, so it cannot be called from js_eval; call write_file directly.";
    expect(results[0]?.text).toBe(`${refusal}\n${refusal}`);
    expect(files["/a.txt"]).toBeUndefined();
  });

  it("refuses from code a path an interrupt permission rule protects, and allows the paths it does not", BOUND, async () => {
    const permissions: FilesystemPermission[] = [{ operations: ["write"], paths: ["/protected/**"], mode: "interrupt" }];
    const code = [
      "for (const p of ['/protected/a.txt', '/free/b.txt'])",
      "  try { await writeFile(p, 'x'); console.log('wrote', p) } catch (e) { console.log(e.message) }",
    ].join("\n");
    const { results, files } = await run([code], { permissions });
    expect(results[0]?.text).toBe(
      "write_file asks the person before it runs, so it cannot be called from js_eval; call write_file directly.\nwrote /free/b.txt",
    );
    expect(files["/protected/a.txt"]).toBeUndefined();
    expect(files["/free/b.txt"]?.content).toBe("x");
  });

  it("returns a syntax error as a tool error the model can act on", BOUND, async () => {
    const { results } = await run(["const x = ;"]);
    expect(results[0]?.status).toBe("error");
    expect(results[0]?.text).toMatch(/^SyntaxError: /);
  });
});
