/** mcp-server-card.svelte at a phone's width (its width in Settings at 390 px): every tool row lays out the same way. */
import { afterEach, describe, expect, it } from "vitest";
import { cleanupRendered, render } from "../../testing/render.svelte.ts";
import type { McpServersApi, McpServerView, McpToolView } from "../../protocol/mcp.ts";
import McpServerCard from "./mcp-server-card.svelte";
import { McpServersState } from "./mcp-servers-state.svelte.ts";

afterEach(cleanupRendered);

const tool = (name: string, readOnly: boolean, description: string): McpToolView => ({
  name: `loop__${name}`,
  tool: name,
  description,
  readOnly,
  enabled: true,
  ask: !readOnly,
});

const server: McpServerView = {
  id: "s1",
  url: "http://127.0.0.1:43759/mcp",
  name: "loop",
  state: "connected",
  transport: "http",
  tools: [
    tool("echo", true, "Echoes its text."),
    tool("image", false, "A red pixel."),
    tool("hostile_images", true, "Images that are not what they say."),
    tool("web.search", true, "A tool whose name has a dot."),
    tool("a_rather_long_tool_name_for_a_phone", true, "Long names wrap inside their column."),
    tool("slow", false, "Answers after ms milliseconds (never without ms)."),
  ],
  skipped: [],
};

const mcp = new McpServersState(() => new Promise<McpServersApi>(() => {}));

describe("an MCP server's tools at a phone's width", () => {
  for (const width of [330, 280]) {
    it(`${width} px: each row's Ask checkbox is on its name's line, right-aligned with the others; nothing overflows`, () => {
      const frame = document.createElement("div");
      frame.style.width = `${width}px`;
      document.body.append(frame);
      render(McpServerCard, { server, mcp }, { into: frame });
      const rows = [...frame.querySelectorAll<HTMLLIElement>("ul.tools > li")];
      expect(rows).toHaveLength(server.tools.length);
      const asks = rows.map((row) =>
        row.querySelector<HTMLInputElement>('input[aria-label^="Ask before calling"]')!.getBoundingClientRect(),
      );
      const uses = rows.map((row) => row.querySelector<HTMLInputElement>('input[role="switch"]')!.getBoundingClientRect());
      for (const [i, ask] of asks.entries()) {
        expect(Math.abs(ask.top - uses[i]!.top), server.tools[i]!.tool).toBeLessThan(4);
        expect(Math.abs(ask.right - asks[0]!.right), server.tools[i]!.tool).toBeLessThan(1);
      }
      const card = frame.querySelector("article")!;
      expect(card.scrollWidth).toBeLessThanOrEqual(card.clientWidth);
      for (const el of frame.querySelectorAll("li *"))
        expect(el.getBoundingClientRect().right, el.outerHTML.slice(0, 80)).toBeLessThanOrEqual(frame.getBoundingClientRect().right + 0.5);
      frame.remove();
    });
  }
});
