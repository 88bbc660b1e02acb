/**
 * The scripted provider servers from the real, cross-origin isolated page
 * (vite preview with COOP/COEP, the app's CSP): `fetch` with CORS lists both
 * servers' models with the providers' browser headers (preflighted), streams
 * a reply chunk by chunk, sees a 429's Retry-After, and fails on a dropped
 * connection, before the response or mid-stream, without Chromium resending
 * the request. Independent of the app's UI.
 */
import { expect } from "@playwright/test";
import { DEFAULT_MODELS } from "../src/testing/provider-servers.ts";
import { providerScope } from "./control.ts";
import { test } from "./fixtures.ts";

/** What the page saw. */
interface Seen {
  isolated: boolean;
  openaiModels: string[];
  anthropicModels: string[];
  openaiText: string;
  anthropicText: string;
  /** ms since the stream's response for each body read that carried text. */
  openaiReads: number[];
  rateLimit: { status: number; retryAfter: string | null; type: string };
  /** The errors of the two requests whose connection dropped before a response. */
  dropped: string[];
  /** A stream dropped after two chunks: what was read, and the error. */
  cut: { text: string; error: string };
}

test("the isolated page reaches both provider servers over CORS: models, a streamed reply, Retry-After, a dropped connection", async ({
  page,
}) => {
  const openai = providerScope("openai");
  const anthropic = providerScope("anthropic");
  await openai.script([
    { chunks: ["Hello ", "from ", "the ", "wire."], delayMs: 400 },
    { disconnect: true },
    { status: 429, headers: { "retry-after": "1" } },
    { disconnect: true },
    { chunks: ["part", "ial", " and never the rest"], disconnectAfter: 2 },
  ]);
  await anthropic.script([{ chunks: ["Claude ", "streams ", "too."], delayMs: 50 }]);
  const blocked: string[] = [];
  page.on("console", (msg) => {
    if (/CORS|Cross-Origin|blocked/i.test(msg.text())) blocked.push(msg.text());
  });

  await page.goto("/");
  const seen = await page.evaluate(
    async ({ openaiBase, anthropicBase }): Promise<Seen> => {
      const openaiHeaders = { authorization: "Bearer sk-e2e", "content-type": "application/json", "x-stainless-os": "Linux" };
      const anthropicHeaders = {
        "x-api-key": "sk-ant-e2e",
        "anthropic-version": "2023-06-01",
        "anthropic-dangerous-direct-browser-access": "true",
        "content-type": "application/json",
      };
      const ids = (body: { data: Array<{ id: string }> }) => body.data.map((m) => m.id);
      const errorOf = (err: unknown) => `${(err as Error).name}: ${(err as Error).message}`;
      /** Reads an SSE body; returns the text deltas joined, when each read with text came, and the read error if any. */
      async function readStream(res: Response, delta: (data: Record<string, unknown>) => string) {
        const reader = res.body!.getReader();
        const decoder = new TextDecoder();
        const start = performance.now();
        const reads: number[] = [];
        let buffer = "";
        let text = "";
        for (;;) {
          let next: ReadableStreamReadResult<Uint8Array>;
          try {
            next = await reader.read();
          } catch (err) {
            return { text, reads, error: errorOf(err) };
          }
          const { done, value } = next;
          if (done) break;
          buffer += decoder.decode(value, { stream: true });
          const events = buffer.split("\n\n");
          buffer = events.pop()!;
          const before = text.length;
          for (const event of events)
            for (const line of event.split("\n"))
              if (line.startsWith("data: ") && line !== "data: [DONE]") text += delta(JSON.parse(line.slice(6)) as Record<string, unknown>);
          if (text.length > before) reads.push(performance.now() - start);
        }
        return { text, reads, error: "no error" };
      }
      const openaiDelta = (d: Record<string, unknown>) => (d.choices as Array<{ delta?: { content?: string } }>)[0]?.delta?.content ?? "";
      async function droppedError(stream: boolean) {
        try {
          await chat(stream);
          return "no error";
        } catch (err) {
          return errorOf(err);
        }
      }
      const chat = (stream: boolean) =>
        fetch(`${openaiBase}/chat/completions`, {
          method: "POST",
          headers: openaiHeaders,
          body: JSON.stringify({ model: "gpt-4o", stream, messages: [{ role: "user", content: "hi" }] }),
        });

      const openaiModels = ids(await (await fetch(`${openaiBase}/models`, { headers: openaiHeaders })).json());
      const anthropicModels = ids(await (await fetch(`${anthropicBase}/v1/models`, { headers: anthropicHeaders })).json());
      const streamed = await readStream(await chat(true), openaiDelta);
      const dropped = [await droppedError(true)];
      const claude = await readStream(
        await fetch(`${anthropicBase}/v1/messages`, {
          method: "POST",
          headers: anthropicHeaders,
          body: JSON.stringify({ model: "claude-sonnet-4-5", max_tokens: 64, stream: true, messages: [{ role: "user", content: "hi" }] }),
        }),
        (d) => (d.type === "content_block_delta" ? ((d.delta as { text?: string }).text ?? "") : ""),
      );
      const limited = await chat(false);
      const limitedBody = (await limited.json()) as { error: { type: string } };
      dropped.push(await droppedError(false));
      const cut = await readStream(await chat(true), openaiDelta);
      return {
        isolated: crossOriginIsolated,
        openaiModels,
        anthropicModels,
        openaiText: streamed.text,
        anthropicText: claude.text,
        openaiReads: streamed.reads,
        rateLimit: { status: limited.status, retryAfter: limited.headers.get("retry-after"), type: limitedBody.error.type },
        dropped,
        cut: { text: cut.text, error: cut.error },
      };
    },
    { openaiBase: openai.baseUrl, anthropicBase: anthropic.baseUrl },
  );

  expect(seen.isolated).toBe(true);
  expect(seen.openaiModels).toEqual(DEFAULT_MODELS.openai);
  expect(seen.anthropicModels).toEqual(DEFAULT_MODELS.anthropic);
  expect(seen.openaiText).toBe("Hello from the wire.");
  expect(seen.anthropicText).toBe("Claude streams too.");
  // Four chunks 400 ms apart: the page read the stream as it came, not all at the end. (A loaded machine may hand
  // two chunks to one read; it still reads text well before the last chunk is sent.)
  expect(seen.openaiReads.length).toBeGreaterThanOrEqual(2);
  expect(seen.openaiReads.at(-1)! - seen.openaiReads[0]!).toBeGreaterThanOrEqual(400);
  expect(seen.rateLimit).toEqual({ status: 429, retryAfter: "1", type: "requests" });
  expect(seen.dropped).toEqual(["TypeError: Failed to fetch", "TypeError: Failed to fetch"]);
  expect(seen.cut).toEqual({ text: "partial", error: "TypeError: network error" });
  expect(blocked).toEqual([]);

  const origin = new URL(page.url()).origin;
  const sent = await openai.requests();
  expect(sent.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /v1/models", ...Array<string>(5).fill("POST /v1/chat/completions")]);
  for (const r of sent) {
    expect(r.headers.origin).toBe(origin);
    expect(r.headers["sec-fetch-mode"]).toBe("cors");
    expect(r.headers.authorization).toBe("Bearer sk-e2e");
  }
  const claudeCalls = await anthropic.chatRequests();
  expect(claudeCalls).toHaveLength(1);
  expect(claudeCalls[0]!.headers["anthropic-dangerous-direct-browser-access"]).toBe("true");
  expect(claudeCalls[0]!.headers.origin).toBe(origin);
  // Nothing resent: each scripted reply answered exactly one request.
  expect(await openai.state()).toMatchObject({ pending: 0, served: 5 });
  await Promise.all([openai.reset(), anthropic.reset()]);
});
