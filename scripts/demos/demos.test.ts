import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadAgent } from "../../src/agent-folders/load.ts";
import { summarizeDemo, type Demo } from "../../src/models/replay/format.ts";
import { parseDemo } from "../../src/models/replay/parse.ts";
import { ReplayChatModel } from "../../src/models/replay/replay-chat-model.ts";
import { buildDemos, demoPath } from "./main.ts";
import { AGENTS_ROOT, folderFiles, runTurn, SCRIPTED_BY, siteAgent } from "./record.ts";
import { DEMO_SCRIPTS } from "./scripts.ts";

const RUN_MS = 120_000;

async function demoOf(path: string): Promise<Demo> {
  const parsed = parseDemo(await readFile(join(AGENTS_ROOT, path), "utf8"));
  if (!parsed.ok) throw new Error(`${path}: ${parsed.error.join("; ")}`);
  return parsed.value;
}

describe("the site's agents' demos", () => {
  it(
    "are what their scripts make today (npm run demos -- --check)",
    async () => {
      expect(await buildDemos({ check: true })).toEqual([]);
    },
    RUN_MS,
  );

  it.each(DEMO_SCRIPTS.map((s) => [s.agent, s] as const))(
    "%s: a starter prompt's demo, labelled scripted, that the folder lists and that replays to its final answer with no divergence",
    async (_name, script) => {
      const path = demoPath(script);
      const demo = await demoOf(path);
      const agent = await siteAgent(script.agent);
      expect(agent.manifest.suggestions).toContain(script.prompt);
      expect(summarizeDemo(demo)).toMatchObject({
        prompt: script.prompt,
        title: script.title,
        model: `scripted:${script.agent}`,
        recordedBy: SCRIPTED_BY,
        scripted: true,
      });
      // What the agent does shows: a plan, files, and (where the agent has one) its subagent or its shell.
      const tools = summarizeDemo(demo).tools;
      expect(tools).toContain("write_todos");
      expect(tools).toContain("read_file");
      expect(tools).toContain(agent.manifest.sandbox === "shell" ? "execute" : "task");

      // The folder as published (demos included) lists the demo by its file.
      const loaded = loadAgent({ files: await folderFiles(script.agent) });
      if (!loaded.ok) throw new Error(loaded.error.message);
      expect(loaded.value.demos?.map((d) => d.file)).toContain(path.slice(script.agent.length + 1));

      const replay = new ReplayChatModel({ demo, speed: Infinity });
      const messages = await runTurn(agent, replay, script.prompt);
      expect(messages.at(-1)?.text).toBe(script.main.at(-1)?.text);
      expect(replay.played).toBe(demo.calls.length);
    },
    RUN_MS,
  );
});
