/**
 * The devnet's Merkle trees: an incremental, sparse "concurrent" tree (any 2-to-1 hash: keccak for
 * compressed NFTs, Poseidon for compressed accounts) with a change-log of recent roots and a canopy,
 * and a Light-style indexed tree (v1 or v2) for new-address non-inclusion proofs built on top of it.
 * Depths go to 40 (a v2 address tree): positions are plain integers below 2^53, never 32-bit shifts.
 *
 * Only non-empty nodes are stored (one Map per level); an empty subtree is read from a table of
 * cached zero nodes. An update therefore costs exactly `depth` hashes, whatever the height: a
 * height-26 Poseidon tree does not pay for its 2^26 empty leaves.
 */
import { CairnError, ErrorCodes, InputError } from '../../errors/index.js';

/** A 2-to-1 node hash over 32-byte nodes. */
export type Hash2 = (left: Uint8Array, right: Uint8Array) => Uint8Array;

export interface ConcurrentMerkleTreeOptions {
  /** Number of levels below the root (14 for a typical cNFT tree, 26 v1 state, 32 v2 state, 40 v2 address). */
  depth: number;
  hash: Hash2;
  /** How many recent roots the change log keeps (on chain: maxBufferSize / root history). */
  maxBufferSize?: number;
  /** Top levels kept "on chain" (only affects `canopy()`); 0 by default. */
  canopyDepth?: number;
  /** The empty leaf; 32 zero bytes by default. */
  zeroLeaf?: Uint8Array;
}

/** One entry of the change log: the root after change number `seq`. */
export interface RootEntry {
  seq: number;
  root: Uint8Array;
}

export interface ConcurrentMerkleTree {
  readonly depth: number;
  readonly maxBufferSize: number;
  readonly canopyDepth: number;
  /** Index one past the right-most leaf ever written (the next `append` index). */
  readonly size: number;
  /** Number of changes applied so far (0 for a fresh tree). */
  readonly seq: number;
  root(): Uint8Array;
  /** Append at `size`; returns where it went and the new sequence number. */
  append(leaf: Uint8Array): { index: number; seq: number };
  /** Overwrite the leaf at `index` (appending gaps are allowed: empty leaves stay empty). */
  set(index: number, leaf: Uint8Array): { seq: number };
  leaf(index: number): Uint8Array;
  /** Full-depth sibling path, ordered leaf → root. */
  proof(index: number): Uint8Array[];
  /** The change log, oldest first; at most `maxBufferSize` entries. */
  recentRoots(): readonly RootEntry[];
  /** The sequence number of `root` if it is still in the change log, else -1. */
  rootSeq(root: Uint8Array): number;
  /** Empty node at `level` (0 = leaf). */
  zero(level: number): Uint8Array;
  /** Canopy bytes: `(2^(N+1) − 2) · 32`, heap order without the root (`canopy[nodeIndex − 2]`). */
  canopy(): Uint8Array;
}

/** Deepest concurrent tree: a v2 (batched) state tree. Only indexed (address) trees go deeper. */
const MAX_DEPTH = 32;
/** Deepest indexed tree: a v2 (batched) address tree. */
const MAX_INDEXED_DEPTH = 40;

function checkNode(name: string, v: Uint8Array): void {
  if (!(v instanceof Uint8Array) || v.length !== 32) {
    throw new InputError(name, `expected 32 bytes, got ${v instanceof Uint8Array ? v.length : typeof v}`);
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Create an empty sparse concurrent Merkle tree.
 *
 * @example
 * const tree = createConcurrentMerkleTree({ depth: 14, hash: (l, r) => keccak256(concat(l, r)) });
 * const { index } = tree.append(leaf);
 * const path = tree.proof(index); // 14 siblings, leaf → root
 */
export function createConcurrentMerkleTree(opts: ConcurrentMerkleTreeOptions): ConcurrentMerkleTree {
  return createSparseTree(opts, MAX_DEPTH);
}

function createSparseTree(opts: ConcurrentMerkleTreeOptions, maxDepth: number): ConcurrentMerkleTree {
  const { depth, hash } = opts;
  // 2^40 leaves still index exactly as a double; v2 address trees are 40 deep.
  if (!Number.isInteger(depth) || depth < 1 || depth > maxDepth) throw new InputError('depth', `expected an integer 1..${maxDepth}, got ${depth}`);
  const maxBufferSize = opts.maxBufferSize ?? 64;
  if (!Number.isInteger(maxBufferSize) || maxBufferSize < 1) throw new InputError('maxBufferSize', `expected a positive integer, got ${maxBufferSize}`);
  const canopyDepth = opts.canopyDepth ?? 0;
  if (!Number.isInteger(canopyDepth) || canopyDepth < 0 || canopyDepth >= depth || canopyDepth > 20) {
    throw new InputError('canopyDepth', `expected an integer 0..min(depth-1, 20), got ${canopyDepth}`);
  }
  const zeros: Uint8Array[] = [opts.zeroLeaf ?? new Uint8Array(32)];
  for (let i = 1; i <= depth; i++) zeros.push(hash(zeros[i - 1], zeros[i - 1]));
  // levels[l] holds the non-empty nodes of level l (0 = leaves, depth = root), keyed by position.
  const levels: Map<number, Uint8Array>[] = Array.from({ length: depth + 1 }, () => new Map());
  const capacity = 2 ** depth;
  let size = 0;
  let seq = 0;
  const log: RootEntry[] = [{ seq: 0, root: zeros[depth] }];

  const node = (level: number, pos: number): Uint8Array => levels[level].get(pos) ?? zeros[level];

  function write(index: number, leaf: Uint8Array): void {
    let cur = leaf;
    let pos = index;
    levels[0].set(pos, cur);
    for (let l = 0; l < depth; l++) {
      const right = pos % 2 === 1;
      const sib = node(l, right ? pos - 1 : pos + 1);
      cur = right ? hash(sib, cur) : hash(cur, sib);
      pos = Math.floor(pos / 2);
      levels[l + 1].set(pos, cur);
    }
    seq++;
    log.push({ seq, root: cur });
    if (log.length > maxBufferSize) log.shift();
  }

  function checkIndex(index: number, name = 'index'): void {
    if (!Number.isInteger(index) || index < 0 || index >= capacity) {
      throw new InputError(name, `expected an integer 0..${capacity - 1}, got ${index}`);
    }
  }

  return {
    depth,
    maxBufferSize,
    canopyDepth,
    get size() {
      return size;
    },
    get seq() {
      return seq;
    },
    root: () => node(depth, 0),
    append(leaf) {
      checkNode('leaf', leaf);
      // Not one field's fault: the caller's tree has no room left, so the field is the tree itself.
      if (size >= capacity) throw new CairnError(ErrorCodes.INPUT_INVALID, `tree is full (${capacity} leaves)`, { context: { field: 'tree' } });
      const index = size;
      write(index, leaf);
      size = index + 1;
      return { index, seq };
    },
    set(index, leaf) {
      checkIndex(index);
      checkNode('leaf', leaf);
      write(index, leaf);
      if (index >= size) size = index + 1;
      return { seq };
    },
    leaf(index) {
      checkIndex(index);
      return node(0, index);
    },
    proof(index) {
      checkIndex(index);
      const out: Uint8Array[] = [];
      let pos = index;
      for (let l = 0; l < depth; l++) {
        out.push(node(l, pos % 2 === 1 ? pos - 1 : pos + 1));
        pos = Math.floor(pos / 2);
      }
      return out;
    },
    recentRoots: () => log,
    rootSeq(root) {
      for (let i = log.length - 1; i >= 0; i--) if (sameBytes(log[i].root, root)) return log[i].seq;
      return -1;
    },
    zero(level) {
      if (!Number.isInteger(level) || level < 0 || level > depth) throw new InputError('level', `expected 0..${depth}, got ${level}`);
      return zeros[level];
    },
    canopy() {
      const count = 2 ** (canopyDepth + 1) - 2;
      const out = new Uint8Array(count * 32);
      for (let k = 2; k < count + 2; k++) {
        const h = Math.floor(Math.log2(k)); // distance from the root
        out.set(node(depth - h, k - 2 ** h), (k - 2) * 32);
      }
      return out;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Indexed Merkle tree (Light protocol v1 and v2 address trees)
// ---------------------------------------------------------------------------------------------

/** 2^248 − 1: the largest value an address may take, and the sentinel element of every address tree. */
export const HIGHEST_ADDRESS = (1n << 248n) - 1n;

/** Leaf hash of a v1 indexed element: Poseidon(value, nextIndex as 32-byte BE, nextValue). */
export type IndexedLeafHash = (value: Uint8Array, nextIndex: Uint8Array, nextValue: Uint8Array) => Uint8Array;

export interface IndexedElement {
  value: bigint;
  nextIndex: number;
  nextValue: bigint;
}

export interface NonInclusionProof {
  /** The queried value. */
  value: bigint;
  lowElementIndex: number;
  lowElement: IndexedElement;
  /** Sibling path of the low element's leaf, leaf → root. */
  proof: Uint8Array[];
  root: Uint8Array;
  rootSeq: number;
}

export interface IndexedMerkleTree {
  readonly tree: ConcurrentMerkleTree;
  /** Number of elements (including the two initial ones). */
  readonly length: number;
  element(index: number): IndexedElement;
  has(value: bigint): boolean;
  /** Proof that `value` is absent. Throws InputError (`address`) when it is present or out of range. */
  nonInclusionProof(value: bigint): NonInclusionProof;
  /** Insert `value`: updates the low element and appends the new one (two changes). */
  insert(value: bigint): { index: number; seq: number };
}

/** Big-endian 32 bytes of a non-negative integer below 2^256. */
export function toBytes32(v: bigint): Uint8Array {
  // Every caller passes a checked address, a slot or a leaf index: a value outside 32 bytes is a bug.
  if (v < 0n || v >= 1n << 256n) throw new CairnError(ErrorCodes.INTERNAL, `value out of range for 32 bytes: ${v}`, { context: { invariant: 'toBytes32 of a value in 0..2^256-1' } });
  const out = new Uint8Array(32);
  let x = v;
  for (let i = 31; i >= 0 && x > 0n; i--) {
    out[i] = Number(x & 0xffn);
    x >>= 8n;
  }
  return out;
}

export function fromBytes32(b: Uint8Array): bigint {
  let v = 0n;
  for (const x of b) v = (v << 8n) | BigInt(x);
  return v;
}

/**
 * Create an indexed Merkle tree initialised as Light's address trees are. v1 (the default): element
 * 0 = (0 → 1, HIGHEST) and element 1 = (HIGHEST → 0, 0); like the on-chain initialisation it takes
 * three changes (append 0, update 0, append HIGHEST), so a fresh tree reports `rootSeq` 3. v2
 * (`init: 'v2'`, batched address trees): one element, (0 → 0, HIGHEST), one change. A v2 leaf does
 * not hash `nextIndex`, so the sentinel element v1 needs for it is not there.
 *
 * @example
 * const t = createIndexedMerkleTree({ height: 26, hash2: poseidon2, leafHash: poseidon3 });
 * const p = t.nonInclusionProof(addr); // lowElement brackets addr
 * t.insert(addr);
 */
export function createIndexedMerkleTree(opts: {
  height: number;
  hash2: Hash2;
  leafHash: IndexedLeafHash;
  rootHistory?: number;
  init?: 'v1' | 'v2';
}): IndexedMerkleTree {
  const tree = createSparseTree({ depth: opts.height, hash: opts.hash2, maxBufferSize: opts.rootHistory ?? 2400 }, MAX_INDEXED_DEPTH);
  const elements: IndexedElement[] = [];
  // Values in ascending order with their element index, for the low-element search.
  const sorted: { value: bigint; index: number }[] = [];

  const leafOf = (e: IndexedElement): Uint8Array => opts.leafHash(toBytes32(e.value), toBytes32(BigInt(e.nextIndex)), toBytes32(e.nextValue));

  /** Position in `sorted` of the largest value strictly below `v`. */
  function lowPos(v: bigint): number {
    let lo = 0;
    let hi = sorted.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (sorted[mid].value < v) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  // Initialisation, change by change, as the on-chain program does it.
  if (opts.init === 'v2') {
    elements.push({ value: 0n, nextIndex: 0, nextValue: HIGHEST_ADDRESS });
    sorted.push({ value: 0n, index: 0 });
    tree.append(leafOf(elements[0]));
  } else {
    elements.push({ value: 0n, nextIndex: 0, nextValue: 0n });
    sorted.push({ value: 0n, index: 0 });
    tree.append(leafOf(elements[0]));
    doInsert(HIGHEST_ADDRESS);
  }

  function doInsert(v: bigint): { index: number; seq: number } {
    const p = lowPos(v);
    const lowIndex = sorted[p].index;
    const low = elements[lowIndex];
    const index = elements.length;
    const el: IndexedElement = { value: v, nextIndex: low.nextIndex, nextValue: low.nextValue };
    low.nextIndex = index;
    low.nextValue = v;
    tree.set(lowIndex, leafOf(low));
    elements.push(el);
    sorted.splice(p + 1, 0, { value: v, index });
    const { seq } = tree.append(leafOf(el));
    return { index, seq };
  }

  function checkValue(v: bigint): void {
    if (typeof v !== 'bigint' || v <= 0n || v >= HIGHEST_ADDRESS) {
      throw new InputError('address', `expected a value in (0, 2^248 − 1), got ${typeof v === 'bigint' ? v.toString(16) : typeof v}`);
    }
  }

  function has(v: bigint): boolean {
    const p = lowPos(v);
    return sorted[p + 1]?.value === v || sorted[p].value === v;
  }

  return {
    tree,
    get length() {
      return elements.length;
    },
    element(index) {
      const e = elements[index];
      if (!e) throw new InputError('index', `no element ${index}`);
      return { ...e };
    },
    has,
    nonInclusionProof(v) {
      checkValue(v);
      if (has(v)) throw new InputError('address', `${v.toString(16)} already exists in the tree`);
      const lowIndex = sorted[lowPos(v)].index;
      return {
        value: v,
        lowElementIndex: lowIndex,
        lowElement: { ...elements[lowIndex] },
        proof: tree.proof(lowIndex),
        root: tree.root(),
        rootSeq: tree.seq,
      };
    },
    insert(v) {
      checkValue(v);
      if (has(v)) throw new InputError('address', `${v.toString(16)} already exists in the tree`);
      return doInsert(v);
    },
  };
}
