/**
 * Records and replays the site's agents' demos in Node (scripts/demos/main.ts, the demo tests, the bench): an agent
 * folder under `agents/` is built with its own options (agent-folders/options.ts `agentOptions`) over a Node-side
 * workspace seeded with its starter files and skills, with the offline shell on worker_threads where the folder's
 * sandbox is the shell (as the tab runs it on a Web Worker), and run on one prompt:
 *
 * - recorded: against a scripted provider (scripts.ts) served over loopback in the OpenAI dialect and called through
 *   the real `ChatOpenAI` client, with a {@link DemoRecorder} in the run's callbacks;
 * - replayed: with a {@link ReplayChatModel} of the demo, every tool running again for real.
 *
 * Paused tool calls are approved, as a visitor clicks Approve. A scripted demo's timing is a fixed pace (the loopback
 * stream's own times change from run to run) and its usage is dropped (the scripted server's is invented), so the
 * files it writes are the same on every machine and `npm run demos -- --check` can compare them byte for byte.
 */
import { readdir, readFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { Command, MemorySaver } from "@langchain/langgraph/web";
import { ChatOpenAI } from "@langchain/openai";
import type { AgentDefinition } from "../../src/agent-folders/definition.ts";
import { loadAgent } from "../../src/agent-folders/load.ts";
import { agentOptions, agentSeedFiles } from "../../src/agent-folders/options.ts";
import { createDeepAgent } from "../../src/agent/create-deep-agent.ts";
import { basePrompt } from "../../src/agent/deeptab-prompt.ts";
import type { BackendFactory } from "../../src/backends/runtime.ts";
import { ShellBackend } from "../../src/backends/sandbox/shell.ts";
import { newShellSession } from "../../src/backends/sandbox/shell-session.ts";
import { StateBackend } from "../../src/backends/state.ts";
import { DEMOS_DIR, type Demo } from "../../src/models/replay/format.ts";
import { DemoRecorder } from "../../src/models/replay/recorder.ts";
import { rulesBesideCommands, withPathApprovals } from "../../src/worker/agents/agent-permissions.ts";
import { nodeShellThreads } from "../../src/testing/node-shell-threads.ts";
import { startScriptedServer, type MessageReply, type RecordedRequest, type ServerReply } from "../../src/testing/provider-servers.ts";
import type { DemoScript, ScriptedReply } from "./scripts.ts";

/** The site's agent folders, beside this script. */
export const AGENTS_ROOT = join(import.meta.dirname, "..", "..", "agents");

/** Who the site's scripted demos say recorded them. */
export const SCRIPTED_BY = "deeptab (scripted)";

/** A scripted demo's pace: the first text after FIRST_MS, a piece every PIECE_MS, a tool call's arguments in CALL_MS. */
const FIRST_MS = 450;
const PIECE_MS = 45;
const CALL_MS = 120;

async function walk(dir: string, root: string, out: Map<string, Uint8Array>): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) await walk(full, root, out);
    else if (entry.isFile()) out.set(relative(root, full).split(sep).join("/"), new Uint8Array(await readFile(full)));
  }
}

/** An agent folder's files under `agents/<name>`, path → bytes. */
export async function folderFiles(name: string, root = AGENTS_ROOT): Promise<Map<string, Uint8Array>> {
  const files = new Map<string, Uint8Array>();
  await walk(join(root, name), join(root, name), files);
  return files;
}

/** The folder loaded as an agent, without its demos (they are what is being made, and may be out of date). */
export async function siteAgent(name: string, root = AGENTS_ROOT): Promise<AgentDefinition> {
  const files = await folderFiles(name, root);
  for (const path of [...files.keys()]) if (path.startsWith(DEMOS_DIR)) files.delete(path);
  const loaded = loadAgent({ files });
  if (!loaded.ok) throw new Error(`agents/${name}: ${loaded.error.message}`);
  return loaded.value;
}

const decoder = new TextDecoder();
const SEEDED_AT = "2026-01-01T00:00:00.000Z";

/** A run of the folder's agent on `model`: the workspace seeded with its starter files, the shell where it has one. */
function agentRun(agent: AgentDefinition, model: BaseChatModel) {
  const sandbox = agent.manifest.sandbox === "shell" ? "shell" : "none";
  const threads = sandbox === "shell" ? nodeShellThreads() : undefined;
  const session = newShellSession();
  const backend: BackendFactory = threads
    ? (rt) => new ShellBackend({ files: new StateBackend(rt), now: rt.now, session, threads })
    : (rt) => new StateBackend(rt);
  const folder = agentOptions(agent, { model, interruptOn: sandbox === "shell" ? { execute: true } : {} });
  // Beside a shell, path rules are kept by the backend and ask as the tab asks (worker/agents/agent-run.ts).
  const rules =
    threads && folder.permissions.length
      ? {
          backend: rulesBesideCommands(backend, folder.permissions),
          interruptOn: withPathApprovals(folder.interruptOn, folder.permissions),
          permissions: [],
        }
      : { backend };
  const deep = createDeepAgent({
    ...folder,
    ...rules,
    systemPrompt: `${basePrompt(sandbox)}\n\n${folder.systemPrompt}`,
    checkpointer: new MemorySaver(),
    todos: true,
  });
  const files = Object.fromEntries(
    [...agentSeedFiles(agent)].map(([path, bytes]) => [
      path,
      { content: decoder.decode(bytes), created_at: SEEDED_AT, modified_at: SEEDED_AT },
    ]),
  );
  return { deep, files };
}

interface Paused {
  __interrupt__?: Array<{ value?: { actionRequests?: unknown[] } }>;
  messages: BaseMessage[];
}

/**
 * Runs one turn of `agent` on `model` with `prompt`, approving every paused tool call (as a visitor clicks Approve):
 * the turn's messages. `callbacks` see every model call (a recorder).
 */
export async function runTurn(
  agent: AgentDefinition,
  model: BaseChatModel,
  prompt: string,
  callbacks: DemoRecorder[] = [],
): Promise<BaseMessage[]> {
  const { deep, files } = agentRun(agent, model);
  const config = { configurable: { thread_id: `demo-${crypto.randomUUID()}` }, callbacks, recursionLimit: 200 };
  let out = (await deep.invoke({ messages: [new HumanMessage(prompt)], files } as never, config)) as unknown as Paused;
  for (let pauses = 0; out.__interrupt__?.length; pauses += 1) {
    if (pauses > 20) throw new Error("the run paused more than 20 times");
    if (out.__interrupt__.length > 1)
      throw new Error("the run paused in two places at once (a script calls paused tools in one reply only)");
    const requests = out.__interrupt__[0]!.value?.actionRequests ?? [];
    const resume = new Command({ resume: { decisions: requests.map(() => ({ type: "approve" })) } });
    out = (await deep.invoke(resume as never, config)) as unknown as Paused;
  }
  return out.messages;
}

/** The text of an OpenAI chat message's content. */
function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((p) => (typeof p === "object" && p && "text" in p ? String(p.text) : "")).join("");
  return "";
}

/** Pieces of a reply's text as a stream brings them: a few words each. */
function pieces(text: string): string[] {
  const words = text.match(/\S+\s*|\s+/g) ?? [];
  const out: string[] = [];
  for (let i = 0; i < words.length; i += 4) out.push(words.slice(i, i + 4).join(""));
  return out;
}

function reply(script: DemoScript, who: "main" | "sub", step: number, scripted: ScriptedReply | undefined): ServerReply {
  if (!scripted) return { status: 500, body: { error: { message: `the ${script.agent} script has no ${who} reply number ${step + 1}` } } };
  const message: MessageReply = {};
  if (scripted.text) Object.assign(message, { text: scripted.text, chunks: pieces(scripted.text) });
  if (scripted.toolCalls)
    message.toolCalls = scripted.toolCalls.map((call, i) => ({ id: `call_${script.agent}_${who}${step}_${i}`, ...call }));
  return message;
}

/** The scripted provider of a demo: the main agent's or the subagent's next reply, by the request's messages. */
function scriptedReplies(script: DemoScript): (request: RecordedRequest) => ServerReply {
  return (request) => {
    const messages = (request.body.messages ?? []) as Array<{ role: string; content: unknown }>;
    const first = messages.find((m) => m.role === "user");
    const step = messages.filter((m) => m.role === "assistant").length;
    const main = contentText(first?.content).trim() === script.prompt;
    return main ? reply(script, "main", step, script.main[step]) : reply(script, "sub", step, script.subagent?.[step]);
  };
}

/** A loopback OpenAI-compatible server playing `script`, and a `ChatOpenAI` client of it. */
export async function scriptedProvider(script: DemoScript): Promise<{ model: ChatOpenAI; close: () => Promise<void> }> {
  const server = await startScriptedServer("openai", scriptedReplies(script), { models: [`scripted-${script.agent}`] });
  const model = new ChatOpenAI({
    model: `scripted-${script.agent}`,
    apiKey: "scripted",
    configuration: { baseURL: server.baseUrl() },
    // As the app builds it (providers.ts): the server's usage, never a count of the client's own (tiktoken's data from a
    // CDN); it streams where a run's callbacks prefer it (the recorder does).
    streamUsage: true,
    maxRetries: 0,
  });
  return { model, close: () => server.close() };
}

/** A scripted demo's timing: the fixed pace of the module comment, each streamed piece kept at its size. */
function pace(call: Demo["calls"][number]): Demo["calls"][number] {
  const chunks = call.timing.chunks.map(([, size], i): [number, number] => [FIRST_MS + i * PIECE_MS, size]);
  const last = chunks.at(-1)?.[0] ?? FIRST_MS;
  const endMs = last + PIECE_MS + (call.reply.toolCalls?.length ?? 0) * CALL_MS;
  const { usage: _invented, ...reply } = call.reply;
  return { ...call, reply, timing: { firstMs: FIRST_MS, chunks, endMs } };
}

/** Records `script`'s demo: the folder's agent run on its prompt against its scripted provider. */
export async function recordDemo(script: DemoScript, root = AGENTS_ROOT): Promise<Demo> {
  const agent = await siteAgent(script.agent, root);
  const { model, close } = await scriptedProvider(script);
  try {
    const recorder = new DemoRecorder();
    await runTurn(agent, model, script.prompt, [recorder]);
    const demo = recorder.demo({ title: script.title, recordedBy: SCRIPTED_BY, model: `scripted:${script.agent}`, scripted: true });
    const expected = script.main.length + (script.subagent?.length ?? 0);
    if (demo.calls.length !== expected)
      throw new Error(`agents/${script.agent}: the run made ${demo.calls.length} model calls, the script has ${expected} replies`);
    return { ...demo, calls: demo.calls.map(pace) };
  } finally {
    await close();
  }
}
