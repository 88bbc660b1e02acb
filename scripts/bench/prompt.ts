/**
 * The fixed prompt: what every request carries before the conversation (the
 * system prompt, the tool definitions, memory and the skills index), for the
 * default tool profile and the compact one chosen for small windows, with a
 * short memory file and three skills as a user would have them. Tokens are
 * deeptab's estimate (4 characters a token).
 *
 *   node --import tsx scripts/bench/prompt.ts
 */
import { HumanMessage } from "@langchain/core/messages";
import { pathToFileURL } from "node:url";
import { createDeepAgent } from "../../src/agent/create-deep-agent.ts";
import type { ToolProfile } from "../../src/context/budget.ts";
import { ShellBackend } from "../../src/backends/sandbox/shell.ts";
import { ScriptedChatModel } from "../../src/models/scripted.ts";

/** Three skills of the size people write (the index holds only name, description and path). */
const SKILLS: Record<string, string> = {
  "csv-analysis":
    `---
name: csv-analysis
description: Analyse CSV files in the workspace with the offline shell (awk, sort, uniq, jq) - ` +
    `summary statistics, grouping, top-N tables and charts as Markdown. Use when the user asks about the numbers in a .csv file.
---
# CSV analysis

1. Look at the header and 20 rows first (\`head -n 21 file.csv\`).
2. Count rows, empty cells and distinct values per column with awk.
3. Answer with a Markdown table; say which rows were skipped and why.
`,
  "release-notes":
    `---
name: release-notes
description: Write release notes from a changelog, commit list or pasted changes - ` +
    `grouped into features, fixes and breaking changes, in the project's tone, with upgrade steps for anything breaking. ` +
    `Use when the user asks for release notes or a changelog entry.
---
# Release notes

- Group by user-visible effect, not by file.
- Breaking changes first, each with the one step that upgrades.
- Save the result to /release-notes.md.
`,
  "meeting-minutes":
    `---
name: meeting-minutes
description: Turn a meeting transcript or rough notes into minutes - ` +
    `attendees, decisions, open questions and action items with owners and due dates. ` +
    `Use when the user pastes a transcript or asks for minutes of a meeting.
---
# Meeting minutes

Attendees, then decisions, then action items as a checklist (owner, date). Keep quotes short.
`,
};

const MEMORY = `# About the user
- Prefers British spelling and short answers.
- Works on a Svelte app; tests run with vitest.
- Keep notes for the "Q3 budget" project in /notes/budget.md.
`;

interface Measure {
  system: number;
  tools: number;
  count: number;
}

async function fixedPrompt(profile: ToolProfile, window: number, files: { memory: boolean; skills: boolean }): Promise<Measure> {
  const backend = new ShellBackend();
  if (files.memory) await backend.write("/memories/AGENTS.md", MEMORY);
  if (files.skills) for (const [name, text] of Object.entries(SKILLS)) await backend.write(`/skills/${name}/SKILL.md`, text);
  const model = new ScriptedChatModel({ script: [{ text: "ok" }] });
  const agent = createDeepAgent({
    model,
    backend,
    toolProfile: profile,
    memory: ["/memories/AGENTS.md"],
    skills: ["/skills/"],
    summarization: { maxInputTokens: window },
    systemPrompt: "You are a helpful assistant.",
  });
  await agent.invoke({ messages: [new HumanMessage("hi")] });
  const call = model.calls[0]!;
  return {
    system: Math.ceil(call.messages[0]!.text.length / 4),
    tools: Math.ceil(JSON.stringify(call.toolDefinitions).length / 4),
    count: call.tools.length,
  };
}

export async function benchPrompt(): Promise<string[]> {
  const lines = [
    "fixed prompt: system prompt (with a 4-line memory and an index of 3 skills) + " +
      "tool definitions of every request (estimated tokens; agent with a shell)",
  ];
  const measure = async (profile: ToolProfile, window: number) => ({
    all: await fixedPrompt(profile, window, { memory: true, skills: true }),
    memoryOnly: await fixedPrompt(profile, window, { memory: true, skills: false }),
    bare: await fixedPrompt(profile, window, { memory: false, skills: false }),
  });
  const rows: Array<[string, Awaited<ReturnType<typeof measure>>]> = [
    ["default profile", await measure("default", 128_000)],
    ["compact profile", await measure("compact", 4_096)],
  ];
  const pad = (n: number) => String(n).padStart(5);
  for (const [name, { all: p, memoryOnly, bare }] of rows) {
    const memory = memoryOnly.system - bare.system;
    const skills = p.system - memoryOnly.system;
    lines.push(
      `  ${name.padEnd(16)} ${String(p.count).padStart(2)} tools, ` +
        `system ${pad(p.system)} (memory ${pad(memory)}, skills index ${pad(skills)}) + ` +
        `tools ${pad(p.tools)} = ${pad(p.system + p.tools)} tokens`,
    );
  }
  const base = rows[0]![1].all;
  const compact = rows[1]![1].all;
  const b = base.system + base.tools;
  const c = compact.system + compact.tools;
  lines.push(`  compact / default ${(c / b).toFixed(2)}x; in a 4,096-token window the compact prompt leaves ${4_096 - c} tokens to work`);
  return lines;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  for (const line of await benchPrompt()) console.log(line);
}
