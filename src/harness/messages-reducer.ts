/**
 * The `messages` channel's reducer: LangGraph's `messagesStateReducer`, with
 * the same result, at a cost that follows the new messages in the common case.
 *
 * `messagesStateReducer` coerces every message of the history, gives it an id
 * if it has none, and builds an id → position map of the whole history on
 * each call: O(history) work, twice a step (the model's message, then the
 * tools' results), which in a 300-step session is ≈ 5% of the run and a sixth
 * of what it allocates. Here an id → position map is kept beside each
 * history this reducer returns (by array identity) and carried to the next:
 * when `left` is such a history and every new message is already a message
 * object (no plain object, no chunk to convert, no `RemoveMessage`), the
 * result is a copy of `left` with the new messages replacing by id or
 * appended, exactly as `messagesStateReducer` would make it. Anything else (a
 * history from a checkpoint or an `Overwrite`, removals, message-likes) goes
 * through `messagesStateReducer` itself, and its result's map is built then.
 */
import { BaseMessage, BaseMessageChunk, RemoveMessage } from "@langchain/core/messages";
import { messagesStateReducer, type Messages } from "@langchain/langgraph/web";

/**
 * Where each id sits in a lineage of histories: the histories this reducer returned one from another, each the one
 * before it with messages replaced in place or appended, every id once. An entry is only ever added or moved, never
 * removed, so an id missing from the map is in none of them; where the map names a position, a history checks that the
 * message there is that id, and looks for it otherwise (a sibling history, such as LangGraph's read of a step's writes
 * before it applies them, may have moved the entry).
 */
const lineages = new WeakMap<readonly BaseMessage[], Map<string, number>>();

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

/** Starts a lineage at `history` (a result of `messagesStateReducer`) when each of its ids is there once. */
function track(history: BaseMessage[]): BaseMessage[] {
  const positions = new Map<string, number>();
  for (let i = 0; i < history.length; i++) positions.set(history[i]!.id!, i);
  if (positions.size === history.length) lineages.set(history, positions);
  return history;
}

/** `left` with `added` replacing by id or appended; `positions` follows. */
function merge(left: readonly BaseMessage[], positions: Map<string, number>, added: readonly BaseMessage[]): BaseMessage[] {
  const merged = left.slice();
  for (const m of added) {
    const id = m.id!;
    let at = positions.get(id) ?? -1;
    if (at >= 0 && !(at < merged.length && merged[at]!.id === id)) at = merged.findLastIndex((other) => other.id === id);
    positions.set(id, at >= 0 ? at : merged.length);
    if (at >= 0) merged[at] = m;
    else merged.push(m);
  }
  return merged;
}

/** `messagesStateReducer(left, right)`, in O(new messages) plus one array copy when `left` is a result of this reducer. */
export function appendMessages(left: Messages, right: Messages): BaseMessage[] {
  const positions = Array.isArray(left) ? lineages.get(left as BaseMessage[]) : undefined;
  const added = positions ? plainMessages(right) : undefined;
  if (!positions || !added) return track(messagesStateReducer(left, right) as BaseMessage[]);
  const merged = merge(left as BaseMessage[], positions, added);
  lineages.set(merged, positions);
  return merged;
}
