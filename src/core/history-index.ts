/**
 * Incremental facts about message histories, so that per-step work stays
 * O(new messages) instead of O(history).
 *
 * A thread's history only grows between steps: each step's array holds the
 * previous step's message objects plus a few new ones. An index records
 * facts per message in a ledger (prefix sums, id sets, positions of rare
 * messages) and, given the next step's array, adds only the new messages.
 * It never trusts a cached ledger blindly: the array must hold exactly the
 * ledger's message objects, in order, up to where the ledger ends (checked
 * by object identity, which costs far less than looking at the messages).
 * Any other array (a history rewritten in the middle, a view with new
 * objects, a fork from an earlier point) is indexed from where it last
 * agrees with a ledger, or from scratch; the answers are the same either way.
 *
 * A ledger is shared by the histories that extend one another: what
 * {@link HistoryIndex} returns is valid for that history only, until the next
 * call. Read what you need from it right away and do not keep it.
 */
import type { BaseMessage } from "@langchain/core/messages";

export interface HistoryIndexSpec<L> {
  /** A fresh, empty ledger. */
  empty(): L;
  /** Records message `m` at position `i` (the ledger holds messages 0..i-1). */
  add(ledger: L, m: BaseMessage, i: number): void;
  /** A new ledger with only the entries of messages 0..length-1 of `ledger`. */
  truncate(ledger: L, length: number): L;
}

/** A ledger and the message objects it was built from. */
interface Shared<L> {
  ledger: L;
  messages: BaseMessage[];
}

/** Where a history ending in some message object ended, and the ledger that covers it. */
interface Tip<L> {
  shared: Shared<L>;
  length: number;
}

/** The ledger of a history: valid for that history until the next call of the same index. */
export type HistoryIndex<L> = (history: readonly BaseMessage[]) => Readonly<L>;

/** How far back from the end a cached tip is looked for before indexing from scratch. */
const LOOK_BACK = 64;

function agrees(known: readonly BaseMessage[], history: readonly BaseMessage[], length: number): boolean {
  for (let i = 0; i < length; i++) if (known[i] !== history[i]) return false;
  return true;
}

export function historyIndex<L>(spec: HistoryIndexSpec<L>): HistoryIndex<L> {
  // No cache of the array asked about last (a step asks about one history several times): asking again finds the tip
  // its last message left and checks the prefix by identity (≈ 1 µs per 1,000 messages). Such a cache would need a
  // WeakRef to hold the array without keeping a closed thread alive; measured in the agent loop, it saved nothing.
  const tips = new WeakMap<BaseMessage, Tip<L>>();
  return (history) => {
    let start = history.length;
    let tip: Tip<L> | undefined;
    while (start > 0 && history.length - start < LOOK_BACK && !(tip = tips.get(history[start - 1]!))) start--;
    if (!tip || tip.length !== start || !agrees(tip.shared.messages, history, start)) {
      tip = undefined;
      start = 0;
    }
    let shared: Shared<L>;
    if (!tip) shared = { ledger: spec.empty(), messages: [] };
    else if (tip.shared.messages.length === start) shared = tip.shared;
    else shared = { ledger: spec.truncate(tip.shared.ledger, start), messages: tip.shared.messages.slice(0, start) };
    for (let i = start; i < history.length; i++) {
      spec.add(shared.ledger, history[i]!, i);
      shared.messages.push(history[i]!);
    }
    if (history.length) tips.set(history[history.length - 1]!, { shared, length: history.length });
    return shared.ledger;
  };
}
