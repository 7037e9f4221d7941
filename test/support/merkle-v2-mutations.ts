/**
 * Single-bit mutations of V2 answers, field by field, for the "any mutation is rejected" property
 * tests. Each kind lists the fields its proof commits to; a field outside that list (a tree's name in
 * a proof, `seq`, `slotCreated`, `rootSeq`, the queue, `data.data`, a V2 low element's `nextIndex`, the
 * new address itself inside its open range) can change without the proof changing, so flipping it
 * proves nothing either way. Base58 fields are flipped in their decoded bytes, integers in their value,
 * booleans and the token state by swapping.
 */
import bs58 from 'bs58';

type Json = Record<string, unknown>;
export type Path = ReadonlyArray<string | number>;
export type FieldKind = 'b58' | 'uint' | 'bool' | 'state';

/** One committed field of an item, with how many single-bit mutations it has. */
export interface Field {
  path: Path;
  kind: FieldKind;
  /** Bits to flip (b58: 256; uint: its width; bool/state: 1). */
  bits: number;
}

export interface Mutant {
  label: string;
  item: unknown;
}

const get = (o: unknown, path: Path): unknown => path.reduce<unknown>((x, k) => (x as Record<string | number, unknown>)[k], o);

function set(o: unknown, path: Path, v: unknown): unknown {
  const copy = structuredClone(o);
  const parent = get(copy, path.slice(0, -1)) as Record<string | number, unknown>;
  parent[path[path.length - 1]!] = v;
  return copy;
}

/** The item with bit `bit` of `field` flipped (bit 0 = the most significant bit of a byte field). */
export function mutate(item: unknown, field: Field, bit: number): Mutant {
  const label = `${field.path.join('.')} bit ${bit}`;
  const v = get(item, field.path);
  switch (field.kind) {
    case 'b58': {
      const b = bs58.decode(v as string);
      b[bit >> 3]! ^= 0x80 >> (bit & 7);
      return { label, item: set(item, field.path, bs58.encode(b)) };
    }
    case 'uint': {
      const x = BigInt(v as number | bigint | string) ^ (1n << BigInt(bit));
      return { label, item: set(item, field.path, x <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(x) : x) };
    }
    case 'bool':
      return { label, item: set(item, field.path, !(v as boolean)) };
    case 'state':
      return { label, item: set(item, field.path, v === 'frozen' ? 'initialized' : 'frozen') };
  }
}

/** Every single-bit mutant of `field`. */
export function allMutants(item: unknown, field: Field): Mutant[] {
  return Array.from({ length: field.bits }, (_, bit) => mutate(item, field, bit));
}

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The committed fields of a compressed account (CompressedAccountResultV2, bare or `{account,
 * tokenData}`): every input of its hash, the token data its data hash commits to, the tree type
 * that picks the rule. `proveByIndex` is left out: it changes the status, not the hash.
 */
export function accountFields(item: Json): Field[] {
  const wrapped = isObj(item.account);
  const a = (wrapped ? item.account : item) as Json;
  const p = (...k: Array<string | number>): Path => (wrapped ? ['account', ...k] : k);
  // The V1 shape (top-level `tree`, no treeType) is served for accounts of V2 trees too.
  const tree: Field[] = isObj(a.merkleContext)
    ? [
        { path: p('merkleContext', 'tree'), kind: 'b58', bits: 256 },
        { path: p('merkleContext', 'treeType'), kind: 'uint', bits: 8 },
      ]
    : [{ path: p('tree'), kind: 'b58', bits: 256 }];
  const out: Field[] = [
    { path: p('hash'), kind: 'b58', bits: 256 },
    { path: p('owner'), kind: 'b58', bits: 256 },
    ...tree,
    { path: p('leafIndex'), kind: 'uint', bits: 32 },
    { path: p('lamports'), kind: 'uint', bits: 64 },
  ];
  if (typeof a.address === 'string') out.push({ path: p('address'), kind: 'b58', bits: 256 });
  if (isObj(a.data)) out.push({ path: p('data', 'discriminator'), kind: 'uint', bits: 64 }, { path: p('data', 'dataHash'), kind: 'b58', bits: 256 });
  if (wrapped && isObj(item.tokenData)) {
    const t = item.tokenData;
    out.push(
      { path: ['tokenData', 'mint'], kind: 'b58', bits: 256 },
      { path: ['tokenData', 'owner'], kind: 'b58', bits: 256 },
      { path: ['tokenData', 'amount'], kind: 'uint', bits: 64 },
      { path: ['tokenData', 'state'], kind: 'state', bits: 1 },
    );
    if (typeof t.delegate === 'string') out.push({ path: ['tokenData', 'delegate'], kind: 'b58', bits: 256 });
  }
  return out;
}

/** The committed fields of an account proof (MerkleProofResultV2), its nodes listed separately. */
export function accountProofFields(item: Json): { fields: Field[]; nodes: Field[] } {
  const ctx = isObj(item.treeContext) ? 'treeContext' : 'merkleContext';
  return {
    fields: [
      { path: ['hash'], kind: 'b58', bits: 256 },
      { path: ['root'], kind: 'b58', bits: 256 },
      { path: ['leafIndex'], kind: 'uint', bits: 32 },
      { path: [ctx, 'treeType'], kind: 'uint', bits: 8 },
      { path: ['proveByIndex'], kind: 'bool', bits: 1 },
    ],
    nodes: (item.proof as unknown[]).map((_, i) => ({ path: ['proof', i], kind: 'b58' as const, bits: 256 })),
  };
}

/**
 * The committed fields of a new-address proof of a V2 tree (leaf `P(value, nextValue)`): the low
 * element's bounds, its index, the root, the nodes. `nextIndex` is not hashed in V2, and the address
 * may move anywhere inside the open range (that property is tested on its own).
 */
export function addressProofFields(item: Json): { fields: Field[]; nodes: Field[] } {
  return {
    fields: [
      { path: ['lowerRangeAddress'], kind: 'b58', bits: 256 },
      { path: ['higherRangeAddress'], kind: 'b58', bits: 256 },
      { path: ['root'], kind: 'b58', bits: 256 },
      { path: ['lowElementLeafIndex'], kind: 'uint', bits: 53 },
    ],
    nodes: (item.proof as unknown[]).map((_, i) => ({ path: ['proof', i], kind: 'b58' as const, bits: 256 })),
  };
}
