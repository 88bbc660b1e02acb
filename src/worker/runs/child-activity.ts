/**
 * A callback handler that reports each subagent model call's complete
 * message (the stream's `messages` mode carries only its chunks). The task
 * tool passes the parent's callbacks to the child, whose metadata names the
 * `task` call (`deeptab_task_id`).
 */
import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import type { BaseMessage } from "@langchain/core/messages";
import type { ChatGeneration, LLMResult } from "@langchain/core/outputs";

export class ChildActivityHandler extends BaseCallbackHandler {
  name = "deeptab_child_activity";
  readonly #tasks = new Map<string, string>();
  readonly #onMessage: (taskId: string, message: BaseMessage) => void;

  constructor(onMessage: (taskId: string, message: BaseMessage) => void) {
    super();
    this.#onMessage = onMessage;
  }

  override handleChatModelStart(
    _llm: unknown,
    _messages: unknown,
    runId: string,
    _parentRunId?: string,
    _extra?: Record<string, unknown>,
    _tags?: string[],
    metadata?: Record<string, unknown>,
  ): void {
    const taskId = metadata?.deeptab_task_id;
    if (typeof taskId === "string") this.#tasks.set(runId, taskId);
  }

  override handleLLMEnd(output: LLMResult, runId: string): void {
    const taskId = this.#tasks.get(runId);
    this.#tasks.delete(runId);
    const message = (output.generations?.[0]?.[0] as ChatGeneration | undefined)?.message;
    if (taskId && message) this.#onMessage(taskId, message);
  }

  override handleLLMError(_err: unknown, runId: string): void {
    this.#tasks.delete(runId);
  }
}
