/**
 * Anchoring a batch of verdicts: the self-consistency verdicts the worker pool gave are checked
 * against the chain. Each valid item's roots must be in the root history of the tree the item names,
 * read in one `getMultipleAccounts` for the batch's distinct trees. A root the chain does not hold
 * turns the verdict invalid (`unknown-root`), as do a tree with no account (`tree-not-found`) and an
 * account that is not a tree of the right program (`not-a-tree`); a valid verdict whose every root
 * was found says `anchored: true`. Invalid verdicts stay as they were, `anchored: false`.
 *
 * A tree state may come from the source's cache (a slot old, by default), and a root the chain added
 * since is not in it: before a verdict says `unknown-root` (or `tree-not-found`) on a state read before
 * the verification began, the tree is read again, once, and the item judged on what the chain holds
 * now. A batch costs one read more only when it holds such an item (a lie, or a root that new).
 */
import type { KindName } from '../kinds/index.js';
import type { Verdict } from '../verdict.js';
import { anchorable, claimsOf, type RootClaim } from './claims.js';
import type { AnchorSource } from './source.js';
import type { TreeState } from './tree-state.js';

/** The statuses anchoring adds. */
export type AnchorStatus = 'unknown-root' | 'tree-not-found' | 'not-a-tree';

function judge(claims: readonly RootClaim[], states: Map<string, TreeState>): { status: AnchorStatus; reason: string } | { slot: number } {
  let slot = -1;
  for (const c of claims) {
    const s = states.get(c.tree);
    if (!s || s.status === 'tree-not-found') return { status: 'tree-not-found', reason: `${c.field}: tree ${c.tree} has no account on chain` };
    if (s.status === 'not-a-tree') return { status: 'not-a-tree', reason: `${c.field}: ${c.tree} is not a ${c.family === 'spl' ? 'concurrent Merkle tree (spl-account-compression)' : 'Light state or address tree'}: ${s.reason}` };
    if (s.family !== c.family) return { status: 'not-a-tree', reason: `${c.field}: ${c.tree} is a ${s.kind} account, not the ${c.family === 'spl' ? 'spl-account-compression' : 'Light'} tree this proof needs` };
    if (!s.roots.has(c.root)) {
      return { status: 'unknown-root', reason: `${c.field === 'root' ? 'root' : `${c.field}: root`} ${c.rootText} is not in tree ${c.tree}'s root history on chain (the chain never held it, or no longer does)` };
    }
    slot = Math.max(slot, s.slot);
  }
  return { slot };
}

/** The trees a list of claims names (read ahead, while the pool verifies). */
export function treesOfClaims(claims: readonly (readonly RootClaim[] | null)[]): string[] {
  const trees = new Set<string>();
  for (const c of claims) for (const x of c ?? []) trees.add(x.tree);
  return [...trees];
}

/**
 * Anchor `verdicts` (one per item, in order) for `items` of `kind`; `prefetched`: tree states read
 * ahead (treesOfClaims), so the read overlaps the verification instead of following it.
 *
 * @example
 * const anchored = await anchorVerdicts('asset-proof', items, await v.verify('asset-proof', items), source);
 */
export async function anchorVerdicts(
  kind: KindName,
  items: readonly unknown[],
  verdicts: readonly Verdict[],
  source: AnchorSource,
  signal?: AbortSignal,
  prefetched?: Promise<Map<string, TreeState>>,
): Promise<Verdict[]> {
  if (!anchorable(kind)) return verdicts.map((v) => ({ ...v, anchored: false }));
  const since = Date.now();
  return anchorClaimed(
    verdicts.map((v, i) => (v.valid ? claimsOf(kind, items[i]) : null)),
    verdicts,
    source,
    signal,
    prefetched,
    since,
  );
}

/**
 * `anchorVerdicts` with each item's claims known already (`claims[i]`, read only for a valid
 * verdict): from the parsed items, or from the scan of the raw response (tape-claims.ts). `since`:
 * when the verification began (`Date.now()`); a state read before it is read again before a miss.
 *
 * @example
 * const anchored = await anchorClaimed(claims, verdicts, source);
 */
export async function anchorClaimed(
  claims: readonly (readonly RootClaim[] | null)[],
  verdicts: readonly Verdict[],
  source: AnchorSource,
  signal?: AbortSignal,
  prefetched?: Promise<Map<string, TreeState>>,
  since = Date.now(),
): Promise<Verdict[]> {
  const trees = new Set<string>();
  verdicts.forEach((v, i) => {
    if (v.valid) for (const x of claims[i] ?? []) trees.add(x.tree);
  });
  const got = prefetched ? await prefetched : new Map<string, TreeState>();
  const missing = [...trees].filter((t) => !got.has(t));
  const states = missing.length ? new Map([...got, ...(await source.trees(missing, signal))]) : got;
  // Items that share one claim object (tape-claims.ts) are judged once.
  const judged = new Map<RootClaim, ReturnType<typeof judge>>();
  const judgeAll = (): ReturnType<typeof judge>[] =>
    verdicts.map((v, i) => {
      const c = v.valid ? claims[i] : null;
      if (!c || c.length === 0) return { slot: -1 };
      let j = c.length === 1 ? judged.get(c[0]!) : undefined;
      if (!j) {
        j = judge(c as RootClaim[], states);
        if (c.length === 1) judged.set(c[0]!, j);
      }
      return j;
    });
  let results = judgeAll();
  // A miss on a state read before this verification began may only mean the state is older than the
  // root: those trees are read again, once, and every item judged on what the chain says now.
  const stale = new Set<string>();
  results.forEach((j, i) => {
    if (!('status' in j) || j.status === 'not-a-tree') return;
    for (const c of claims[i]!) {
      const at = source.readAt(c.tree);
      if (at !== undefined && at < since) stale.add(c.tree);
    }
  });
  if (stale.size > 0) {
    for (const [tree, state] of await source.reread([...stale], signal)) states.set(tree, state);
    judged.clear();
    results = judgeAll();
  }
  return verdicts.map((v, i) => {
    const c = v.valid ? claims[i] : null;
    if (!v.valid || !c || c.length === 0) return { ...v, anchored: false };
    const j = results[i]!;
    if ('status' in j) return { ...v, valid: false, status: j.status, reason: j.reason, anchored: false };
    return { ...v, anchored: true, ...(j.slot >= 0 ? { anchorSlot: j.slot } : {}) };
  });
}
