/** The page hands the worker Chrome's Prompt API only when the window has one; stopping is cancelling the stream. */
import { describe, expect, it } from "vitest";
import type { PromptApiRemote } from "../../protocol/worker-api.ts";
import { attachPromptApi } from "./prompt-api.ts";

function fakeLanguageModel() {
  const sessions = { created: 0, destroyed: 0 };
  const LanguageModel = {
    async create() {
      sessions.created++;
      return {
        contextWindow: 6_144,
        promptStreaming: (input: string) =>
          new ReadableStream<string>({
            start(controller) {
              controller.enqueue(`echo: ${input}`);
              controller.enqueue(" (more)");
            },
          }),
        destroy: () => void sessions.destroyed++,
      };
    },
  };
  return { scope: { LanguageModel }, sessions };
}

describe("attachPromptApi", () => {
  it("attaches nothing without the Prompt API", async () => {
    const attached: Array<PromptApiRemote | null> = [];
    expect(await attachPromptApi({ attachPromptApi: async (r) => void attached.push(r) }, {})).toBe(false);
    expect(attached).toEqual([]);
  });

  it("attaches a remote whose reply streams, and whose cancel ends the session", async () => {
    const { scope, sessions } = fakeLanguageModel();
    let remote: PromptApiRemote | null = null;
    expect(await attachPromptApi({ attachPromptApi: async (r) => void (remote = r) }, scope)).toBe(true);
    const api = remote as unknown as PromptApiRemote;
    expect(await api.contextWindow()).toBe(6_144);
    const reader = (await api.prompt({ initialPrompts: [], input: "hi" })).getReader();
    expect((await reader.read()).value).toBe("echo: hi");
    await reader.cancel();
    expect(sessions).toEqual({ created: 2, destroyed: 2 });
  });
});
