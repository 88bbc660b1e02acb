/**
 * The `messages` channel's reducer: LangGraph's `messagesStateReducer`, with
 * the same result, at a cost that follows the new messages in the common case.
 *
 * `messagesStateReducer` coerces every message of the history, gives it an id
 * if it has none, and builds an id → position map of the whole history on
 * each call: O(history) work, twice a step (the model's message, then the
 * tools' results), which in a 300-step session is ≈ 5% of the run and a sixth
 * of what it allocates. Here the history's message ids and their positions
 * come from the harness's incremental history index (`historyIds`, see
 * core/history-index.ts), which adds only the messages a history has beyond
 * one it has seen: when `left` is a history this reducer returned (its
 * messages are message objects already), each of its ids is there once, and
 * every new message is already a message object (no plain object, no chunk to
 * convert, no `RemoveMessage`), the result is a copy of `left` with the new
 * messages replacing by id or appended, exactly as `messagesStateReducer`
 * would make it. Anything else (a history from a checkpoint or an
 * `Overwrite`, removals, message-likes) goes through `messagesStateReducer`
 * itself.
 */
import { BaseMessage, BaseMessageChunk, RemoveMessage } from "@langchain/core/messages";
import { messagesStateReducer, type Messages } from "@langchain/langgraph/web";
import { historyIds } from "./tool-calls.ts";

/** The histories this reducer returned: every element a message object with an id. */
const made = new WeakSet<readonly BaseMessage[]>();

/** The new messages, ids given, when each is a plain message object that `messagesStateReducer` would take as is. */
function plainMessages(right: Messages): BaseMessage[] | undefined {
  const list = Array.isArray(right) ? right : [right];
  for (const m of list) {
    if (!BaseMessage.isInstance(m) || BaseMessageChunk.isInstance(m) || RemoveMessage.isInstance(m)) return undefined;
  }
  const messages = list as BaseMessage[];
  for (const m of messages) {
    if (m.id === null || m.id === undefined) {
      m.id = crypto.randomUUID();
      m.lc_kwargs.id = m.id;
    }
  }
  return messages;
}

/** `left` (each of its ids there once, at `positions`) with `added` replacing by id or appended. */
function merge(left: readonly BaseMessage[], positions: ReadonlyMap<string, number>, added: readonly BaseMessage[]): BaseMessage[] {
  const merged = left.slice();
  const appended = new Map<string, number>();
  for (const m of added) {
    const at = positions.get(m.id!) ?? appended.get(m.id!);
    if (at !== undefined) merged[at] = m;
    else {
      appended.set(m.id!, merged.length);
      merged.push(m);
    }
  }
  return merged;
}

/** `messagesStateReducer(left, right)`, in O(new messages) plus one array copy when `left` is a result of this reducer. */
export function appendMessages(left: Messages, right: Messages): BaseMessage[] {
  const history = Array.isArray(left) && made.has(left as BaseMessage[]) ? (left as BaseMessage[]) : undefined;
  const positions = history && historyIds(history).messageIds;
  const added = positions && positions.size === history.length ? plainMessages(right) : undefined;
  const merged = added ? merge(history!, positions!, added) : (messagesStateReducer(left, right) as BaseMessage[]);
  made.add(merged);
  return merged;
}
