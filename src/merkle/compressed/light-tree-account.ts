/**
 * Readers and writers for Light Protocol's tree accounts, the accounts whose root history the Light
 * system program checks every validity proof against:
 *
 * - v1 (account-compression, `StateMerkleTreeAccount` / `AddressMerkleTreeAccount`): an 8-byte Anchor
 *   discriminator, the 216-byte `MerkleTreeMetadata` (access 96, rollover 56, associated queue 32,
 *   next tree 32), then light-concurrent-merkle-tree's zero-copy tree (repr(C), usize = u64):
 *     height, canopy_depth, next_index, sequence_number, rightmost_leaf[32]            (64)
 *     filled_subtrees {capacity, length}, changelog {capacity, length, first, last},
 *     roots {capacity, length, first, last}, canopy {capacity, length}                 (96)
 *     filled_subtrees[height][32], changelog[changelog capacity] ChangelogEntry<height>
 *     ({ path: [Option<[u8;32]>; height] padded to 8, index u64 }), roots[roots capacity][32],
 *     canopy[(2^(N+1) − 2)][32]; an address tree then holds its indexed change log.
 *   The root with sequence number s sits at roots[s mod capacity] (what Light calls its root index).
 * - v2 (light-batched-merkle-tree, `BatchedMerkleTreeAccount`): discriminator `BatchMta`, the
 *   552-byte `BatchedMerkleTreeMetadata` (tree_type u64, MerkleTreeMetadata, sequence_number,
 *   next_index, height u32, root_history_capacity u32, capacity, QueueBatches 248, hashed_pubkey 32,
 *   nullifier_next_index), then the root history as a zero-copy cyclic vec (current_index u64,
 *   length u64, capacity u64, capacity × 32 bytes), then the input queue's bloom filters and hash
 *   chains. A push writes at current_index and advances it, so the newest root is at current − 1.
 *
 * Only what a verifier needs is read (kind, height, the roots still accepted); what is written is the
 * whole account in those layouts, so other readers of the bytes find everything where the program
 * puts it.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { InputError } from '../../errors/index.js';

export type LightTreeKind = 'light-v1-state' | 'light-v1-address' | 'light-v2-state' | 'light-v2-address';

/** What the verifier reads from a Light tree account. */
export interface LightTreeAccount {
  kind: LightTreeKind;
  height: number;
  sequenceNumber: bigint;
  nextIndex: bigint;
  /** The roots the program still accepts, newest first. */
  roots: Uint8Array[];
  /** Capacity of the root history (a root's index on chain is its sequence number modulo this). */
  rootHistoryCapacity: number;
}

const anchorDisc = (name: string): Uint8Array => sha256(new TextEncoder().encode(`account:${name}`)).subarray(0, 8);
const STATE_TREE_V1_DISCRIMINATOR = anchorDisc('StateMerkleTreeAccount');
const ADDRESS_TREE_V1_DISCRIMINATOR = anchorDisc('AddressMerkleTreeAccount');
const BATCHED_TREE_DISCRIMINATOR = new TextEncoder().encode('BatchMta');

const META = 216; // MerkleTreeMetadata
const V1_TREE_AT = 8 + META;
const CMT_FIXED = 160; // the concurrent tree's fixed part (see the header comment)
const V2_META = 552; // BatchedMerkleTreeMetadata
const V2_ROOTS_AT = 8 + V2_META;
/** TreeType values the batched metadata stores. */
const TREE_TYPE_STATE_V2 = 3n;
const TREE_TYPE_ADDRESS_V2 = 4n;
const INDEXED_CHANGELOG_ENTRY = 80 + 16 * 32 + 8; // RawIndexedElement<usize>, proof[16], changelog_index

const sameBytes = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((x, i) => x === b[i]);
const changelogEntrySize = (height: number): number => Math.ceil((33 * height) / 8) * 8 + 8;

function fail(field: string, message: string, got?: unknown): never {
  throw new InputError(field, message, { got });
}

/** Which Light tree account `data` is by its discriminator, or null for any other account. */
export function lightTreeKindOf(data: Uint8Array): 'v1-state' | 'v1-address' | 'v2' | null {
  if (data.length < 8) return null;
  const d = data.subarray(0, 8);
  if (sameBytes(d, STATE_TREE_V1_DISCRIMINATOR)) return 'v1-state';
  if (sameBytes(d, ADDRESS_TREE_V1_DISCRIMINATOR)) return 'v1-address';
  if (sameBytes(d, BATCHED_TREE_DISCRIMINATOR)) return 'v2';
  return null;
}

/**
 * Parse a Light tree account (v1 state or address, v2 batched state or address).
 *
 * @example
 * const t = parseLightTreeAccount(bytes); // { kind: 'light-v1-state', height: 26, roots: [...] }
 */
export function parseLightTreeAccount(data: Uint8Array): LightTreeAccount {
  if (!(data instanceof Uint8Array)) fail('bytes', 'expected Uint8Array', typeof data);
  const which = lightTreeKindOf(data);
  if (which === null) fail('discriminator', 'not a Light state or address tree account (unknown discriminator)');
  const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const u64 = (at: number): bigint => dv.getBigUint64(at, true);
  const num = (at: number, field: string, max: number): number => {
    const v = u64(at);
    if (v > BigInt(max)) fail(field, `expected ≤ ${max}, got ${v}`, v.toString());
    return Number(v);
  };
  if (which === 'v2') {
    if (data.length < V2_ROOTS_AT + 24) fail('bytes', `expected at least ${V2_ROOTS_AT + 24} bytes for a batched tree, got ${data.length}`, data.length);
    const treeType = u64(8);
    if (treeType !== TREE_TYPE_STATE_V2 && treeType !== TREE_TYPE_ADDRESS_V2) fail('treeType', `expected 3 (batched state) or 4 (batched address), got ${treeType}`, treeType.toString());
    const base = 8 + 8 + META;
    const sequenceNumber = u64(base);
    const nextIndex = u64(base + 8);
    const height = dv.getUint32(base + 16, true);
    const rootCap = dv.getUint32(base + 20, true);
    const current = num(V2_ROOTS_AT, 'rootHistory.currentIndex', 1 << 20);
    const length = num(V2_ROOTS_AT + 8, 'rootHistory.length', 1 << 20);
    const capacity = num(V2_ROOTS_AT + 16, 'rootHistory.capacity', 1 << 20);
    if (capacity !== rootCap || capacity === 0) fail('rootHistory.capacity', `expected the metadata's ${rootCap}, got ${capacity}`, capacity);
    if (length > capacity || current >= capacity) fail('rootHistory', `length ${length} / current ${current} out of capacity ${capacity}`);
    const at = V2_ROOTS_AT + 24;
    if (data.length < at + capacity * 32) fail('bytes', `expected at least ${at + capacity * 32} bytes for ${capacity} roots, got ${data.length}`, data.length);
    const roots: Uint8Array[] = [];
    for (let k = 1; k <= length; k++) {
      const slot = (current - k + capacity) % capacity;
      roots.push(data.slice(at + slot * 32, at + slot * 32 + 32));
    }
    return { kind: treeType === TREE_TYPE_STATE_V2 ? 'light-v2-state' : 'light-v2-address', height, sequenceNumber, nextIndex, roots, rootHistoryCapacity: capacity };
  }
  const t = V1_TREE_AT;
  if (data.length < t + CMT_FIXED) fail('bytes', `expected at least ${t + CMT_FIXED} bytes for a v1 tree, got ${data.length}`, data.length);
  const height = num(t, 'height', 64);
  const canopyDepth = num(t + 8, 'canopyDepth', height);
  const nextIndex = u64(t + 16);
  const sequenceNumber = u64(t + 24);
  const changelogCap = num(t + 80, 'changelog.capacity', 1 << 20);
  const rootsCap = num(t + 112, 'roots.capacity', 1 << 20);
  const rootsLen = num(t + 120, 'roots.length', rootsCap);
  const rootsLast = num(t + 136, 'roots.lastIndex', Math.max(rootsCap - 1, 0));
  if (rootsCap === 0 || rootsLen === 0) fail('roots', 'a v1 tree holds at least one root');
  const rootsAt = t + CMT_FIXED + 32 * height + changelogCap * changelogEntrySize(height);
  const end = rootsAt + 32 * rootsCap + 32 * (2 ** (canopyDepth + 1) - 2);
  if (data.length < end) fail('bytes', `expected at least ${end} bytes for height ${height}, ${changelogCap} change-log entries, ${rootsCap} roots, canopy ${canopyDepth}; got ${data.length}`, data.length);
  const roots: Uint8Array[] = [];
  for (let k = 0; k < rootsLen; k++) {
    const slot = (rootsLast - k + rootsCap) % rootsCap;
    roots.push(data.slice(rootsAt + slot * 32, rootsAt + slot * 32 + 32));
  }
  return { kind: which === 'v1-state' ? 'light-v1-state' : 'light-v1-address', height, sequenceNumber, nextIndex, roots, rootHistoryCapacity: rootsCap };
}

/** What `encodeLightTreeAccount` writes. */
export interface LightTreeInit {
  kind: LightTreeKind;
  height: number;
  /** Roots with their sequence numbers (any order); each goes to `seq mod rootHistoryCapacity`. */
  roots: { seq: number; root: Uint8Array }[];
  rootHistoryCapacity: number;
  sequenceNumber: number;
  nextIndex: number;
  /** v1: change-log capacity (default 1,400, the public trees'); entries are written empty. */
  changelogCapacity?: number;
  /** v1: canopy depth (default 10) and its nodes, heap order without the root. */
  canopyDepth?: number;
  canopy?: Uint8Array;
  rightmostLeaf?: Uint8Array;
  /** v1 filled subtrees (height × 32 bytes) when known. */
  filledSubtrees?: Uint8Array;
  owner?: Uint8Array;
  associatedQueue?: Uint8Array;
  /** v2: bloom filter bytes per batch (default 20,000 × 8 bits / 8) and ZKP batches per batch. */
  bloomFilterBytes?: number;
  zkpBatches?: number;
}

function writeMetadata(out: Uint8Array, at: number, init: LightTreeInit): void {
  if (init.owner) out.set(init.owner.subarray(0, 32), at);
  if (init.associatedQueue) out.set(init.associatedQueue.subarray(0, 32), at + 96 + 56);
}

/**
 * Write a Light tree account's bytes (the devnet keeps its trees on chain with this).
 *
 * @example
 * const bytes = encodeLightTreeAccount({
 *   kind: 'light-v1-state',
 *   height: 26,
 *   roots: [{ seq: 0, root }],
 *   rootHistoryCapacity: 2400,
 *   sequenceNumber: 0,
 *   nextIndex: 0,
 * });
 */
export function encodeLightTreeAccount(init: LightTreeInit): Uint8Array {
  const { height, rootHistoryCapacity: cap } = init;
  if (!Number.isInteger(height) || height < 1 || height > 64) fail('height', `expected 1..64, got ${String(height)}`);
  if (!Number.isInteger(cap) || cap < 1) fail('rootHistoryCapacity', `expected a positive integer, got ${String(cap)}`);
  const newest = init.roots.reduce((m, r) => Math.max(m, r.seq), -1);
  if (newest < 0) fail('roots', 'expected at least one root');
  const kept = init.roots.filter((r) => r.seq > newest - cap);
  if (init.kind === 'light-v2-state' || init.kind === 'light-v2-address') {
    const bloom = init.bloomFilterBytes ?? 20_000;
    const zkp = init.zkpBatches ?? 10;
    const hashChains = 2 * (16 + zkp * 32);
    const out = new Uint8Array(V2_ROOTS_AT + 24 + cap * 32 + 2 * bloom + hashChains);
    const dv = new DataView(out.buffer);
    out.set(BATCHED_TREE_DISCRIMINATOR, 0);
    dv.setBigUint64(8, init.kind === 'light-v2-state' ? TREE_TYPE_STATE_V2 : TREE_TYPE_ADDRESS_V2, true);
    writeMetadata(out, 16, init);
    const base = 16 + META;
    dv.setBigUint64(base, BigInt(init.sequenceNumber), true);
    dv.setBigUint64(base + 8, BigInt(init.nextIndex), true);
    dv.setUint32(base + 16, height, true);
    dv.setUint32(base + 20, cap, true);
    dv.setBigUint64(base + 24, 2n ** BigInt(height), true);
    // QueueBatches: two batches, bloom filter capacity in bits.
    const qb = base + 32;
    dv.setBigUint64(qb, 2n, true);
    dv.setBigUint64(qb + 24, BigInt(bloom * 8), true);
    dv.setBigUint64(V2_ROOTS_AT, BigInt((newest + 1) % cap), true);
    dv.setBigUint64(V2_ROOTS_AT + 8, BigInt(Math.min(newest + 1, cap)), true);
    dv.setBigUint64(V2_ROOTS_AT + 16, BigInt(cap), true);
    for (const r of kept) out.set(r.root.subarray(0, 32), V2_ROOTS_AT + 24 + (r.seq % cap) * 32);
    return out;
  }
  const clCap = init.changelogCapacity ?? 1400;
  const canopyDepth = init.canopyDepth ?? 10;
  if (!Number.isInteger(canopyDepth) || canopyDepth < 0 || canopyDepth > height) fail('canopyDepth', `expected 0..${height}, got ${String(canopyDepth)}`);
  const canopyNodes = 2 ** (canopyDepth + 1) - 2;
  if (init.canopy && init.canopy.length !== canopyNodes * 32) fail('canopy', `expected ${canopyNodes * 32} bytes, got ${init.canopy.length}`);
  const t = V1_TREE_AT;
  const entry = changelogEntrySize(height);
  const rootsAt = t + CMT_FIXED + 32 * height + clCap * entry;
  const canopyAt = rootsAt + 32 * cap;
  const indexed = init.kind === 'light-v1-address' ? 32 + clCap * INDEXED_CHANGELOG_ENTRY : 0;
  const out = new Uint8Array(canopyAt + canopyNodes * 32 + indexed);
  const dv = new DataView(out.buffer);
  out.set(init.kind === 'light-v1-state' ? STATE_TREE_V1_DISCRIMINATOR : ADDRESS_TREE_V1_DISCRIMINATOR, 0);
  writeMetadata(out, 8, init);
  const set = (at: number, v: number): void => dv.setBigUint64(at, BigInt(v), true);
  set(t, height);
  set(t + 8, canopyDepth);
  set(t + 16, init.nextIndex);
  set(t + 24, init.sequenceNumber);
  if (init.rightmostLeaf) out.set(init.rightmostLeaf.subarray(0, 32), t + 32);
  set(t + 64, height); // filled_subtrees capacity, length
  set(t + 72, height);
  const cyclic = (at: number, capacity: number, count: number): void => {
    const length = Math.min(count, capacity);
    const last = (count - 1) % capacity;
    set(at, capacity);
    set(at + 8, length);
    set(at + 16, length < capacity ? 0 : (last + 1) % capacity);
    set(at + 24, last);
  };
  cyclic(t + 80, clCap, newest + 1);
  cyclic(t + 112, cap, newest + 1);
  set(t + 144, canopyNodes);
  set(t + 152, canopyNodes);
  if (init.filledSubtrees) out.set(init.filledSubtrees.subarray(0, 32 * height), t + CMT_FIXED);
  for (const r of kept) out.set(r.root.subarray(0, 32), rootsAt + (r.seq % cap) * 32);
  if (init.canopy) out.set(init.canopy, canopyAt);
  if (indexed) {
    const at = canopyAt + canopyNodes * 32;
    cyclic(at, clCap, 1);
  }
  return out;
}
