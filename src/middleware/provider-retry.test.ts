/**
 * A refused key, 401 or 403 (a key without permission for the model), from
 * the real OpenAI and Anthropic clients over the loopback servers: both are
 * "auth" failures, never retried, and the run's message says to check the
 * key.
 */
import { HumanMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { createDeepAgent } from "../agent/create-deep-agent.ts";
import { remoteModelFor } from "../testing/remote-model.ts";
import type { Dialect, ServerReply } from "../testing/provider-servers.ts";
import { serveScripted } from "../testing/scripted-servers.ts";
import { describeProviderFailure } from "./provider-failure.ts";
import { classifyProviderError, providerRetryMiddleware } from "./provider-retry.ts";

const serve = serveScripted();

describe("a refused key", () => {
  for (const dialect of ["openai", "anthropic"] as const satisfies readonly Dialect[]) {
    for (const status of [401, 403]) {
      it(`${dialect} ${status}: an auth failure, not retried, with "check the key" as the message`, async () => {
        const server = await serve(dialect, [{ status }]);
        const waits: number[] = [];
        const agent = createDeepAgent({
          model: await remoteModelFor(server, "sk-no-permission"),
          middleware: [providerRetryMiddleware({ sleep: async (ms) => void waits.push(ms) })],
        });
        const failure = await agent.invoke({ messages: [new HumanMessage("hi")] }).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(failure).toBeDefined();
        expect(classifyProviderError(failure)).toMatchObject({ kind: "auth", status });
        expect(describeProviderFailure(failure, server.url)).toBe(
          `127.0.0.1:${server.port} refused the API key (HTTP ${status}). Check the key in Settings.`,
        );
        expect(waits).toEqual([]);
        expect(server.requests.filter((r) => r.method === "POST")).toHaveLength(1);
      });
    }
  }
});

describe("a connection that drops", () => {
  for (const dialect of ["openai", "anthropic"] as const satisfies readonly Dialect[]) {
    const run = async (replies: ServerReply[]) => {
      const server = await serve(dialect, replies);
      const waits: number[] = [];
      const agent = createDeepAgent({
        model: await remoteModelFor(server),
        middleware: [providerRetryMiddleware({ sleep: async (ms) => void waits.push(ms) })],
      });
      const streamed: string[] = [];
      const failure = await (async () => {
        for await (const [chunk] of await agent.stream({ messages: [new HumanMessage("hi")] }, { streamMode: "messages" }))
          if (chunk.text) streamed.push(chunk.text);
      })().then(
        () => undefined,
        (e: unknown) => e,
      );
      return { server, failure, waits, streamed };
    };

    it(`${dialect}: mid-answer, then unreachable: retried, and reported as a drop after an answer, not as CORS`, async () => {
      const { server, failure, waits, streamed } = await run([
        { chunks: ["Half ", "an ", "answer ", "never ends"], disconnectAfter: 2 },
        { disconnect: true },
        { disconnect: true },
        { disconnect: true },
      ]);
      expect(streamed.join("")).toBe("Half an ");
      expect(waits).toHaveLength(3);
      expect(server.requests.filter((r) => r.method === "POST")).toHaveLength(4);
      expect(classifyProviderError(failure)).toEqual({ kind: "dropped" });
      const text = describeProviderFailure(failure, server.url);
      expect(text).toContain(`The connection to 127.0.0.1:${server.port} dropped in the middle of the answer`);
      expect(text).not.toMatch(/CORS|Could not reach/);
    });

    it(`${dialect}: never answered: a network failure, with the CORS hint`, async () => {
      const { failure, waits } = await run([{ disconnect: true }, { disconnect: true }, { disconnect: true }, { disconnect: true }]);
      expect(waits).toHaveLength(3);
      expect(classifyProviderError(failure)).toEqual({ kind: "network" });
      expect(describeProviderFailure(failure)).toMatch(/^Could not reach the provider\. .*\(CORS\)/);
    });
  }
});
