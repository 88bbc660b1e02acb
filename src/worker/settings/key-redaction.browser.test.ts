/**
 * A key never leaves for anywhere but its provider (issue 21 #3), in the real
 * agent worker (Chromium, real IndexedDB): a subagent's provider answers 401
 * echoing the key; the key must not appear in the run's events, in any of the
 * worker's databases, in the thread's export, in the next request to the
 * provider or in the request log. (Node: key-redaction.test.ts.)
 */
import { describe, expect, inject, it } from "vitest";
import {
  databaseText,
  exportText,
  keyEchoReplies,
  keyForms,
  keyFormsEchoReplies,
  LEAK_PROMPT,
  PLAIN_KEY,
  RAW_BODY_MARKER,
  SHAPED_KEY,
  SYMBOL_KEY,
} from "../../testing/key-leaks.ts";
import { serverScope } from "../../testing/server-scope.ts";
import { workerPool } from "../../testing/worker-pool.ts";
import type { AgentEvent } from "../../protocol/events.ts";

const db = `keys-${crypto.randomUUID()}`;
const { spawn } = workerPool(db);

describe("a key echoed in a subagent's provider error, in the worker", () => {
  for (const [kind, key] of [
    ["a key-shaped key (sk-…)", SHAPED_KEY],
    ["a configured key of no known shape", PLAIN_KEY],
  ] as const) {
    it(`${kind} is hidden from events, storage, the export, the next request and the request log`, async () => {
      const server = serverScope(inject("providerServer"));
      await server.script(keyEchoReplies(key));
      const client = spawn();
      const thread = `k-${crypto.randomUUID()}`;
      await client.setKey("openai-compatible", key, false, server.baseUrl);
      await client.setThreadModel(thread, { provider: "openai-compatible", model: "m", baseUrl: server.baseUrl });
      const events: AgentEvent[] = [];
      const start = await client.run(thread, { text: LEAK_PROMPT }, (e) => events.push(e));
      if (!start.ok) throw new Error(start.error.message);
      expect(await start.value.done).toMatchObject({ status: "complete" });

      const view = await client.getThread(thread);
      const result = view.messages.find((m) => m.role === "tool" && m.name === "task");
      expect(result?.content).toMatch(/Incorrect API key provided: \[key hidden\]/);
      const sent = (await server.requests()).filter((r) => r.path.endsWith("/chat/completions"));
      // The parent, its subagent, the parent again (a request Chromium resent would add one).
      expect(sent.length).toBeGreaterThanOrEqual(3);
      expect(sent.every((r) => r.headers.authorization === `Bearer ${key}`)).toBe(true);
      expect(JSON.stringify(sent.map((r) => r.body))).not.toContain(key);
      expect(JSON.stringify(events)).not.toContain(key);
      const exported = await client.exportThread(thread);
      if (!exported.ok) throw new Error(exported.error.message);
      expect(exportText(exported.value)).not.toContain(key);
      for (const name of ["checkpoints", "files", "store"]) expect(await databaseText(`${db}-${name}`), name).not.toContain(key);
      await client.listProviderModels({ provider: "openai-compatible", model: "", baseUrl: `${inject("providerServer")}/key/${key}/v1` });
      expect(JSON.stringify(await client.requestLog())).not.toContain(key);
    }, 120_000);
  }

  for (const [key, withMessage] of [
    [SYMBOL_KEY, true],
    [PLAIN_KEY, false],
  ] as const) {
    const body = withMessage ? "a 401 body" : "a 401 body without a message";
    it(`every form of the key ${key.slice(0, 8)}… in ${body} and its raw body reach no event, checkpoint or export`, async () => {
      const server = serverScope(inject("providerServer"));
      await server.script(keyFormsEchoReplies(key, withMessage));
      const client = spawn();
      const thread = `f-${crypto.randomUUID()}`;
      await client.setKey("openai-compatible", key, false, server.baseUrl);
      await client.setThreadModel(thread, { provider: "openai-compatible", model: "m", baseUrl: server.baseUrl });
      const events: AgentEvent[] = [];
      const start = await client.run(thread, { text: LEAK_PROMPT }, (e) => events.push(e));
      if (!start.ok) throw new Error(start.error.message);
      expect(await start.value.done).toMatchObject({ status: "complete" });
      const view = await client.getThread(thread);
      expect(view.messages.find((m) => m.role === "tool" && m.name === "task")?.content).toContain(
        withMessage ? "401 Incorrect API key provided. verbatim: [key hidden]" : "401 (the provider's response gave no message)",
      );
      const exported = await client.exportThread(thread);
      if (!exported.ok) throw new Error(exported.error.message);
      const sent = (await server.requests()).filter((r) => r.path.endsWith("/chat/completions"));
      const places = {
        events: JSON.stringify(events),
        view: JSON.stringify(view),
        export: exportText(exported.value),
        checkpoints: await databaseText(`${db}-checkpoints`),
        "the next request": JSON.stringify(sent.map((r) => r.body)),
      };
      for (const [place, text] of Object.entries(places)) {
        for (const [name, form] of keyForms(key)) expect(text, `${name} in ${place}`).not.toContain(form);
        expect(text, `the raw body in ${place}`).not.toContain(RAW_BODY_MARKER);
      }
    }, 120_000);
  }
});
