/**
 * Python deepagents 0.7.x's async subagent behaviours, as deeptab has them, table-driven, for Node and Chromium
 * (upstream-parity-winter-2026-async.test.ts and its .browser twin): fork mode (0.7.24) and status notes before a run
 * (0.7.27). The agent is the real createDeepAgent with a scripted model; the remote side is the loopback Agent
 * Protocol server (agent-protocol-server.ts), reached through the real LangGraph SDK. No Node imports.
 */
import { HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph/web";
import { describe, expect, it } from "vitest";
import { createDeepAgent } from "../agent/create-deep-agent.ts";
import { messageText } from "../core/messages.ts";
import type { AsyncSubAgent, AsyncTask, TaskEvent } from "../middleware/async-subagents.ts";
import { ScriptedChatModel, type ScriptContext, type ScriptedTurn } from "../models/scripted.ts";
import { toMessageInfo } from "../worker/runs/messages.ts";

/** What the server was asked to run (its `GET /__runs`). */
interface RemoteRun {
  thread_id: string;
  input: { messages: { role?: string; type?: string; content: unknown; tool_calls?: unknown[] }[] };
}

/** The tab's model: "start <marker> <words>" launches a task described "<marker> <words>"; anything else gets "ok". */
function tabScript(ctx: ScriptContext): ScriptedTurn {
  const last = ctx.messages.at(-1);
  if (last && ToolMessage.isInstance(last)) return { text: "Launched." };
  const said = last ? messageText(last) : "";
  if (said.startsWith("start "))
    return { toolCalls: [{ name: "start_async_task", args: { agentName: "researcher", description: said.slice(6) } }] };
  return { text: "ok" };
}

/** One conversation with one async subagent: what the tab's model saw, what the server ran, the tasks kept. */
function conversation(url: string, mode?: AsyncSubAgent["mode"]) {
  const model = new ScriptedChatModel({ script: tabScript });
  const researcher: AsyncSubAgent = { name: "researcher", description: "Researches on the server.", graphId: "agent", url };
  if (mode) researcher.mode = mode;
  const checkpointer = new MemorySaver();
  const config = { configurable: { thread_id: crypto.randomUUID() } };
  let tasks: Record<string, AsyncTask> = {};
  return {
    model,
    /** Sends one user message (the agent is built anew each time, as a reload does). */
    async say(text: string): Promise<BaseMessage[]> {
      const agent = createDeepAgent({ model, subagents: [researcher], checkpointer });
      const out = (await agent.invoke({ messages: [new HumanMessage(text)] }, config)) as Record<string, unknown>;
      tasks = (out.asyncTasks ?? {}) as Record<string, AsyncTask>;
      return out.messages as BaseMessage[];
    },
    tasks: () => Object.values(tasks),
    /** The server's record of the last run this conversation launched. */
    async lastRun(): Promise<RemoteRun> {
      const runs = (await (await fetch(`${url}/__runs`)).json()) as (RemoteRun & { run_id: string })[];
      const ids = new Set(Object.values(tasks).map((t) => t.runId));
      return runs.filter((r) => ids.has(r.run_id)).at(-1)!;
    },
  };
}

/** The notes the model was shown in its last call, as `[text, TaskEvent]`. */
function notesSeen(model: ScriptedChatModel): [string, TaskEvent][] {
  const seen = model.calls.at(-1)!.messages;
  return seen
    .filter((m) => m.getType() === "human" && m.additional_kwargs?.lc_source === "async_subagent")
    .map((m) => [messageText(m), m.additional_kwargs.deepagents_notification as TaskEvent]);
}

/** Registers the table; `url` gives the Agent Protocol server's address (known once the suite's setup ran). */
export function describeAsyncSubagentParity(url: () => string): void {
  describe("async subagent fork mode (Python deepagents 0.7.24)", () => {
    const launches: [string, AsyncSubAgent["mode"], (messages: RemoteRun["input"]["messages"]) => void][] = [
      [
        "isolated (the default): the remote thread starts from the task alone",
        undefined,
        (messages) => expect(messages).toEqual([{ role: "user", content: "[done] dig" }]),
      ],
      ['mode "isolated" is the same', "isolated", (messages) => expect(messages).toEqual([{ role: "user", content: "[done] dig" }])],
      [
        'mode "fork": it starts from the conversation so far (without the AI message holding the call), then the task',
        "fork",
        (messages) => {
          expect(messages.map((m) => [m.type, m.content])).toEqual([
            ["human", "the code word is kiwi"],
            ["ai", "ok"],
            ["human", "start [done] dig"],
            ["human", "[done] dig"],
          ]);
          expect(messages.some((m) => m.tool_calls?.length)).toBe(false);
        },
      ],
    ];
    it.each(launches)("%s", async (_name, mode, expected) => {
      const chat = conversation(url(), mode);
      await chat.say("the code word is kiwi");
      await chat.say("start [done] dig");
      expect(chat.tasks()).toHaveLength(1);
      expected((await chat.lastRun()).input.messages);
    });

    it("refuses another mode when the agent is built", () => {
      const odd = { name: "r", description: "d", graphId: "agent", url: url(), mode: "handoff" } as unknown as AsyncSubAgent;
      expect(() => createDeepAgent({ model: new ScriptedChatModel({ script: [] }), subagents: [odd] })).toThrow(
        /mode must be "isolated" or "fork"/,
      );
    });
  });

  describe("the main agent is told of its async subagents' status changes (Python deepagents 0.7.27)", () => {
    const outcomes: [string, string, AsyncTask["status"], RegExp | null][] = [
      [
        "a task that finished gets a note before the next run",
        "[done] dig",
        "success",
        /^Async subagent task \S+ \(researcher\) finished\. Call check_async_task/,
      ],
      [
        "a task that failed gets a note before the next run",
        "[fail] dig",
        "error",
        /^Async subagent task \S+ \(researcher\) failed\. Call check_async_task/,
      ],
      ["a task still running gets none and stays running", "dig on", "running", null],
    ];
    it.each(outcomes)("%s", async (_name, description, status, note) => {
      const chat = conversation(url());
      await chat.say(`start ${description}`);
      const [task] = chat.tasks();
      expect(task!.status).toBe("running");
      await chat.say("anything new?");
      expect(chat.tasks()[0]!.status).toBe(status);
      const notes = notesSeen(chat.model);
      if (note === null) return expect(notes).toEqual([]);
      expect(notes).toHaveLength(1);
      expect(notes[0]![0]).toMatch(note);
      expect(notes[0]![0]).toContain(task!.taskId);
      expect(notes[0]![1]).toEqual({ task_id: task!.taskId, agent_name: "researcher", status, run_id: task!.runId });
      // The page shows it as a note, not as a message the person typed.
      const kept = chat.model.calls.at(-1)!.messages.find((m) => m.additional_kwargs?.lc_source === "async_subagent")!;
      expect(toMessageInfo(kept)).toMatchObject({ role: "user", note: true });
      // Told once: the next run adds no second note.
      await chat.say("and now?");
      const all = chat.model.calls.at(-1)!.messages.filter((m) => m.additional_kwargs?.lc_source === "async_subagent");
      expect(all).toHaveLength(1);
    });
  });
}
