/**
 * Reader for an spl-account-compression concurrent Merkle tree account (the account a Bubblegum
 * tree lives in). It gives what an offline verifier needs from the chain: the tree's depth and
 * buffer size, the current root and every root still in the change-log buffer (any of them is
 * accepted on chain), the rightmost proof, and the canopy that lets a transaction carry a truncated
 * proof. Layout (all little-endian), after the 56-byte header:
 *
 *   [0] account type (1 = concurrent Merkle tree)   [1] header version (0 = V1)
 *   [2..6] maxBufferSize u32   [6..10] maxDepth u32   [10..42] authority   [42..50] creationSlot u64
 *   [50] isBatchInitialized   [51..56] padding
 *   sequenceNumber u64, activeIndex u64, bufferSize u64,
 *   changeLogs[maxBufferSize] { root[32], path[maxDepth][32], index u32, _pad u32 },
 *   rightmostProof { proof[maxDepth][32], leaf[32], index u32, _pad u32 },
 *   canopy: (2^(N+1) − 2) nodes of 32 bytes, heap order without the root.
 */
import { encodeBase58 } from '../../solana/index.js';
import { InputError } from '../../errors/index.js';
import { keccakPathRoot, equalBytes } from '../../crypto/index.js';
import { emptyNode } from './empty-node.js';
import { bad, ok, type Verdict } from '../verdict.js';

/** What `parseTreeAccount` returns; byte fields are views into a copy of the account data. */
export interface TreeAccount {
  maxDepth: number;
  maxBufferSize: number;
  canopyDepth: number;
  sequenceNumber: bigint;
  /** Index of the newest entry in the change-log ring buffer. */
  activeIndex: number;
  /** Number of valid change-log entries (≤ maxBufferSize). */
  bufferSize: number;
  /** `changeLogs[activeIndex].root`. */
  currentRoot: Uint8Array;
  /** The roots the chain still accepts, newest first (`bufferSize` entries of the ring buffer). */
  roots: Uint8Array[];
  /** Canopy nodes, 32 bytes each, `canopy[(nodeIndex − 2)·32 …]` (heap order, root excluded). */
  canopy: Uint8Array;
  authority: Uint8Array;
  creationSlot: bigint;
  isBatchInitialized: boolean;
  rightmostProof: { proof: Uint8Array; leaf: Uint8Array; index: number };
}

const HEADER = 56;
const TREE_FIELDS = 24; // sequenceNumber, activeIndex, bufferSize
// spl-account-compression only accepts these (maxDepth, maxBufferSize) pairs; any other is not a tree.
const MAX_DEPTH = 30;
const MAX_BUFFER = 2048;

function fail(field: string, message: string, got?: unknown): never {
  throw new InputError(field, message, { got });
}

/**
 * Parse the raw data of a concurrent Merkle tree account.
 *
 * @example
 * const info = await rpc.getAccountInfo(tree, { encoding: 'base64' });
 * const t = parseTreeAccount(Buffer.from(info.data[0], 'base64'));
 * verifyAssetProof(proof, { canopy: t.canopy, acceptedRoots: t.roots });
 */
export function parseTreeAccount(bytes: Uint8Array): TreeAccount {
  if (!(bytes instanceof Uint8Array)) fail('bytes', 'expected Uint8Array', typeof bytes);
  if (bytes.length < HEADER + TREE_FIELDS) fail('bytes', `expected at least ${HEADER + TREE_FIELDS} bytes, got ${bytes.length}`, bytes.length);
  const data = bytes.slice(); // own copy: the returned views must not change under the caller
  const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
  if (data[0] !== 1) fail('accountType', `expected 1 (concurrent Merkle tree), got ${data[0]}`, data[0]);
  if (data[1] !== 0) fail('version', `expected header version 0, got ${data[1]}`, data[1]);
  const maxBufferSize = dv.getUint32(2, true);
  const maxDepth = dv.getUint32(6, true);
  if (maxDepth < 1 || maxDepth > MAX_DEPTH) fail('maxDepth', `expected 1..${MAX_DEPTH}, got ${maxDepth}`, maxDepth);
  if (maxBufferSize < 1 || maxBufferSize > MAX_BUFFER) fail('maxBufferSize', `expected 1..${MAX_BUFFER}, got ${maxBufferSize}`, maxBufferSize);
  const authority = data.subarray(10, 42);
  const creationSlot = dv.getBigUint64(42, true);
  const isBatchInitialized = data[50] !== 0;

  const sequenceNumber = dv.getBigUint64(HEADER, true);
  const activeIndex64 = dv.getBigUint64(HEADER + 8, true);
  const bufferSize64 = dv.getBigUint64(HEADER + 16, true);
  if (activeIndex64 >= BigInt(maxBufferSize)) fail('activeIndex', `expected < maxBufferSize ${maxBufferSize}, got ${activeIndex64}`, activeIndex64.toString());
  if (bufferSize64 > BigInt(maxBufferSize)) fail('bufferSize', `expected ≤ maxBufferSize ${maxBufferSize}, got ${bufferSize64}`, bufferSize64.toString());
  const activeIndex = Number(activeIndex64);
  const bufferSize = Number(bufferSize64);

  const changeLogSize = 32 + 32 * maxDepth + 8;
  const changeLogsAt = HEADER + TREE_FIELDS;
  const rightmostAt = changeLogsAt + maxBufferSize * changeLogSize;
  const canopyAt = rightmostAt + 32 * maxDepth + 32 + 8;
  if (data.length < canopyAt) fail('bytes', `expected at least ${canopyAt} bytes for depth ${maxDepth} and buffer ${maxBufferSize}, got ${data.length}`, data.length);

  const canopy = data.subarray(canopyAt);
  const canopyNodes = canopy.length / 32;
  // (2^(N+1) − 2) nodes ⇔ canopyNodes + 2 is a power of two; N = log2(canopyNodes + 2) − 1
  const n2 = canopyNodes + 2;
  if (!Number.isInteger(canopyNodes) || (n2 & (n2 - 1)) !== 0) {
    fail('canopy', `expected (2^(N+1) − 2)·32 bytes after the tree, got ${canopy.length}`, canopy.length);
  }
  const canopyDepth = Math.log2(n2) - 1;
  if (canopyDepth > maxDepth) fail('canopy', `canopy depth ${canopyDepth} exceeds maxDepth ${maxDepth}`, canopyDepth);

  const rootAt = (slot: number) => changeLogsAt + slot * changeLogSize;
  const currentRoot = data.subarray(rootAt(activeIndex), rootAt(activeIndex) + 32);
  // The ring buffer holds `bufferSize` entries ending at activeIndex (an empty tree has bufferSize 0
  // yet still a root at activeIndex: the initial empty root).
  const roots: Uint8Array[] = [];
  const count = Math.max(bufferSize, 1);
  for (let k = 0; k < count; k++) {
    const slot = (activeIndex - k + maxBufferSize) % maxBufferSize;
    roots.push(data.subarray(rootAt(slot), rootAt(slot) + 32));
  }

  const rightmostProof = {
    proof: data.subarray(rightmostAt, rightmostAt + 32 * maxDepth),
    leaf: data.subarray(rightmostAt + 32 * maxDepth, rightmostAt + 32 * maxDepth + 32),
    index: dv.getUint32(rightmostAt + 32 * maxDepth + 32, true),
  };
  return {
    maxDepth,
    maxBufferSize,
    canopyDepth,
    sequenceNumber,
    activeIndex,
    bufferSize,
    currentRoot,
    roots,
    canopy,
    authority,
    creationSlot,
    isBatchInitialized,
    rightmostProof,
  };
}

/**
 * Self-check of a parsed tree account: the rightmost proof (the path of the last appended leaf,
 * `rightmostProof.index − 1`) must walk up to the current root. An empty tree (index 0) must hold
 * the empty root of its depth. Catches a corrupted or mis-parsed account before its roots are
 * trusted.
 *
 * @example
 * const v = verifyTreeAccount(parseTreeAccount(data)); // { valid: true, computedRoot: '…' }
 */
export function verifyTreeAccount(t: TreeAccount): Verdict {
  const { proof, leaf, index } = t.rightmostProof;
  const root = index === 0 ? emptyNode(t.maxDepth) : keccakPathRoot(leaf, proof, index - 1);
  const computedRoot = encodeBase58(root);
  if (!equalBytes(root, t.currentRoot)) {
    return bad(`rightmost proof (leaf ${index - 1}) computes root ${computedRoot}, but the current root is ${encodeBase58(t.currentRoot)}`, undefined, { computedRoot });
  }
  return ok(undefined, { computedRoot });
}

/** Fields for `encodeTreeAccount`; omitted ones default to an empty tree's values. */
export interface TreeAccountInit {
  maxDepth: number;
  maxBufferSize: number;
  canopyDepth?: number;
  authority?: Uint8Array;
  creationSlot?: bigint;
  sequenceNumber?: bigint;
  /** Change-log roots, newest first; written so that `roots[0]` sits at `activeIndex`. */
  roots?: Uint8Array[];
  activeIndex?: number;
  canopy?: Uint8Array;
  rightmostProof?: { proof: Uint8Array; leaf: Uint8Array; index: number };
}

/**
 * The inverse of `parseTreeAccount` for the fields it reads (change-log paths are left zero): lets
 * a local chain or a test serve tree-account bytes that real clients can parse.
 *
 * @example
 * const bytes = encodeTreeAccount({ maxDepth: 14, maxBufferSize: 64, canopyDepth: 9, roots: [root], canopy });
 * parseTreeAccount(bytes).currentRoot; // root
 */
export function encodeTreeAccount(init: TreeAccountInit): Uint8Array {
  const { maxDepth, maxBufferSize } = init;
  if (!Number.isInteger(maxDepth) || maxDepth < 1 || maxDepth > MAX_DEPTH) fail('maxDepth', `expected 1..${MAX_DEPTH}, got ${String(maxDepth)}`);
  if (!Number.isInteger(maxBufferSize) || maxBufferSize < 1 || maxBufferSize > MAX_BUFFER) fail('maxBufferSize', `expected 1..${MAX_BUFFER}, got ${String(maxBufferSize)}`);
  const canopyDepth = init.canopyDepth ?? 0;
  if (!Number.isInteger(canopyDepth) || canopyDepth < 0 || canopyDepth > maxDepth) fail('canopyDepth', `expected 0..${maxDepth}, got ${String(canopyDepth)}`);
  const canopyBytes = 32 * (2 ** (canopyDepth + 1) - 2);
  if (init.canopy && init.canopy.length !== canopyBytes) fail('canopy', `expected ${canopyBytes} bytes for canopy depth ${canopyDepth}, got ${init.canopy.length}`);
  const roots = init.roots ?? [emptyNode(maxDepth)];
  if (roots.length < 1 || roots.length > maxBufferSize) fail('roots', `expected 1..${maxBufferSize} roots, got ${roots.length}`);
  const activeIndex = init.activeIndex ?? roots.length - 1;
  if (!Number.isInteger(activeIndex) || activeIndex < 0 || activeIndex >= maxBufferSize) fail('activeIndex', `expected 0..${maxBufferSize - 1}, got ${String(activeIndex)}`);

  const changeLogSize = 32 + 32 * maxDepth + 8;
  const changeLogsAt = HEADER + TREE_FIELDS;
  const rightmostAt = changeLogsAt + maxBufferSize * changeLogSize;
  const canopyAt = rightmostAt + 32 * maxDepth + 32 + 8;
  const out = new Uint8Array(canopyAt + canopyBytes);
  const dv = new DataView(out.buffer);
  out[0] = 1;
  out[1] = 0;
  dv.setUint32(2, maxBufferSize, true);
  dv.setUint32(6, maxDepth, true);
  if (init.authority) out.set(init.authority.subarray(0, 32), 10);
  dv.setBigUint64(42, init.creationSlot ?? 0n, true);
  dv.setBigUint64(HEADER, init.sequenceNumber ?? BigInt(roots.length - 1), true);
  dv.setBigUint64(HEADER + 8, BigInt(activeIndex), true);
  dv.setBigUint64(HEADER + 16, BigInt(roots.length), true);
  roots.forEach((r, k) => {
    const slot = (activeIndex - k + maxBufferSize) % maxBufferSize;
    out.set(r.subarray(0, 32), changeLogsAt + slot * changeLogSize);
  });
  if (init.rightmostProof) {
    out.set(init.rightmostProof.proof.subarray(0, 32 * maxDepth), rightmostAt);
    out.set(init.rightmostProof.leaf.subarray(0, 32), rightmostAt + 32 * maxDepth);
    dv.setUint32(rightmostAt + 32 * maxDepth + 32, init.rightmostProof.index, true);
  } else {
    for (let l = 0; l < maxDepth; l++) out.set(emptyNode(l), rightmostAt + 32 * l);
  }
  if (init.canopy) out.set(init.canopy, canopyAt);
  return out;
}
