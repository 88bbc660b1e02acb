import { InMemoryStore } from "@langchain/langgraph/web";
import { afterEach, describe, expect, it } from "vitest";
import { startMcpServer, type McpTestServer } from "../testing/mcp-servers.ts";
import { createMcpServers, type McpServersService } from "./mcp-servers.ts";

const TOKEN = "mcp-token-5f4e3d2c1b-DO-NOT-STORE";
const started: McpTestServer[] = [];
const services: McpServersService[] = [];

afterEach(async () => {
  for (const s of services.splice(0)) await s.clear();
  await Promise.all(started.splice(0).map((s) => s.close()));
});

async function server(options: Parameters<typeof startMcpServer>[0] = {}): Promise<McpTestServer> {
  const s = await startMcpServer(options);
  started.push(s);
  return s;
}

function service(store: InMemoryStore): McpServersService {
  const s = createMcpServers(store, (input, init) => fetch(input, init));
  services.push(s);
  return s;
}

async function storedText(store: InMemoryStore): Promise<string> {
  const items = [...(await store.search(["mcp_servers"])), ...(await store.search(["mcp_secrets"]))];
  return JSON.stringify(items.map((i) => i.value));
}

describe("MCP servers in the worker", () => {
  it("adds a server, lists its tools with defaults, and gives runs the enabled ones with approvals as chosen", async () => {
    const s = await server();
    const mcp = service(new InMemoryStore());
    const added = await mcp.api.addMcpServer({ url: s.url, name: "loop" });
    expect(added.ok).toBe(true);
    if (!added.ok) return;
    expect(added.value.state).toBe("connected");
    const echo = added.value.tools.find((t) => t.tool === "echo")!;
    expect(echo).toMatchObject({ name: "loop__echo", readOnly: true, enabled: true, ask: false, description: "Echoes its text." });
    expect(added.value.tools.find((t) => t.tool === "fail")).toMatchObject({ readOnly: false, ask: true });

    await mcp.api.setMcpTool(added.value.id, "image", { enabled: false });
    await mcp.api.setMcpTool(added.value.id, "echo", { ask: true });
    const run = await mcp.forRun();
    expect(run.tools.map((t) => t.name)).not.toContain("loop__image");
    expect(run.interruptOn).toMatchObject({ loop__echo: true, loop__fail: true, loop__links: false });
  });

  it("keeps a header value for the session only unless remembered; a reload then says it needs it again", async () => {
    const s = await server({ token: TOKEN });
    const store = new InMemoryStore();
    const first = service(store);
    const added = await first.api.addMcpServer({ url: s.url, headerValue: TOKEN });
    expect(added.ok && added.value.state).toBe("connected");
    expect(added.ok && added.value.header).toEqual({ name: "Authorization", set: true, remembered: false });
    expect(await storedText(store)).not.toContain(TOKEN);
    expect(first.redact(`sent Bearer ${TOKEN} and ${TOKEN}`)).not.toContain(TOKEN);

    const reloaded = service(store);
    const [again] = await reloaded.api.listMcpServers();
    expect(again!.state).toBe("needs_secret");
    expect(again!.header).toEqual({ name: "Authorization", set: false, remembered: false });

    const remembered = await reloaded.api.setMcpHeader(again!.id, TOKEN, true);
    expect(remembered.ok && remembered.value.state).toBe("connected");
    expect(await storedText(store)).toContain(TOKEN);
    const third = service(store);
    const [kept] = await third.api.listMcpServers();
    await expect.poll(async () => (await third.api.listMcpServers())[0]!.state, { timeout: 30_000 }).toBe("connected");
    expect(kept!.header?.remembered).toBe(true);
  });

  it("a server that fails shows why; a bad URL is refused; remove forgets it", async () => {
    const s = await server({ token: TOKEN });
    const mcp = service(new InMemoryStore());
    const refused = await mcp.api.addMcpServer({ url: s.url });
    expect(refused.ok && refused.value.state).toBe("failed");
    expect(refused.ok && refused.value.error?.code).toBe("unauthorized");
    const bad = await mcp.api.addMcpServer({ url: "javascript:alert(1)" });
    expect(!bad.ok && bad.error.code).toBe("invalid_url");
    if (!refused.ok) return;
    expect((await mcp.api.removeMcpServer(refused.value.id)).ok).toBe(true);
    expect(await mcp.api.listMcpServers()).toEqual([]);
    expect(!(await mcp.api.removeMcpServer(refused.value.id)).ok).toBe(true);
  });

  it("two servers with the same name get distinct prefixes", async () => {
    const s = await server();
    const mcp = service(new InMemoryStore());
    const a = await mcp.api.addMcpServer({ url: s.url, name: "same" });
    const b = await mcp.api.addMcpServer({ url: s.url, name: "same" });
    expect([a.ok && a.value.name, b.ok && b.value.name]).toEqual(["same", "same_2"]);
    const names = (await mcp.forRun()).tools.map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
  });
});
