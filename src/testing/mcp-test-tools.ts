/**
 * The loopback MCP test servers' tools (mcp-servers.ts), defined once and registered on both of its servers: the
 * 2025-11-25 one (`@modelcontextprotocol/sdk` 1.x, with sessions) and the 2026-07-28 one (`@modelcontextprotocol/server`
 * 2.x, stateless). Each handler gets its arguments and the call's abort signal.
 */
import { z, type ZodRawShape } from "zod";
import { HOSTILE_IMAGES, RED_PIXEL_PNG } from "./images.ts";

/** What a test tool answers (the CallToolResult both SDKs accept). */
export interface TestToolResult {
  [key: string]: unknown;
  content: Array<
    | { type: "text"; text: string }
    | { type: "image"; data: string; mimeType: string }
    | { type: "resource_link"; uri: string; name: string; mimeType?: string }
    | { type: "resource"; resource: { uri: string; mimeType?: string; text: string } }
  >;
  isError?: boolean;
}

/** One test tool: its name, its description/schema/annotations, and what it does. */
export interface TestTool {
  name: string;
  config: {
    description: string;
    inputSchema: ZodRawShape;
    annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean; title?: string };
  };
  run(args: Record<string, unknown>, signal: AbortSignal): TestToolResult | Promise<TestToolResult>;
}

/** What the tools tell the server they run on. */
export interface TestToolHooks {
  /** A call of tool `name` was made. */
  count(name: string): void;
  /** A `slow` call was cancelled. */
  cancelled(): void;
  /** Drops every connection (the `die` tool). */
  dropAll(): void;
}

/** The test tools (see mcp-servers.ts for what each does). */
export function testTools(hooks: TestToolHooks): TestTool[] {
  const { count } = hooks;
  return [
    {
      name: "echo",
      config: { description: "Echoes its text.", inputSchema: { text: z.string() }, annotations: { readOnlyHint: true, title: "Echo" } },
      run: ({ text }) => {
        count("echo");
        return { content: [{ type: "text", text: `echo: ${String(text)}` }] };
      },
    },
    {
      name: "image",
      config: { description: "A red pixel.", inputSchema: {} },
      run: () => {
        count("image");
        return {
          content: [
            { type: "text", text: "here is the pixel" },
            { type: "image", data: RED_PIXEL_PNG, mimeType: "image/png" },
          ],
        };
      },
    },
    {
      name: "hostile_images",
      config: { description: "Images that are not what they say.", inputSchema: {}, annotations: { readOnlyHint: true } },
      run: () => {
        count("hostile_images");
        return {
          content: [{ type: "text", text: "three images" }, ...HOSTILE_IMAGES.map((image) => ({ type: "image" as const, ...image }))],
        };
      },
    },
    {
      name: "fail",
      config: { description: "Always fails.", inputSchema: {} },
      run: () => {
        count("fail");
        return { content: [{ type: "text", text: "the quota is used up" }], isError: true };
      },
    },
    {
      name: "slow",
      config: { description: "Answers after ms milliseconds (never without ms).", inputSchema: { ms: z.number().int().optional() } },
      run: async ({ ms }, signal) => {
        count("slow");
        const wait = typeof ms === "number" ? ms : undefined;
        await new Promise<void>((resolve) => {
          const timer = wait === undefined ? undefined : setTimeout(resolve, wait);
          signal.addEventListener("abort", () => {
            clearTimeout(timer);
            hooks.cancelled();
            resolve();
          });
        });
        return { content: [{ type: "text", text: `slept ${wait ?? "forever"}` }] };
      },
    },
    {
      name: "links",
      config: { description: "A resource link and an embedded resource.", inputSchema: {}, annotations: { readOnlyHint: true } },
      run: () => {
        count("links");
        return {
          content: [
            { type: "resource_link", uri: "https://example.com/report.pdf", name: "report.pdf", mimeType: "application/pdf" },
            { type: "resource", resource: { uri: "memo://note", mimeType: "text/plain", text: "the note's text" } },
          ],
        };
      },
    },
    {
      name: "big",
      config: { description: "A long text.", inputSchema: { lines: z.number().int() } },
      run: ({ lines }) => {
        count("big");
        const text = Array.from({ length: Number(lines) }, (_, i) => `line ${i + 1} ${"x".repeat(60)}`).join("\n");
        return { content: [{ type: "text", text }] };
      },
    },
    {
      name: "huge",
      config: { description: "mib MiB of text.", inputSchema: { mib: z.number() } },
      run: ({ mib }) => {
        count("huge");
        const line = `${"y".repeat(1023)}\n`;
        return { content: [{ type: "text", text: line.repeat(Math.round(Number(mib) * 1024)) }] };
      },
    },
    {
      name: "wipe",
      config: {
        description: "Says it only reads, and that it destroys.",
        inputSchema: {},
        annotations: { readOnlyHint: true, destructiveHint: true },
      },
      run: () => {
        count("wipe");
        return { content: [{ type: "text", text: "wiped" }] };
      },
    },
    {
      name: "die",
      config: { description: "The server goes away mid-call.", inputSchema: {} },
      run: async () => {
        count("die");
        setTimeout(() => hooks.dropAll(), 50);
        await new Promise(() => undefined);
        return { content: [] };
      },
    },
    {
      name: "web.search",
      config: { description: "A tool whose name has a dot.", inputSchema: { query: z.string() }, annotations: { readOnlyHint: true } },
      run: ({ query }) => {
        count("web.search");
        return { content: [{ type: "text", text: `results for ${String(query)}` }] };
      },
    },
  ];
}
