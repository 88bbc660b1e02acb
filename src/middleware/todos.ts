/**
 * TodoListMiddleware (opt-in): the `write_todos` planning tool, as in
 * LangChain's todoListMiddleware used by deepagents.
 *
 * - `write_todos({ todos: [{ content, status }] })` replaces the whole list in
 *   the state field `todos` (public: the UI reads it with getState) and answers
 *   `Updated todo list to ${JSON.stringify(todos)}`.
 * - Several write_todos calls in one AI message are all rejected with an error
 *   result, as LangChain does (which one should win is ambiguous).
 * - A short "## `write_todos`" section is appended to the stable system prompt.
 */
import { errorToolMessage } from "../harness/execute-tool.ts";
import { defineStateField, stateSchema } from "../harness/state.ts";
import type { AgentMiddleware, AgentTool } from "../harness/types.ts";
import { TOOL } from "../core/tool-names.ts";

export const TODO_LIST = "TodoListMiddleware";
export const WRITE_TODOS = TOOL.write_todos;

export type TodoStatus = "pending" | "in_progress" | "completed";
export interface Todo {
  content: string;
  status: TodoStatus;
}

const STATUSES: readonly TodoStatus[] = ["pending", "in_progress", "completed"];

/** The current todo list (public: the UI reads it from the thread's state). */
const TODOS = defineStateField<Todo[]>("todos", { default: () => [] });

const WRITE_TODOS_DESCRIPTION =
  "Create and manage a structured task list for your current work session. " +
  "Pass the full list every time: it replaces the previous one.\n\n" +
  "Use it for complex, multi-step tasks (three or more distinct steps), when the user gives several tasks, " +
  "or when the user asks for a plan. Skip it for simple or conversational requests.\n\n" +
  "Statuses: pending (not started), in_progress (working on it now), completed (done). " +
  "Mark a task in_progress before starting it and completed as soon as it is done; do not batch completions. " +
  "Remove tasks that turn out to be irrelevant, and add new ones as you learn more.";

export const WRITE_TODOS_SYSTEM_PROMPT =
  "## `write_todos`\n\n" +
  "You have the `write_todos` tool to plan and track complex objectives. Use it for multi-step work, " +
  "and mark each todo completed as soon as it is done. For simple objectives, just do the work without it.\n" +
  "Never call `write_todos` more than once in the same message. Revise the list as you learn more.";

export const PARALLEL_WRITE_TODOS_ERROR =
  "Error: The `write_todos` tool should never be called multiple times in parallel. " +
  "Please call it only once per model invocation to update the todo list.";

/** The todos, or a message saying what is wrong with them. */
function parseTodos(raw: unknown): Todo[] | string {
  if (!Array.isArray(raw)) return "Error: 'todos' must be a list of { content, status } objects.";
  const todos: Todo[] = [];
  for (const [i, item] of raw.entries()) {
    if (typeof item !== "object" || item === null || Array.isArray(item))
      return `Error: todos[${i}] must be an object with 'content' and 'status'.`;
    const { content, status } = item as Record<string, unknown>;
    if (typeof content !== "string") return `Error: todos[${i}].content must be a string.`;
    if (typeof status !== "string" || !STATUSES.includes(status as TodoStatus)) {
      return `Error: todos[${i}].status must be one of ${STATUSES.map((s) => `"${s}"`).join(", ")}.`;
    }
    todos.push({ content, status: status as TodoStatus });
  }
  return todos;
}

export const writeTodosTool: AgentTool = {
  name: WRITE_TODOS,
  description: WRITE_TODOS_DESCRIPTION,
  schema: {
    type: "object",
    properties: {
      todos: {
        type: "array",
        description: "List of todo items to update",
        items: {
          type: "object",
          properties: {
            content: { type: "string", description: "Content of the todo item" },
            status: { type: "string", enum: [...STATUSES], description: "Status of the todo" },
          },
          required: ["content", "status"],
          additionalProperties: false,
        },
      },
    },
    required: ["todos"],
    additionalProperties: false,
  },
  async run(args) {
    const todos = parseTodos(args.todos);
    if (typeof todos === "string") return { content: todos, status: "error" };
    return { content: `Updated todo list to ${JSON.stringify(todos)}`, update: TODOS.set(todos) };
  },
};

/**
 * Builds the TodoListMiddleware. Never throws: bad arguments and parallel
 * calls are error results the model can correct.
 */
export function todosMiddleware(): AgentMiddleware {
  return {
    name: TODO_LIST,
    tools: [writeTodosTool],
    stateSchema: stateSchema(TODOS),
    async wrapModelCall(request, next) {
      const systemPrompt = [request.systemPrompt, WRITE_TODOS_SYSTEM_PROMPT].filter(Boolean).join("\n\n");
      return next({ ...request, systemPrompt });
    },
    async wrapToolCall(request, next) {
      const { toolCall, siblings } = request;
      if (toolCall.name === WRITE_TODOS && siblings.filter((c) => c.name === WRITE_TODOS).length > 1) {
        return { message: errorToolMessage(toolCall.id, WRITE_TODOS, PARALLEL_WRITE_TODOS_ERROR) };
      }
      return next(request);
    },
  };
}
