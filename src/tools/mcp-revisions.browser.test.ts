/**
 * The MCP client from a page (Chromium, cross-origin) against a server of each revision: 2026-07-28 (stateless,
 * `server/discover`) and 2025-11-25 (with a session). The sign-in from a page against each is e2e/mcp.spec.ts's.
 */
import { afterEach, describe, expect, inject, it } from "vitest";
import { McpSession } from "./mcp-client.ts";

const servers = inject("mcpServers");
const sessions: McpSession[] = [];
afterEach(async () => {
  for (const s of sessions.splice(0)) await s.close();
});

async function open(options: Parameters<typeof McpSession.open>[0]): Promise<McpSession> {
  const opened = await McpSession.open(options);
  if (!opened.ok) throw new Error(`${opened.error.code}: ${opened.error.message}`);
  sessions.push(opened.value);
  return opened.value;
}

describe.each([
  ["2026-07-28", () => servers.modern],
  ["2025-11-25", () => servers.cors],
] as const)("an MCP server speaking %s, from a page", (revision, url) => {
  it("connects in its revision and calls a tool", async () => {
    const session = await open({ url: url() });
    expect(session.protocolVersion).toBe(revision);
    const echo = await session.callTool("echo", { text: "from the tab" });
    expect(echo.ok && echo.value.content).toEqual([{ type: "text", text: "echo: from the tab" }]);
  });
});
