/**
 * `js_eval` (tools/js-eval.ts, QuickJS in wasm): the overhead of one trivial evaluation against one trivial built-in
 * tool call (`ls`), each a whole agent turn with a scripted model; and a loop over 1,000 files done by one
 * interpreter step (the code reads every file) against 1,000 `read_file` calls, one per model call as a model
 * without code would make them. Reports the ratio of model calls and of time.
 *
 *   node --import tsx scripts/bench/js.ts
 */
import { HumanMessage } from "@langchain/core/messages";
import { pathToFileURL } from "node:url";
import { createDeepAgent } from "../../src/agent/create-deep-agent.ts";
import type { FileData } from "../../src/backends/protocol.ts";
import { ScriptedChatModel, type Script } from "../../src/models/scripted.ts";
import { textFile } from "../../src/testing/runtime.ts";
import { jsEvalMiddleware } from "../../src/tools/js-eval.ts";

const FILES = 1_000;
const TURNS = 20;

async function timed(script: Script, files: Record<string, FileData> = {}): Promise<{ ms: number; modelCalls: number }> {
  const model = new ScriptedChatModel({ script });
  const agent = createDeepAgent({ model, middleware: [jsEvalMiddleware()] });
  const start = performance.now();
  await agent.invoke({ messages: [new HumanMessage("go")], files }, { recursionLimit: 10_000 });
  return { ms: performance.now() - start, modelCalls: model.calls.length };
}

const oneCall = (name: string, args: Record<string, unknown>): Script => [{ toolCalls: [{ name, args }] }, { text: "done" }];

async function perTurn(name: string, args: Record<string, unknown>): Promise<number> {
  let total = 0;
  for (let i = 0; i < TURNS; i++) total += (await timed(oneCall(name, args))).ms;
  return total / TURNS;
}

export async function benchJs(): Promise<string[]> {
  await timed(oneCall("js_eval", { code: "1 + 1" })); // warm-up: compiles QuickJS's wasm once per process
  const ls = await perTurn("ls", { path: "/" });
  const js = await perTurn("js_eval", { code: "1 + 1" });

  const files = Object.fromEntries(Array.from({ length: FILES }, (_, i) => [`/data/f${i}.txt`, textFile(`row ${i}\nvalue ${i % 7}\n`)]));
  const code = [
    "let sum = 0;",
    "for (const f of await fs.glob('*.txt', '/data')) sum += Number((await readFile(f.path)).split('\\n')[1].split(' ')[1]);",
    "export default sum;",
  ].join("\n");
  const loop = await timed([{ toolCalls: [{ name: "js_eval", args: { code } }] }, { text: "done" }], files);
  const calls = await timed(
    ({ call }) => (call < FILES ? { toolCalls: [{ name: "read_file", args: { file_path: `/data/f${call}.txt` } }] } : { text: "done" }),
    files,
  );
  const n = (x: number) => x.toLocaleString("en-US");
  const f = (t: number) => `${t.toFixed(1)} ms`.padStart(10);
  return [
    "js_eval: QuickJS (wasm) in the agent loop, scripted model, StateBackend",
    `  one turn with a trivial ls call          ${f(ls)}`,
    `  one turn with a trivial js_eval (1 + 1)  ${f(js)}  (${(js / ls).toFixed(2)}x ls; a fresh runtime and context per call)`,
    `  ${n(FILES)} files read by one js_eval step     ${f(loop.ms)}  ${loop.modelCalls} model calls`,
    `  ${n(FILES)} read_file calls, one per model call ${f(calls.ms)}  ${n(calls.modelCalls)} model calls`,
    `  ratio: ${(calls.modelCalls / loop.modelCalls).toFixed(0)}x fewer model calls, ${(calls.ms / loop.ms).toFixed(1)}x less time`,
    "  (before any real model's latency, which adds seconds to every model call)",
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  for (const line of await benchJs()) console.log(line);
}
