/**
 * Vitest global setup of the browser project (runs in Node): the loopback
 * servers browser tests talk to, their URLs handed over with `provide`.
 */
import type { TestProject } from "vitest/node";
import { startAgentLinkServer, type AgentLinkServer } from "./agent-link-server.ts";
import { startAgentProtocolServer, type AgentProtocolServer } from "./agent-protocol-server.ts";
import { makeTinyGguf, makeTinyGgufSplits } from "./gguf/tiny-model.ts";
import { startMcpServer, type McpTestServer } from "./mcp-servers.ts";
import { startModelServer, type ModelServer } from "./model-server.ts";
import { startScriptedServer, type ScriptedServer } from "./provider-servers.ts";
import { startPackageSource, type PackageSourceServer } from "./python-package-source.ts";
import { startWebPagesServer, type WebPagesServer } from "./web-pages.ts";

declare module "vitest" {
  export interface ProvidedContext {
    modelServer: string;
    /** An OpenAI-compatible server that says, as llama.cpp's does (/props), that it loaded its model with 4,096 tokens. */
    llamaServer: string;
    /** A plain OpenAI-dialect server: tests script their own scope of it (server-scope.ts). */
    providerServer: string;
    /** A plain Anthropic-dialect server (its scopes' base URL: ServerScope.root). */
    anthropicServer: string;
    /** A host for agent links, with or without CORS (agent-link-server.ts). */
    agentLinkServer: string;
    /**
     * MCP servers on loopback (mcp-servers.ts): CORS for any origin; no CORS (`noCorsCorp`: with
     * Cross-Origin-Resource-Policy, so an opaque request reaches it from the isolated page); CORS without exposing
     * Mcp-Session-Id; one for `die`; one speaking only HTTP+SSE; one that requires an OAuth sign-in (approved at once).
     */
    /** Loopback MCP servers: 2025-11-25 ones, and `modern` speaking 2026-07-28. */
    mcpServers: {
      cors: string;
      noCors: string;
      noCorsCorp: string;
      noExpose: string;
      dying: string;
      legacy: string;
      oauth: string;
      modern: string;
    };
    /** A web host for fetch_url: pages with and without CORS, a 50 MB page, redirects and a loop (web-pages.ts). */
    webPages: string;
    /** A Python package source: a Pyodide lock and wheels the tests build (python-package-source.ts). */
    pythonPackageSource: string;
    /** An Agent Protocol server for async subagents: a run's fate is told by its input (agent-protocol-server.ts). */
    agentProtocolServer: string;
  }
}

let server: ModelServer | undefined;
let llama: ScriptedServer | undefined;
let provider: ScriptedServer | undefined;
let anthropic: ScriptedServer | undefined;
let links: AgentLinkServer | undefined;
let mcp: McpTestServer[] = [];
let web: WebPagesServer | undefined;
let packageSource: PackageSourceServer | undefined;
let agentProtocol: AgentProtocolServer | undefined;

export async function setup(project: TestProject): Promise<void> {
  server = await startModelServer(
    {
      "tiny.gguf": makeTinyGguf({ eagerToolCalls: true }),
      "plain.gguf": makeTinyGguf(),
      // A whole agent turn: a tool call for the user's message, then "Done." after the tool result.
      "agent.gguf": makeTinyGguf({ eagerToolCalls: true, answerAfterToolResult: "Done.", contextLength: 16_384 }),
      // A split model, as llama-gguf-split writes one: three shards.
      ...Object.fromEntries(makeTinyGgufSplits(3).map((bytes, i) => [`split-0000${i + 1}-of-00003.gguf`, bytes])),
    },
    {
      // Over wllama's 2 GB per file: only its size is ever told.
      "huge.gguf": 2_500_000_000,
    },
  );
  project.provide("modelServer", server.url);
  llama = await startScriptedServer("openai", [], { local: { kind: "llama.cpp", model: "qwen.gguf", nCtx: 4_096, nCtxTrain: 32_768 } });
  project.provide("llamaServer", llama.url);
  provider = await startScriptedServer("openai", []);
  project.provide("providerServer", provider.url);
  anthropic = await startScriptedServer("anthropic", []);
  project.provide("anthropicServer", anthropic.url);
  links = await startAgentLinkServer();
  project.provide("agentLinkServer", links.url);
  const [cors, noCors, noCorsCorp, noExpose, dying, legacy, oauth, modern] = (mcp = await Promise.all([
    startMcpServer(),
    startMcpServer({ cors: false }),
    startMcpServer({ cors: false, corp: true }),
    startMcpServer({ exposeSessionId: false }),
    startMcpServer(),
    startMcpServer({ legacySse: true }),
    startMcpServer({ oauth: { autoApprove: true } }),
    startMcpServer({ revision: "2026-07-28" }),
  ]));
  web = await startWebPagesServer();
  project.provide("webPages", web.url);
  packageSource = await startPackageSource();
  project.provide("pythonPackageSource", packageSource.url);
  agentProtocol = await startAgentProtocolServer();
  project.provide("agentProtocolServer", agentProtocol.url);
  project.provide("mcpServers", {
    cors: cors!.url,
    noCors: noCors!.url,
    noCorsCorp: noCorsCorp!.url,
    noExpose: noExpose!.url,
    dying: dying!.url,
    legacy: legacy!.url,
    oauth: oauth!.url,
    modern: modern!.url,
  });
}

export async function teardown(): Promise<void> {
  await server?.close();
  await llama?.close();
  await provider?.close();
  await anthropic?.close();
  await links?.close();
  await Promise.all(mcp.map((s) => s.close()));
  await web?.close();
  await packageSource?.close();
  await agentProtocol?.close();
}
