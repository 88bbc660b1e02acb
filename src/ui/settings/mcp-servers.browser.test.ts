/**
 * Settings › MCP servers in Chromium over the real agent worker and cross-origin loopback MCP servers (the SDK's
 * own server side): add a server and see its tools with their defaults, switch a tool off, a server without CORS
 * says why, a token never reaches the page or (unless remembered) IndexedDB, and a reload asks for it again.
 */
import { afterEach, describe, expect, inject, it } from "vitest";
import { page, userEvent } from "vitest/browser";
import { indexedDBText } from "../../testing/indexeddb-text.ts";
import { cleanupRendered, render } from "../../testing/render.svelte.ts";
import { workerPool } from "../../testing/worker-pool.ts";
import McpServers from "./mcp-servers.svelte";

const TOKEN = "mcp-9c8b7a6f5e4d-DO-NOT-SHOW";
const servers = inject("mcpServers");
const db = `mcp-settings-${crypto.randomUUID()}`;
const { spawn } = workerPool(db);

afterEach(() => cleanupRendered());

const databaseText = () => indexedDBText(`${db}-`);

const server = (name: string) => page.getByRole("article", { name });

describe("Settings › MCP servers", () => {
  it("adds a server and shows its tools, with read-only tools not asking and the others asking", async () => {
    const client = spawn();
    render(McpServers, { client });
    await expect.element(page.getByRole("heading", { name: "MCP servers" })).toBeVisible();
    await userEvent.fill(page.getByLabelText("Server URL", { exact: true }), servers.cors);
    await userEvent.fill(page.getByLabelText("Name (optional)"), "loop");
    await userEvent.click(page.getByRole("button", { name: "Add MCP server" }));
    const card = server("loop");
    await expect.element(card.getByRole("status"), { timeout: 30_000 }).toHaveTextContent(/^Connected: 11 tools$/);
    await expect.element(card.getByText("Echoes its text.")).toBeVisible();
    await expect.element(card.getByRole("switch", { name: "Use echo" })).toBeChecked();
    await expect.element(card.getByRole("checkbox", { name: "Ask before calling echo" })).not.toBeChecked();
    await expect.element(card.getByRole("checkbox", { name: "Ask before calling fail" })).toBeChecked();

    await userEvent.click(card.getByRole("switch", { name: "Use image" }));
    await expect
      .poll(async () => (await (await client.mcpServers()).listMcpServers())[0]!.tools.find((t) => t.tool === "image")!.enabled, {
        timeout: 30_000,
      })
      .toBe(false);
    await expect.element(card.getByRole("checkbox", { name: "Ask before calling image" })).toBeDisabled();
    await userEvent.click(card.getByRole("button", { name: "Remove loop" }));
    await expect.element(card).not.toBeInTheDocument();
    expect(await (await client.mcpServers()).listMcpServers()).toEqual([]);
  });

  it("a server without CORS fails and says what the server must send", async () => {
    const client = spawn();
    render(McpServers, { client });
    await userEvent.fill(page.getByLabelText("Server URL", { exact: true }), servers.noCors);
    await userEvent.fill(page.getByLabelText("Name (optional)"), "closed");
    await userEvent.click(page.getByRole("button", { name: "Add MCP server" }));
    const status = server("closed").getByRole("status");
    await expect.element(status, { timeout: 30_000 }).toHaveTextContent(/^Failed: .*\(CORS\)/);
    await expect.element(status).toHaveTextContent(/Access-Control-Expose-Headers: Mcp-Session-Id/);
    await userEvent.click(page.getByRole("button", { name: "Remove closed" }));
  });

  it("a token goes to the worker only: not in the page, not in IndexedDB unless remembered; a reload asks for it", async () => {
    const first = spawn();
    render(McpServers, { client: first });
    await userEvent.fill(page.getByLabelText("Server URL", { exact: true }), servers.cors);
    await userEvent.fill(page.getByLabelText("Name (optional)"), "tokened");
    await userEvent.fill(page.getByLabelText("Token or header value (optional)"), TOKEN);
    await userEvent.click(page.getByRole("button", { name: "Add MCP server" }));
    await expect.element(server("tokened").getByRole("status"), { timeout: 30_000 }).toHaveTextContent(/^Connected/);
    await expect.element(page.getByLabelText("Token or header value (optional)")).toHaveValue("");
    await expect.element(server("tokened").getByText("Authorization: set (this session)")).toBeVisible();
    expect(document.body.innerHTML).not.toContain(TOKEN);
    const before = await databaseText();
    expect(before).toContain("tokened"); // the server is stored
    expect(before).not.toContain(TOKEN);
    first.close();
    cleanupRendered();

    // The next worker over the same database is a reload: the server is remembered, its token is not.
    const second = spawn();
    render(McpServers, { client: second });
    const card = server("tokened");
    await expect.element(card.getByRole("status"), { timeout: 30_000 }).toHaveTextContent(/^Needs its Authorization value again/);
    await userEvent.fill(card.getByLabelText("Authorization for tokened"), TOKEN);
    await userEvent.click(card.getByRole("checkbox", { name: "Remember" }));
    await userEvent.click(card.getByRole("button", { name: "Connect", exact: true }));
    await expect.element(card.getByRole("status"), { timeout: 30_000 }).toHaveTextContent(/^Connected/);
    expect(document.body.innerHTML).not.toContain(TOKEN);
    expect(await databaseText()).toContain(TOKEN);
    await userEvent.click(card.getByRole("button", { name: "Remove tokened" }));
    await expect.poll(() => databaseText(), { timeout: 30_000 }).not.toContain(TOKEN);
  });

  it("signs in to a server that requires it: a popup, the site's callback page, the real worker finishes; Sign out", async () => {
    const client = spawn();
    render(McpServers, { client, callbackUrl: new URL("/oauth-callback.html", location.origin).href });
    await userEvent.fill(page.getByLabelText("Server URL", { exact: true }), servers.oauth);
    await userEvent.fill(page.getByLabelText("Name (optional)"), "secure");
    await userEvent.click(page.getByRole("button", { name: "Add MCP server" }));
    const card = server("secure");
    await expect.element(card.getByRole("status"), { timeout: 30_000 }).toHaveTextContent(/^Needs sign-in/);
    await userEvent.click(card.getByRole("button", { name: "Sign in to secure" }));
    await expect.element(card.getByRole("status"), { timeout: 30_000 }).toHaveTextContent(/^Connected: 11 tools$/);
    await expect.element(card.getByText("Signed in (this session)")).toBeVisible();
    expect(document.body.innerHTML).not.toMatch(/at-[0-9a-f-]{36}|rt-[0-9a-f-]{36}/);
    expect(await databaseText()).not.toMatch(/at-[0-9a-f-]{36}|rt-[0-9a-f-]{36}/);
    await userEvent.click(card.getByRole("button", { name: "Sign out of secure" }));
    await expect.element(card.getByRole("status"), { timeout: 30_000 }).toHaveTextContent(/^Needs sign-in/);
    await userEvent.click(card.getByRole("button", { name: "Remove secure" }));
  });
});
