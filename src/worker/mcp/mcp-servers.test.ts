import { InMemoryStore } from "@langchain/langgraph/web";
import { afterEach, describe, expect, it } from "vitest";
import { consentWithFetch } from "../../testing/mcp-oauth-server.ts";
import { startMcpServer, type McpTestServer } from "../../testing/mcp-servers.ts";
import { runTool } from "../../testing/runtime.ts";
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
  const items = [
    ...(await store.search(["mcp_servers"])),
    ...(await store.search(["mcp_secrets"])),
    ...(await store.search(["mcp_oauth"])),
  ];
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
    // Annotated readOnly and destructive: destructive wins, it asks.
    expect(added.value.tools.find((t) => t.tool === "wipe")).toMatchObject({ readOnly: false, ask: true });

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

describe("MCP servers that require sign-in (OAuth) in the worker", () => {
  const CALLBACK = "http://127.0.0.1:5173/deeptab/oauth-callback.html";

  async function signIn(mcp: McpServersService, id: string, remember: boolean) {
    const started = await mcp.api.beginMcpSignIn(id, CALLBACK, remember);
    expect(started.ok && started.value.server.state).toBe("signing_in");
    if (!started.ok || !started.value.url) throw new Error("no authorization URL");
    const { callback } = await consentWithFetch(started.value.url);
    return mcp.api.finishMcpSignIn(id, callback);
  }

  it("needs sign-in, signs in for the session only (nothing stored, tokens redacted), refreshes, and Sign out forgets", async () => {
    const s = await server({ oauth: { autoApprove: true } });
    const store = new InMemoryStore();
    const mcp = service(store);
    const added = await mcp.api.addMcpServer({ url: s.url, name: "secure" });
    expect(added.ok && added.value.state).toBe("needs_sign_in");
    expect(added.ok && added.value.signIn).toEqual({ signedIn: false, remembered: false });
    expect(s.oauth!.stats.registrations).toBe(0);
    if (!added.ok) return;
    const id = added.value.id;

    const done = await signIn(mcp, id, false);
    expect(done.ok && done.value.state).toBe("connected");
    expect(done.ok && done.value.tools).toHaveLength(11);
    expect(done.ok && done.value.signIn).toEqual({ signedIn: true, remembered: false });
    expect(JSON.stringify(done)).not.toMatch(/at-|rt-/);
    expect(await storedText(store)).not.toMatch(/at-[0-9a-f-]{36}|rt-[0-9a-f-]{36}/);
    expect(await store.search(["mcp_oauth"])).toEqual([]);

    const echo = (await mcp.forRun()).tools.find((t) => t.name === "secure__echo")!;
    expect((await runTool(echo, { text: "hi" })).text).toBe("echo: hi");
    s.oauth!.expireAccessTokens();
    expect((await runTool(echo, { text: "again" })).text).toBe("echo: again");
    expect(s.oauth!.stats.refreshes).toBeGreaterThanOrEqual(1);
    const leaked = JSON.stringify(await mcp.api.listMcpServers());
    expect(leaked).not.toMatch(/at-[0-9a-f-]{36}/);

    // A session-only sign-in is gone after a reload: the server needs a sign-in again.
    const reloaded = service(store);
    await expect.poll(async () => (await reloaded.api.listMcpServers())[0]?.state, { timeout: 30_000 }).toBe("needs_sign_in");

    const out = await mcp.api.signOutMcpServer(id);
    expect(out.ok && out.value.state).toBe("needs_sign_in");
    expect(out.ok && out.value.signIn).toEqual({ signedIn: false, remembered: false });
    expect((await mcp.forRun()).tools.map((t) => t.name)).not.toContain("secure__echo");
    await mcp.api.reconnectMcpServer(id);
    expect((await mcp.api.listMcpServers())[0]?.state).toBe("needs_sign_in");
  });

  it("a remembered sign-in is stored and connects after a reload; Sign out removes it from storage too", async () => {
    const s = await server({ oauth: { autoApprove: true } });
    const store = new InMemoryStore();
    const mcp = service(store);
    const added = await mcp.api.addMcpServer({ url: s.url, name: "secure" });
    if (!added.ok) throw new Error("not added");
    const done = await signIn(mcp, added.value.id, true);
    expect(done.ok && done.value.signIn).toEqual({ signedIn: true, remembered: true });
    const [kept] = await store.search(["mcp_oauth"]);
    expect(JSON.stringify(kept?.value)).toMatch(/at-[0-9a-f-]{36}/);
    const token = (kept?.value as { tokens: { access_token: string } }).tokens.access_token;
    expect(mcp.redact(`Bearer ${token}`)).not.toContain(token);

    const reloaded = service(store);
    await expect.poll(async () => (await reloaded.api.listMcpServers())[0]?.state, { timeout: 30_000 }).toBe("connected");
    expect((await reloaded.api.listMcpServers())[0]?.signIn).toEqual({ signedIn: true, remembered: true });
    await reloaded.api.signOutMcpServer(added.value.id);
    expect(await store.search(["mcp_oauth"])).toEqual([]);
  });

  it("a refused consent, a forged state and a closed window fail with why, and Sign in works afterwards", async () => {
    const s = await server({ oauth: {} });
    const mcp = service(new InMemoryStore());
    const added = await mcp.api.addMcpServer({ url: s.url, name: "secure" });
    if (!added.ok) throw new Error("not added");
    const id = added.value.id;

    let started = await mcp.api.beginMcpSignIn(id, CALLBACK, false);
    if (!started.ok || !started.value.url) throw new Error("no URL");
    const denied = await mcp.api.finishMcpSignIn(id, (await consentWithFetch(started.value.url, false)).callback);
    expect(denied.ok && denied.value.state).toBe("failed");
    expect(denied.ok && denied.value.error).toMatchObject({
      code: "sign_in_failed",
      message: expect.stringContaining("refused the sign-in"),
    });

    started = await mcp.api.beginMcpSignIn(id, CALLBACK, false);
    if (!started.ok || !started.value.url) throw new Error("no URL");
    const { callback } = await consentWithFetch(started.value.url);
    const forged = await mcp.api.finishMcpSignIn(id, { ...callback, state: "not-this-one" });
    expect(forged.ok && forged.value.error?.message).toContain("its state differs");
    expect(s.oauth!.stats.codes).toBe(1);

    expect((await mcp.api.beginMcpSignIn(id, CALLBACK, false)).ok).toBe(true);
    const closed = await mcp.api.cancelMcpSignIn(id, "The sign-in window was closed before the sign-in finished.");
    expect(closed.ok && closed.value.error?.message).toBe("The sign-in window was closed before the sign-in finished.");

    const done = await signIn(mcp, id, false);
    expect(done.ok && done.value.state).toBe("connected");
  });
});
