/**
 * The `messages` channel's reducer: LangGraph's `messagesStateReducer`, with
 * the same result, at a cost that follows the new messages in the common case.
 *
 * `messagesStateReducer` coerces every message of the history, gives it an id
 * if it has none, and builds an id → position map of the whole history on
 * each call: O(history) work, twice a step (the model's message, then the
 * tools' results), which in a 300-step session is ≈ 5% of the run and a sixth
 * of what it allocates. Here the map of the history this reducer returned
 * last is kept (by array identity) and carried to the next result: when
 * `left` is that history and every new message is already a message object
 * (no plain object, no chunk to convert, no `RemoveMessage`), the result is a
 * copy of `left` with the new messages replacing by id or appended, exactly as
 * `messagesStateReducer` would make it. Anything else (a history from a
 * checkpoint, a fork from an older history, removals, message-likes) goes
 * through `messagesStateReducer` itself, and its result's map is built then.
 */
import { BaseMessage, BaseMessageChunk, RemoveMessage } from "@langchain/core/messages";
import { messagesStateReducer, type Messages } from "@langchain/langgraph/web";

/**
 * A lineage's id → position map and the one history it describes now: only that history may extend it in place
 * (the next result becomes its owner); an older history of the lineage, used again, takes the slow path.
 */
interface Lineage {
  positions: Map<string, number>;
  owner: readonly BaseMessage[];
}

const lineages = new WeakMap<readonly BaseMessage[], Lineage>();

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

/** Starts a lineage at `history` (a result of `messagesStateReducer`, every message with an id). */
function track(history: BaseMessage[]): BaseMessage[] {
  const positions = new Map<string, number>();
  for (let i = 0; i < history.length; i++) positions.set(history[i]!.id!, i);
  lineages.set(history, { positions, owner: history });
  return history;
}

/** `messagesStateReducer(left, right)`, in O(new messages) plus one array copy when `left` is this reducer's last result. */
export function appendMessages(left: Messages, right: Messages): BaseMessage[] {
  const lineage = Array.isArray(left) ? lineages.get(left as BaseMessage[]) : undefined;
  const added = lineage && lineage.owner === left ? plainMessages(right) : undefined;
  if (!lineage || !added) return track(messagesStateReducer(left, right) as BaseMessage[]);
  const merged = (left as BaseMessage[]).slice();
  const { positions } = lineage;
  for (const m of added) {
    const at = positions.get(m.id!);
    if (at === undefined) {
      positions.set(m.id!, merged.length);
      merged.push(m);
    } else merged[at] = m;
  }
  lineage.owner = merged;
  lineages.set(merged, lineage);
  return merged;
}
