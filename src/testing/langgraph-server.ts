/**
 * LangGraph's API server on loopback for tests: `langgraph dev` (the CLI, in-memory storage) or `npm run serve`
 * (PostgreSQL), serving this repository's langgraph.json with the environment given, stopped with its process group.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import type { AgentEvent } from "../protocol/events.ts";
import type { RecordedRequest, ScriptFn, ScriptedServer, ServerReply } from "./provider-servers.ts";

const ROOT = resolve(import.meta.dirname, "..", "..");

export interface LangGraphServer {
  url: string;
  /** What the server printed (for a failing test's message). */
  output(): string;
  stop(): Promise<void>;
}

export interface LangGraphServerOptions {
  kind: "dev" | "serve";
  port: number;
  env: Record<string, string>;
  /** How long the server may take to answer `/ok` (a loaded 2-core machine: long). */
  startTimeoutMs?: number;
  /**
   * `dev` only: the origins `http.cors.allow_origins` allows (a page on another port, e.g. the e2e preview), in a copy
   * of langgraph.json (in a temporary folder, the graph's path leading back here); default: the repository's file as it is.
   */
  corsOrigins?: string[];
  /** `dev` only: graphs served besides the repository's, by name (`path:export`, the path from the repository's folder). */
  graphs?: Record<string, string>;
}

/** A copy of langgraph.json allowing `origins` (when given) and serving `extra` graphs too, and its removal. */
function configAllowing(origins: string[] | undefined, extra: Record<string, string> = {}): { path: string; remove: () => void } {
  const config = JSON.parse(readFileSync(join(ROOT, "langgraph.json"), "utf8")) as {
    graphs: Record<string, string>;
    env?: string;
    http?: { cors?: { allow_origins?: string[] } };
  };
  const dir = mkdtempSync(join(tmpdir(), "deeptab-langgraph-"));
  // The API joins a graph's path to the config's folder: a relative path from there to the repository's file.
  const graphs = Object.fromEntries(
    Object.entries({ ...config.graphs, ...extra }).map(([name, spec]) => [name, relative(dir, resolve(ROOT, spec))]),
  );
  const { env: _env, ...rest } = config;
  const cors = { ...config.http?.cors, ...(origins ? { allow_origins: origins } : {}) };
  const copy = { ...rest, graphs, http: { ...config.http, cors } };
  const path = join(dir, "langgraph.json");
  writeFileSync(path, JSON.stringify(copy, null, 2));
  return { path, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The PostgreSQL URL the server tier runs against (.ci/run starts one on loopback and sets it). */
export function testDatabaseUrl(): string {
  const url = process.env.DEEPTAB_TEST_DATABASE_URL;
  if (!url)
    throw new Error(
      "The server tests need PostgreSQL: set DEEPTAB_TEST_DATABASE_URL=postgresql://postgres@127.0.0.1:<port>/<db> " +
        "(.ci/run installs and starts one from Debian's packages; docs/testing.md).",
    );
  return url;
}

function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    child.once("exit", () => done());
    try {
      process.kill(-child.pid!, "SIGTERM");
    } catch {
      done();
    }
    setTimeout(() => {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // already gone
      }
    }, 10_000).unref();
  });
}

/** Polls `ready` until it is true, the bound passes (an error naming `what`), or it throws. */
async function until(ready: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ready())) {
    if (Date.now() > deadline) throw new Error(`${what} did not answer within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** A loopback port free right now (two test runs on one machine, e.g. two CI clones, must not share one). */
export async function freePort(): Promise<number> {
  const { createServer } = await import("node:net");
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolvePort(port));
    });
  });
}

/** Starts a server from the repository's folder (the API keeps its own records in `.langgraph_api/`, ignored by git). */
export async function startLangGraphServer(options: LangGraphServerOptions): Promise<LangGraphServer> {
  const env = { ...process.env, LANGGRAPH_CLI_NO_ANALYTICS: "1", ...options.env };
  const config = options.corsOrigins || options.graphs ? configAllowing(options.corsOrigins, options.graphs) : undefined;
  const args =
    options.kind === "dev"
      ? [
          join(ROOT, "node_modules", "@langchain", "langgraph-cli", "dist", "cli", "cli.mjs"),
          "dev",
          "--port",
          String(options.port),
          "--host",
          "127.0.0.1",
          "--no-browser",
          "--no-reload",
          "--config",
          config?.path ?? join(ROOT, "langgraph.json"),
        ]
      : ["--import", "tsx", join(ROOT, "scripts", "server", "serve.ts")];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: options.kind === "serve" ? { ...env, PORT: String(options.port), HOST: "127.0.0.1" } : env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let text = "";
  child.stdout!.on("data", (chunk: Buffer) => (text += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (text += chunk.toString()));
  const url = `http://127.0.0.1:${options.port}`;
  const server: LangGraphServer = {
    url,
    output: () => text,
    async stop() {
      await stopGroup(child);
      config?.remove();
    },
  };
  try {
    await until(
      async () => {
        if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${text.slice(-2_000)}`);
        const res = await fetch(`${url}/ok`).catch(() => undefined);
        return res?.ok === true;
      },
      options.startTimeoutMs ?? 120_000,
      `LangGraph ${options.kind} server on ${url}`,
    );
  } catch (cause) {
    await server.stop();
    throw cause;
  }
  return server;
}

/** `langgraph dev` serving deeptab's graph with a scripted OpenAI-compatible model on loopback. */
export interface ScriptedLangGraph {
  server: LangGraphServer;
  model: ScriptedServer;
  stop(): Promise<void>;
}

/** The text of a message's content as the SDK or a provider request carries it (a string, or text parts). */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((p: { text?: string }) => p.text ?? "").join("");
  return "";
}

/**
 * A model script by scenario: the thread's first user message names one (`[notes] …`), and the reply is that
 * scenario's turn for the step it is at (the tool results so far); undefined for anything else.
 */
export function scenarioScript(scenarios: Readonly<Record<string, readonly ServerReply[]>>): ScriptFn {
  return (req: RecordedRequest) => {
    const messages = (req.body.messages ?? []) as Array<{ role?: string; content?: unknown }>;
    const first = contentText(messages.find((m) => m.role === "user")?.content);
    const scenario = Object.keys(scenarios).find((name) => first.includes(`[${name}]`));
    const step = messages.filter((m) => m.role === "tool").length;
    return scenario ? scenarios[scenario]![step] : undefined;
  };
}

/**
 * Starts the scripted model, then `langgraph dev` over it (`DEEPTAB_MODEL=openai-compatible:scripted`), with the
 * tools that ask first (`DEEPTAB_INTERRUPT_ON`, default `none`).
 */
export async function startScriptedLangGraph(
  script: ScriptFn,
  interruptOn = "none",
  extra: Pick<LangGraphServerOptions, "graphs" | "corsOrigins"> = {},
): Promise<ScriptedLangGraph> {
  const { startScriptedServer } = await import("./provider-servers.ts");
  const model = await startScriptedServer("openai", script);
  try {
    const server = await startLangGraphServer({
      kind: "dev",
      port: await freePort(),
      env: { DEEPTAB_MODEL: "openai-compatible:scripted", OPENAI_BASE_URL: model.baseUrl(), DEEPTAB_INTERRUPT_ON: interruptOn },
      ...extra,
    });
    return {
      server,
      model,
      async stop() {
        await server.stop();
        await model.close();
      },
    };
  } catch (cause) {
    await model.close();
    throw cause;
  }
}

/** A run's events as the page's client delivers them, recorded: pass `onEvent` to the run. */
export function recorder(): { events: AgentEvent[]; onEvent: (e: AgentEvent) => void } {
  const events: AgentEvent[] = [];
  return { events, onEvent: (e: AgentEvent) => void events.push(e) };
}

/** The value of a client call that must succeed; a failure throws with its message. */
export async function expectOk<T>(result: Promise<{ ok: true; value: T } | { ok: false; error: { message: string } }>): Promise<T> {
  const r = await result;
  if (!r.ok) throw new Error(`expected ok, got: ${r.error.message}`);
  return r.value;
}
