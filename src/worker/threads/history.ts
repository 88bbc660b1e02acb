/**
 * A thread's checkpoint history as the page needs it: the branches around
 * the shown one, and the checkpoint to fork from when a message is edited.
 * Reads only checkpoint ids and parents in bulk, and the message count of a
 * few checkpoints (a binary search along the shown path).
 */
import { forkPoints, newestLeaf, type TreeNode } from "./branches.ts";
import type { BranchInfo } from "../../protocol/threads.ts";

/** What history needs of the checkpointer. */
export interface CheckpointReader {
  /** Every checkpoint of the thread (top namespace): id and parent. */
  tree(threadId: string): Promise<TreeNode[]>;
  /** How many messages the state holds at a checkpoint, and how the checkpoint was made (`input`, `loop`, `update`, `fork`). */
  at(threadId: string, checkpointId: string): Promise<{ count: number; source?: string }>;
}

/** The checkpoints from the root to `head` (or the newest), in order. */
function pathTo(tree: readonly TreeNode[], head?: string): string[] {
  if (!tree.length) return [];
  const byId = new Map(tree.map((n) => [n.id, n]));
  const start = head && byId.has(head) ? newestLeaf(tree, head) : [...byId.keys()].sort().at(-1)!;
  const path: string[] = [];
  for (let at: string | undefined = start; at; at = byId.get(at)?.parentId) path.push(at);
  return path.reverse();
}

export async function branchesOf(reader: CheckpointReader, threadId: string, head?: string): Promise<BranchInfo[]> {
  const tree = await reader.tree(threadId);
  const out: BranchInfo[] = [];
  for (const point of forkPoints(tree, head)) {
    const { count } = await reader.at(threadId, point.forkId);
    out.push({
      messageIndex: count,
      current: point.leaves.indexOf(point.headLeaf) + 1,
      count: point.leaves.length,
      heads: point.leaves,
    });
  }
  // Two forks at the same message (an edit of an edit) show as one switcher: the later fork is the one nearest the shown branch.
  const byIndex = new Map<number, BranchInfo>();
  for (const b of out) byIndex.set(b.messageIndex, b);
  return [...byIndex.values()];
}

/**
 * The checkpoint to fork from to replace the message at `messageIndex`: the
 * last one on the shown path whose state holds exactly `messageIndex`
 * messages, preferring one that is not an input checkpoint (else the first
 * of them). Undefined when the path has none.
 */
export async function forkCheckpoint(
  reader: CheckpointReader,
  threadId: string,
  messageIndex: number,
  head?: string,
): Promise<string | undefined> {
  const path = pathTo(await reader.tree(threadId), head);
  const cache = new Map<number, { count: number; source?: string }>();
  const at = async (i: number) => {
    let hit = cache.get(i);
    if (!hit) cache.set(i, (hit = await reader.at(threadId, path[i]!)));
    return hit;
  };
  // Message counts never decrease along a path: find the last checkpoint with count <= messageIndex.
  let lo = 0;
  let hi = path.length - 1;
  let last = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if ((await at(mid)).count <= messageIndex) {
      last = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  if (last < 0 || (await at(last)).count !== messageIndex) return undefined;
  let first = last;
  for (let i = last; i >= 0; i--) {
    const info = await at(i);
    if (info.count !== messageIndex) break;
    if (info.source !== "input") return path[i];
    first = i;
  }
  // Only input checkpoints (the first message): the earliest, so every edit of it forks from one place and
  // the branches are siblings there (forking from a later branch's own input checkpoint would nest them).
  return path[first];
}
