/**
 * Branches of a thread, from its checkpoint tree: every edit or retry forks
 * a checkpoint, so each leaf of the tree is a branch's newest checkpoint.
 * Pure: the caller reads the tree (ids and parents only) and the message
 * count at each fork point.
 */

export interface TreeNode {
  id: string;
  parentId?: string;
}

export interface ForkPoint {
  /** The checkpoint where the branches part. */
  forkId: string;
  /** The leaves of every branch from this point, oldest first; `headLeaf` among them. */
  leaves: string[];
  /** The leaf of the branch shown. */
  headLeaf: string;
}

/** The leaf a checkpoint leads to when following its newest child each time. */
export function newestLeaf(tree: readonly TreeNode[], id: string): string {
  const children = childrenOf(tree);
  let current = id;
  for (;;) {
    const next = children.get(current);
    if (!next?.length) return current;
    current = next[next.length - 1]!;
  }
}

function childrenOf(tree: readonly TreeNode[]): Map<string, string[]> {
  const children = new Map<string, string[]>();
  for (const node of tree) {
    if (!node.parentId) continue;
    const list = children.get(node.parentId) ?? [];
    list.push(node.id);
    children.set(node.parentId, list);
  }
  for (const list of children.values()) list.sort();
  return children;
}

/**
 * Where the shown branch (ending at `headId`, or the newest checkpoint) meets
 * the others. One entry per fork checkpoint on the shown path, oldest first.
 */
export function forkPoints(tree: readonly TreeNode[], headId?: string): ForkPoint[] {
  if (!tree.length) return [];
  const byId = new Map(tree.map((n) => [n.id, n]));
  const children = childrenOf(tree);
  const newest = [...byId.keys()].sort().at(-1)!;
  const head = headId && byId.has(headId) ? newestLeaf(tree, headId) : newest;
  const path: string[] = [];
  for (let at: string | undefined = head; at; at = byId.get(at)?.parentId) path.push(at);
  path.reverse();
  const onPath = new Set(path);
  const points: ForkPoint[] = [];
  for (const id of path) {
    const kids = children.get(id) ?? [];
    if (kids.length < 2) continue;
    const leaves = kids.map((kid) => (onPath.has(kid) ? head : newestLeaf(tree, kid)));
    points.push({ forkId: id, leaves, headLeaf: head });
  }
  return points;
}
