/**
 * The fixed prompt: what every request carries before the conversation (the
 * system prompt, the tool definitions, memory and skills), for the default
 * tool profile and the compact one chosen for small windows. Tokens are
 * deeptab's estimate (4 characters a token).
 *
 *   node --import tsx scripts/bench-prompt.ts
 */
import { HumanMessage } from "@langchain/core/messages";
import { pathToFileURL } from "node:url";
import { createDeepAgent } from "../src/agent/create-deep-agent.ts";
import type { ToolProfile } from "../src/context/budget.ts";
import { ShellBackend } from "../src/backends/sandbox/shell.ts";
import { ScriptedChatModel } from "../src/models/scripted.ts";

async function fixedPrompt(profile: ToolProfile, window: number): Promise<{ system: number; tools: number; count: number }> {
  const model = new ScriptedChatModel({ script: [{ text: "ok" }] });
  const agent = createDeepAgent({
    model,
    backend: new ShellBackend(),
    toolProfile: profile,
    memory: ["/memories/AGENTS.md"],
    summarization: { maxInputTokens: window },
    systemPrompt: "You are a helpful assistant.",
  });
  await agent.invoke({ messages: [new HumanMessage("hi")] });
  const call = model.calls[0]!;
  const system = call.messages[0]!.text;
  return {
    system: Math.ceil(system.length / 4),
    tools: Math.ceil(JSON.stringify(call.toolDefinitions).length / 4),
    count: call.tools.length,
  };
}

export async function benchPrompt(): Promise<string[]> {
  const lines = ["fixed prompt: system prompt + tool definitions of every request (estimated tokens; agent with a shell and memory)"];
  const base = await fixedPrompt("default", 128_000);
  const compact = await fixedPrompt("compact", 4_096);
  for (const [name, p] of [
    ["default profile", base],
    ["compact profile", compact],
  ] as const) {
    lines.push(
      `  ${name.padEnd(16)} ${String(p.count).padStart(2)} tools, system ${String(p.system).padStart(5)} + tools ${String(p.tools).padStart(5)} = ${String(p.system + p.tools).padStart(5)} tokens`,
    );
  }
  const b = base.system + base.tools;
  const c = compact.system + compact.tools;
  lines.push(`  compact / default ${(c / b).toFixed(2)}x; in a 4,096-token window the compact prompt leaves ${4_096 - c} tokens to work`);
  return lines;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  for (const line of await benchPrompt()) console.log(line);
}
