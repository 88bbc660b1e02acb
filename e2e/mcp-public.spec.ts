/**
 * The public MCP servers docs/mcp-and-web.md lists as allowing a page (Exa, Context7), added through Settings › MCP servers
 * of the built app. They need the internet, which the machines deeptab is built and tested on do not have: each test
 * first checks that its server answers and is skipped, saying why, when it does not. Everything around them (the
 * client, CORS, sessions, OAuth, errors) is tested against loopback servers in mcp.spec.ts.
 */
import { expect } from "@playwright/test";
import { watchErrors } from "./app.ts";
import { test } from "./fixtures.ts";

const PUBLIC = [
  { name: "exa", url: "https://mcp.exa.ai/mcp" },
  { name: "context7", url: "https://mcp.context7.com/mcp" },
];

/** Null when the server answers a CORS preflight from another origin; otherwise why not. */
async function unreachable(url: string): Promise<string | null> {
  try {
    await fetch(url, {
      method: "OPTIONS",
      headers: { Origin: "https://example.org", "Access-Control-Request-Method": "POST" },
      signal: AbortSignal.timeout(4_000),
    });
    return null;
  } catch (cause) {
    return `${new URL(url).host} is not reachable from this machine (${cause instanceof Error ? cause.message : String(cause)})`;
  }
}

for (const server of PUBLIC) {
  test(`where ${new URL(server.url).host} is reachable, the page connects to it and lists its tools`, async ({ page }) => {
    const why = await unreachable(server.url);
    if (why) console.log(`skipped: a public MCP server needs the internet: ${why}`);
    test.skip(why !== null, `a public MCP server needs the internet: ${why}`);
    const errors = watchErrors(page);
    await page.goto("/");
    await page.getByRole("button", { name: "Settings" }).click();
    const section = page.getByTestId("mcp-servers");
    await section.getByLabel("Server URL", { exact: true }).fill(server.url);
    await section.getByLabel("Name (optional)").fill(server.name);
    await section.getByRole("button", { name: "Add MCP server" }).click();
    await expect(section.getByRole("article", { name: server.name }).getByRole("status")).toHaveText(/^Connected: \d+ tools?$/, {
      timeout: 30_000,
    });
    expect(errors).toEqual([]);
  });
}
