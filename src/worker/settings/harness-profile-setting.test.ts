/**
 * The app's "Harness profile" setting, from the settings the page saves to the request a provider receives: the real
 * worker API over fake-indexeddb and a scripted OpenAI-compatible server on loopback. Automatic leaves the profile to
 * the model (none for an unknown one) or to the thread's agent folder; a named one (deepagentsjs' Codex profile here)
 * adds its prompt and wins over the folder's own `harness_profile`; a key no longer registered reads as automatic.
 */
import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import { harnessProfileKeys } from "../../agent/profiles/registry.ts";
import type { RecordedRequest } from "../../testing/provider-servers.ts";
import { serveScripted } from "../../testing/scripted-servers.ts";
import { collectRun, openWorkerApi, storeFolderAgent } from "../../testing/worker-api.ts";
import { BUILTIN_PROFILE_LABELS } from "../../protocol/catalog.ts";
import type { AgentWorkerApi } from "../../protocol/worker-api.ts";
import type { ModelChoice } from "../../protocol/settings.ts";
import { DEFAULT_SETTINGS, sanitizeSettings } from "./settings.ts";

const serve = serveScripted();
const CODEX = "## Codex-Specific Behavior";

type Chat = { messages: Array<{ role: string; content: unknown }>; tools?: Array<{ function: { name: string } }> };

/** The last chat request's system prompt and tool names. */
function lastChat(requests: RecordedRequest[]) {
  const body = requests.filter((r) => r.path.endsWith("/chat/completions")).at(-1)!.body as Chat;
  const system = body.messages.find((m) => m.role === "system")!.content;
  return { system: typeof system === "string" ? system : JSON.stringify(system), tools: (body.tools ?? []).map((t) => t.function.name) };
}

async function turn(api: AgentWorkerApi, thread: string) {
  const run = await collectRun((cb) => api.startRun(thread, { text: "hi" }, cb));
  const done = await run.done;
  expect(done, JSON.stringify(done)).toMatchObject({ type: "done", status: "complete" });
}

/** A thread `t` running the folder agent whose agent.yaml is `yaml`. */
async function folderThread(api: AgentWorkerApi, yaml: string, choice: ModelChoice) {
  const set = await api.setThreadAgent("t", await storeFolderAgent(api, { "AGENTS.md": "Be brief.", "agent.yaml": yaml }));
  if (!set.ok) throw new Error(set.error.message);
  await api.setThreadModel("t", choice);
}

describe("the harness profile setting", () => {
  it("is automatic by default, keeps a registered key and drops one no longer registered", () => {
    expect(DEFAULT_SETTINGS.harnessProfile).toBe("auto");
    expect(sanitizeSettings({ harnessProfile: "openai:gpt-5.3-codex" }).harnessProfile).toBe("openai:gpt-5.3-codex");
    expect(sanitizeSettings({ harnessProfile: "compact" }).harnessProfile).toBe("compact");
    expect(sanitizeSettings({ harnessProfile: "acme:gone" }).harnessProfile).toBe("auto");
    expect(sanitizeSettings({ harnessProfile: 42 }).harnessProfile).toBe("auto");
  });

  it("offers every built-in profile in Settings, labelled", () => {
    expect(Object.keys(BUILTIN_PROFILE_LABELS).sort()).toEqual(harnessProfileKeys());
  });

  it("automatic: no profile for an unknown model; named: the profile's prompt reaches the provider", async () => {
    const server = await serve("openai");
    const { api } = openWorkerApi();
    const choice: ModelChoice = { provider: "openai-compatible", baseUrl: server.baseUrl(), model: "m", contextWindow: 128_000 };
    await api.setThreadModel("a", choice);
    await turn(api, "a");
    expect(lastChat(server.requests).system).not.toContain(CODEX);

    expect((await api.updateSettings({ harnessProfile: "openai:gpt-5.3-codex" })).harnessProfile).toBe("openai:gpt-5.3-codex");
    await api.setThreadModel("b", choice);
    await turn(api, "b");
    const named = lastChat(server.requests);
    expect(named.system).toContain(CODEX);
    expect(named.tools).toContain("compact_conversation");
  });

  it("automatic leaves an agent folder's own profile; a named one wins over it", async () => {
    const server = await serve("openai");
    const { api } = openWorkerApi();
    const choice: ModelChoice = { provider: "openai-compatible", baseUrl: server.baseUrl(), model: "m", contextWindow: 128_000 };
    await folderThread(api, "harness_profile: compact\n", choice);
    await turn(api, "t");
    // The folder's compact profile: one-line tool texts, no compact_conversation.
    expect(lastChat(server.requests).tools).not.toContain("compact_conversation");

    await api.updateSettings({ harnessProfile: "openai:gpt-5.3-codex" });
    await turn(api, "t");
    const named = lastChat(server.requests);
    expect(named.system).toContain(CODEX);
    expect(named.tools).toContain("compact_conversation");
  });
});
