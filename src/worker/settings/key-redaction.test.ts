/**
 * A key never leaves for anywhere but its provider (issue 21 #3), through
 * the worker API in Node (fake-indexeddb): a subagent's provider answers 401
 * echoing the key; the key must not appear in the run's events, in any
 * stored database, in the thread's export or in the next request to the
 * provider. Chromium: key-redaction.browser.test.ts.
 */
import "fake-indexeddb/auto";
import { afterEach, describe, expect, it } from "vitest";
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
import { startScriptedServer, type ScriptedServer } from "../../testing/provider-servers.ts";
import { collectRun, openWorkerApi } from "../../testing/worker-api.ts";

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("a key echoed in a provider's error", () => {
  for (const [kind, key] of [
    ["a key-shaped key (sk-…)", SHAPED_KEY],
    ["a configured key of no known shape", PLAIN_KEY],
  ] as const) {
    it(`inside a subagent, ${kind} is hidden from events, storage, the export and the next request`, async () => {
      server = await startScriptedServer("openai", keyEchoReplies(key));
      const { api, db } = openWorkerApi();
      await api.setKey("openai-compatible", key, true, `${server.url}/v1`);
      await api.setThreadModel("k", { provider: "openai-compatible", model: "m", baseUrl: `${server.url}/v1` });
      const { events, done } = await collectRun((cb) => api.startRun("k", { text: LEAK_PROMPT }, cb));
      expect(await done).toMatchObject({ status: "complete" });

      // The subagent's failure reached the parent as its task result, with the key hidden.
      const view = await api.getThread("k");
      const result = view.messages.find((m) => m.role === "tool" && m.name === "task");
      expect(result?.content).toMatch(/Incorrect API key provided: \[key hidden\]/);
      const sent = server.requests.filter((r) => r.path.endsWith("/chat/completions"));
      // The parent, its subagent, the parent again (a request Chromium resent would add one).
      expect(sent.length).toBeGreaterThanOrEqual(3);
      // The key went to its provider, in the header, and nowhere else.
      expect(sent.every((r) => r.headers.authorization === `Bearer ${key}`)).toBe(true);
      expect(JSON.stringify(sent.at(-1)!.body)).toContain("[key hidden]");
      expect(JSON.stringify(sent.map((r) => r.body))).not.toContain(key);
      expect(JSON.stringify(events)).not.toContain(key);
      expect(JSON.stringify(view)).not.toContain(key);
      const exported = await api.exportThread("k");
      expect(exported.ok).toBe(true);
      if (exported.ok) expect(exportText(exported.value)).not.toContain(key);
      // Nothing stored holds it: checkpoints (the subagent's error write included) and files. (The remembered key is in
      // the store's keys namespace by the user's choice, so the store is checked without it.)
      expect(await databaseText(`${db}-checkpoints`)).not.toContain(key);
      expect(await databaseText(`${db}-files`)).not.toContain(key);
      await api.forgetKey("openai-compatible");
      expect(await databaseText(`${db}-store`)).not.toContain(key);
    }, 60_000);
  }

  for (const key of [SHAPED_KEY, SYMBOL_KEY]) {
    const title = `every form of the key ${key.slice(0, 8)}… in a 401 body and its raw body reach no event, checkpoint or export`;
    it(
      title,
      async () => {
        server = await startScriptedServer("openai", keyFormsEchoReplies(key));
        const { api, db } = openWorkerApi();
        await api.setKey("openai-compatible", key, false, `${server.url}/v1`);
        await api.setThreadModel("f", { provider: "openai-compatible", model: "m", baseUrl: `${server.url}/v1` });
        const { events, done } = await collectRun((cb) => api.startRun("f", { text: LEAK_PROMPT }, cb));
        expect(await done).toMatchObject({ status: "complete" });
        const view = await api.getThread("f");
        // The subagent's failure is kept as its status and plain message.
        expect(view.messages.find((m) => m.role === "tool" && m.name === "task")?.content).toMatch(
          /401 Incorrect API key provided\. verbatim: \[key hidden\]/,
        );
        const exported = await api.exportThread("f");
        if (!exported.ok) throw new Error(exported.error.message);
        const places = {
          events: JSON.stringify(events),
          view: JSON.stringify(view),
          export: exportText(exported.value),
          checkpoints: await databaseText(`${db}-checkpoints`),
          "the next request": JSON.stringify(server.requests.filter((r) => r.path.endsWith("/chat/completions")).map((r) => r.body)),
        };
        for (const [place, text] of Object.entries(places)) {
          for (const [name, form] of keyForms(key)) expect(text, `${name} in ${place}`).not.toContain(form);
          expect(text, `the raw body in ${place}`).not.toContain(RAW_BODY_MARKER);
        }
      },
      60_000,
    );
  }

  it("a provider's raw error body is not stored: the subagent's failure is its status and a plain message", async () => {
    server = await startScriptedServer("openai", keyFormsEchoReplies(PLAIN_KEY, false));
    const { api, db } = openWorkerApi();
    await api.setKey("openai-compatible", PLAIN_KEY, false, `${server.url}/v1`);
    await api.setThreadModel("b", { provider: "openai-compatible", model: "m", baseUrl: `${server.url}/v1` });
    const { events, done } = await collectRun((cb) => api.startRun("b", { text: LEAK_PROMPT }, cb));
    expect(await done).toMatchObject({ status: "complete" });
    const view = await api.getThread("b");
    expect(view.messages.find((m) => m.role === "tool" && m.name === "task")?.content).toContain(
      "401 (the provider's response gave no message)",
    );
    const exported = await api.exportThread("b");
    if (!exported.ok) throw new Error(exported.error.message);
    for (const text of [
      JSON.stringify(events),
      JSON.stringify(view),
      exportText(exported.value),
      await databaseText(`${db}-checkpoints`),
    ]) {
      expect(text).not.toContain(RAW_BODY_MARKER);
      expect(text).not.toContain("invalid_request_error");
    }
  }, 60_000);

  it("in a path the request log records, a key is hidden", async () => {
    server = await startScriptedServer("openai", []);
    const { api } = openWorkerApi();
    await api.setKey("openai-compatible", PLAIN_KEY, false);
    for (const key of [PLAIN_KEY, SHAPED_KEY])
      await api.listProviderModels({ provider: "openai-compatible", model: "", baseUrl: `${server.url}/key/${key}/v1` });
    const paths = (await api.requestLog()).map((e) => e.path);
    expect(paths).toEqual(["/key/[key hidden]/v1/models", "/key/[key hidden]/v1/models"]);
  });

  it("in the main agent, the run's error names the failure without the key, and nothing stored holds it", async () => {
    server = await startScriptedServer("openai", [
      { status: 401, body: { error: { message: `Incorrect API key provided: ${SHAPED_KEY}.`, type: "invalid_request_error" } } },
    ]);
    const { api, db } = openWorkerApi();
    await api.setKey("openai-compatible", SHAPED_KEY, false, `${server.url}/v1`);
    await api.setThreadModel("m", { provider: "openai-compatible", model: "m", baseUrl: `${server.url}/v1` });
    const { events, done } = await collectRun((cb) => api.startRun("m", { text: "hello" }, cb));
    expect(await done).toMatchObject({ type: "error", error: { status: 401 } });
    expect(JSON.stringify(events)).not.toContain(SHAPED_KEY);
    expect(await databaseText(`${db}-checkpoints`)).not.toContain(SHAPED_KEY);
    const exported = await api.exportThread("m");
    if (exported.ok) expect(exportText(exported.value)).not.toContain(SHAPED_KEY);
  });
});
