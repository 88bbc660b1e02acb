/**
 * The MCP client against a server of each revision (2026-07-28, stateless; 2025-11-25, with a session), in Node:
 * the same tools and results either way; a 2026-07-28 server is reached without `initialize` or `Mcp-Session-Id`.
 */
import { afterEach, describe, expect, it } from "vitest";
import { MCP_REVISIONS, startMcpServer, type McpTestServer } from "../testing/mcp-servers.ts";
import { McpSession } from "./mcp-client.ts";

const started: McpTestServer[] = [];
const sessions: McpSession[] = [];
afterEach(async () => {
  for (const s of sessions.splice(0)) await s.close();
  await Promise.all(started.splice(0).map((s) => s.close()));
});

describe.each(MCP_REVISIONS)("an MCP server speaking %s", (revision) => {
  it("connects in its revision, lists the tools, calls one; 2026-07-28 without initialize or a session", async () => {
    const s = await startMcpServer({ revision });
    started.push(s);
    const opened = await McpSession.open({ url: s.url });
    expect(opened.ok).toBe(true);
    if (!opened.ok) return;
    sessions.push(opened.value);
    expect(opened.value.protocolVersion).toBe(revision);
    expect(opened.value.era).toBe(revision === "2026-07-28" ? "modern" : "legacy");
    const tools = await opened.value.listTools();
    expect(tools.ok && tools.value.map((t) => t.name)).toContain("echo");
    const echo = await opened.value.callTool("echo", { text: revision });
    expect(echo.ok && echo.value.content).toEqual([{ type: "text", text: `echo: ${revision}` }]);
    if (revision === "2026-07-28") {
      expect(s.initializeRequests).toBe(0);
      expect(s.sessionRequests).toBe(0);
    } else {
      expect(s.initializeRequests).toBe(1);
      expect(s.sessionRequests).toBeGreaterThan(0);
    }
  });

  it("a call past its time limit is cancelled and says so", async () => {
    const s = await startMcpServer({ revision });
    started.push(s);
    const opened = await McpSession.open({ url: s.url, timeoutMs: 300 });
    if (!opened.ok) throw new Error(opened.error.message);
    sessions.push(opened.value);
    const slow = await opened.value.callTool("slow", {});
    expect(!slow.ok && slow.error.code).toBe("timeout");
  });
});
