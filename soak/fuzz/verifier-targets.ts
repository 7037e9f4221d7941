/**
 * Fuzz targets of the offline verifiers: every kind through `createVerifier({ threads: 0 })` (parsed
 * JSON, and raw bytes both parsed here and scanned), the pure per-kind functions, `verifyValidityProof`
 * and `parseTreeAccount`. Inputs are arbitrary values and near-miss mutations of the real vectors in
 * test/vectors. The oracle: a mutation that changed a field the verifier checks (compared after the
 * wire format's own equivalences: a missing `lamports` is 0, a missing delegate is the owner, …) must
 * never come back valid.
 */
import { readdirSync, readFileSync } from 'node:fs';
import bs58 from 'bs58';
import fc from 'fast-check';
import { createVerifierWithTestOptions as createVerifier } from '../../src/merkle/verifier/create-verifier.js';
import { kinds, KIND_NAMES, type KindName } from '../../src/merkle/kinds/index.js';
import { parseJsonLossless } from '../../src/merkle/input.js';
import { verifyAssetProofJson } from '../../src/merkle/cnft/asset-proof.js';
import { verifyAssetLeaf } from '../../src/merkle/cnft/asset-leaf.js';
import { verifyAccountHash, verifyAccountProof } from '../../src/merkle/compressed/account.js';
import { parseAccountProof, parseCompressedAccount } from '../../src/merkle/compressed/account-parse.js';
import { parseNewAddressProof, verifyNewAddressProof } from '../../src/merkle/compressed/address.js';
import { verifyValidityProof, verifyValidityProofSync } from '../../src/merkle/groth16/validity.js';
import { LIGHT_2024_06, LIGHT_CURRENT } from '../../src/merkle/groth16/keys/index.js';
import { parseTreeAccount, verifyTreeAccount } from '../../src/merkle/cnft/tree-account.js';
import type { Verdict } from '../../src/merkle/verdict.js';
import { applyEdits, applyTextEdits, closeDeep, editsArb, FULL, getAt, LONG_CAPPED, textEditsArb, toJsonText, type Edit, type Reach, type TextEdit } from './mutate.js';
import { Broken, typedCode, type GroupOptions, type Outcome, type Target, type TargetGroup } from './target.js';

const VECTORS = new URL('../../test/vectors/', import.meta.url);
const readVector = (f: string): string => readFileSync(new URL(f, VECTORS), 'utf8');

/** Items of `kind` in every vector file (parsed losslessly, as the service's numbers arrive). */
function vectorItems(kind: KindName): unknown[] {
  const out: unknown[] = [];
  for (const d of ['photon', 'bubblegum', 'das', 'light_e2e']) {
    for (const f of readdirSync(new URL(`${d}/`, VECTORS)).filter((x) => x.endsWith('.json')).sort()) {
      try {
        for (const { item } of kinds[kind].extract(parseJsonLossless(readVector(`${d}/${f}`)))) if (item !== null) out.push(item);
      } catch {
        /* no item of this kind in that file */
      }
    }
  }
  return out;
}

// ------------------------------------------------------------------ what each kind checks

type J = Record<string, unknown>;
const isObj = (v: unknown): v is J => v !== null && typeof v === 'object' && !Array.isArray(v);
const or = (v: unknown, dflt: unknown): unknown => (v === undefined ? dflt : v);

/**
 * The fields a kind's verdict depends on, as the wire format defines them (not as the code under test
 * reads them): a mutation that changes one of these must not verify. Defaults of the format are applied
 * so that a benign edit (dropping a `lamports` of 0) is not taken for a change.
 */
const CHECKED: Record<KindName, (item: unknown) => J> = {
  'asset-proof': (x) => (isObj(x) ? { root: x.root, leaf: x.leaf, proof: x.proof, node_index: x.node_index } : { item: x }),
  'account-proof': (x) => {
    if (!isObj(x)) return { item: x };
    const ctx = isObj(x.treeContext) ? x.treeContext : isObj(x.merkleContext) ? x.merkleContext : {};
    // a 26-node proof without a tree type is read as a v1 state tree (1)
    return { hash: x.hash, root: x.root, proof: x.proof, leafIndex: x.leafIndex, treeType: or(ctx.treeType, 1), proveByIndex: x.proveByIndex === true };
  },
  'address-proof': (x) => {
    if (!isObj(x)) return { item: x };
    const ctx = isObj(x.treeContext) ? x.treeContext : isObj(x.merkleContext) ? x.merkleContext : {};
    // `address` is only checked against the range: another address inside it is rightly valid
    return {
      lowerRangeAddress: x.lowerRangeAddress,
      higherRangeAddress: x.higherRangeAddress,
      lowElementLeafIndex: x.lowElementLeafIndex,
      nextIndex: x.nextIndex ?? 0,
      root: x.root,
      proof: x.proof,
      treeType: or(ctx.treeType, 2),
    };
  },
  'account-hash': (x) => {
    // photon wraps accounts as {account}, {account: {account, nullifier}}, with tokenData beside
    let cur: unknown = x;
    let token: J | null = null;
    for (let i = 0; i < 4 && isObj(cur); i++) {
      const t = cur.tokenData ?? cur.optionalTokenData;
      if (isObj(t)) token = t;
      if (typeof cur.hash === 'string' && 'owner' in cur && 'leafIndex' in cur) break;
      cur = cur.account;
    }
    if (!isObj(cur)) return { item: x };
    const ctx = isObj(cur.merkleContext) ? cur.merkleContext : null;
    const data = isObj(cur.data) ? { discriminator: cur.data.discriminator, dataHash: cur.data.dataHash } : or(cur.data, null);
    const out: J = {
      hash: cur.hash,
      owner: cur.owner,
      tree: ctx ? ctx.tree : cur.tree,
      treeType: ctx ? or(ctx.treeType, 1) : 1,
      leafIndex: cur.leafIndex,
      // absent or null lamports are read as 0 (the indexer omits them for empty accounts)
      lamports: cur.lamports ?? 0,
      address: or(cur.address, null),
      data,
    };
    // token data is re-derived only in its plain v1 form (no extensions)
    if (token && (token.tlv === null || token.tlv === undefined)) {
      out.token = { mint: token.mint, owner: token.owner, amount: token.amount, delegate: or(token.delegate, null), state: token.state };
    }
    return out;
  },
  'asset-leaf': (x) => {
    if (!isObj(x)) return { item: x };
    const c = isObj(x.compression) ? x.compression : {};
    const own = isObj(x.ownership) ? x.ownership : {};
    // no creators listed (null or missing) is the empty list
    const creators = Array.isArray(x.creators)
      ? x.creators.map((k) => (isObj(k) ? { address: k.address, verified: k.verified, share: k.share } : k))
      : or(x.creators ?? undefined, []);
    return {
      id: x.id,
      compressed: c.compressed === false,
      asset_hash: c.asset_hash,
      tree: c.tree,
      leaf_id: c.leaf_id,
      data_hash: c.data_hash,
      creator_hash: c.creator_hash,
      collection_hash: c.collection_hash,
      asset_data_hash: c.asset_data_hash,
      flags: c.flags,
      owner: own.owner,
      // no delegate = the owner is the delegate
      delegate: own.delegate === null || own.delegate === undefined ? own.owner : own.delegate,
      creators,
    };
  },
  // the proof, and what the public inputs are made of (roots, leaves, addresses; the trees split v1 entries)
  'validity-proof': (x) => {
    if (!isObj(x)) return { item: x };
    const pick = (list: unknown, f: (e: J) => unknown) => (Array.isArray(list) ? list.map((e) => (isObj(e) ? f(e) : e)) : list);
    return {
      compressedProof: x.compressedProof,
      roots: x.roots,
      leaves: x.leaves,
      merkleTrees: x.merkleTrees,
      accounts: pick(x.accounts, (e) => ({ hash: e.hash, root: e.root, ctx: e.merkleContext })),
      addresses: pick(x.addresses, (e) => ({ address: e.address, root: e.root, ctx: e.merkleContext })),
    };
  },
};

/** An integer as the wire may write it: a number, a bigint, or its decimal digits in a string (u64s). */
const asInteger = (x: unknown): unknown => (typeof x === 'string' && /^[0-9]{1,20}$/.test(x) ? BigInt(x) : x);

/** Deep equality of JSON values where a number, a bigint and a decimal string of one integer are one value. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (typeof a !== typeof b && (typeof a === 'string' || typeof b === 'string')) {
    a = asInteger(a);
    b = asInteger(b);
  }
  if ((typeof a === 'number' || typeof a === 'bigint') && (typeof b === 'number' || typeof b === 'bigint')) {
    if (typeof a === 'number' && !Number.isInteger(a)) return a === b;
    if (typeof b === 'number' && !Number.isInteger(b)) return false;
    return BigInt(a) === BigInt(b);
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameJson(x, b[i]));
  }
  if (isObj(a) && isObj(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) if (!sameJson(a[k], b[k])) return false;
    return true;
  }
  return Object.is(a, b) || (a === 0 && b === 0);
}

/** The checked fields that differ between a base item and its mutation (keys both views have). */
export function changedChecked(kind: KindName, base: unknown, mutated: unknown): string[] {
  const a = CHECKED[kind](base);
  const b = CHECKED[kind](mutated);
  return Object.keys(a).filter((k) => k in b && !sameJson(a[k], b[k]));
}

// ------------------------------------------------------------------ inputs

/** An input: arbitrary, or a vector item with edits (then the oracle applies). */
interface Mutant {
  base: number;
  edits: Edit[];
}
type Drawn = { any: unknown } | Mutant;

const anyArbWith = (sparse: boolean) =>
  fc.oneof(fc.jsonValue(), fc.anything({ withBigInt: true, withNullPrototype: true, withTypedArray: true, withSparseArray: sparse }));
const drawnArb = (nBases: number, anyArb = anyArbWith(true)): fc.Arbitrary<Drawn> =>
  fc.oneof(
    { weight: 1, arbitrary: anyArb.map((any) => ({ any })) },
    { weight: 4, arbitrary: fc.record({ base: fc.nat({ max: nBases - 1 }), edits: editsArb }) },
  );

function mutantOf(bases: unknown[], d: Mutant, reach: Reach): { base: unknown; value: unknown } {
  const base = bases[d.base]!;
  return { base, value: applyEdits(base, d.edits, reach).value };
}

/** The oracle: a valid verdict for a mutation that changed a checked field is a failure. */
function oracle(kind: KindName, base: unknown, mutated: unknown, v: Verdict | undefined, baseValid: boolean): Outcome {
  if (!v) throw new Broken('no verdict for a one-item input');
  if (!v.valid) return 'invalid';
  const changed = baseValid ? changedChecked(kind, base, mutated) : [];
  if (changed.length) throw new Broken(`${kind}: valid verdict for an item whose checked field(s) ${changed.join(', ')} changed: ${JSON.stringify(v)}`);
  return 'ok';
}

/**
 * An item the verifier must treat as one item (an object at the top); anything else may unwrap into
 * several or none, and only the absence of an untyped error is checked.
 */
const oneItem = (x: unknown): boolean => isObj(x);

// ------------------------------------------------------------------ the targets

export async function verifierTargets({ skip }: GroupOptions): Promise<TargetGroup> {
  // Held back while open defects would fail every run (see CHECKS in protocol.ts): long strings for
  // a quadratic base58 decoder; bigints and sparse arrays for the pool's packing (verify:* only).
  const reach: Reach = { ...FULL, longMax: skip.includes('long-base58') ? LONG_CAPPED : FULL.longMax };
  const poolReach: Reach = { ...reach, bigints: !skip.includes('bigint-in-items') };
  const bytesReach: Reach = { ...reach, longIntegers: !skip.includes('long-integers-scanned') };
  const poolAny = skip.includes('sparse-arrays') ? anyArbWith(false) : anyArbWith(true);
  const maxOpenDepth = skip.includes('unclosed-deep-json') ? 32 : Infinity;
  const inline = createVerifier({ threads: 0 });
  // The bytes path as a large response takes it: scanned, items packed from the text.
  const scanning = createVerifier({ threads: 0, jsonParseBelow: 0, jsonHeadStart: false });
  const targets: Target[] = [];

  for (const kind of KIND_NAMES) {
    const bases = vectorItems(kind);
    if (bases.length === 0) throw new Error(`no ${kind} item in test/vectors`);
    const baseValid = (await inline.verify(kind, bases)).map((v) => v.valid);
    const arb = drawnArb(bases.length);
    const describe = (d: unknown) => ('any' in (d as object) ? d : { base: (d as Mutant).base, edits: (d as Mutant).edits });

    targets.push({
      name: `verify:${kind}`,
      arb: drawnArb(bases.length, poolAny),
      describe,
      async run(input) {
        const d = input as Drawn;
        if ('any' in d) {
          const vs = await inline.verify(kind, d.any);
          return vs.some((v) => !v.valid) || vs.length === 0 ? 'invalid' : 'ok';
        }
        const { base, value } = mutantOf(bases, d, poolReach);
        const vs = await inline.verify(kind, [value]);
        if (!oneItem(value)) return vs.every((v) => v.valid) ? 'ok' : 'invalid';
        if (vs.length !== 1) throw new Broken(`one item in, ${vs.length} verdicts out`);
        return oracle(kind, base, value, vs[0], baseValid[d.base]!);
      },
    });

    targets.push({
      name: `verify-bytes:${kind}`,
      arb: fc.oneof(
        { weight: 1, arbitrary: fc.uint8Array({ maxLength: 512 }).map((bytes) => ({ bytes: Uint8Array.from(closeDeep(Buffer.from(bytes), maxOpenDepth)) })) },
        { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 256 }).map((text) => ({ text: closeDeep(Buffer.from(text), maxOpenDepth).toString() })) },
        { weight: 4, arbitrary: fc.record({ base: fc.nat({ max: bases.length - 1 }), edits: editsArb, text: textEditsArb }) },
      ),
      describe: (d) => d,
      async run(input) {
        const d = input as { bytes?: Uint8Array; text?: string | TextEdit[]; base?: number; edits?: Edit[] };
        let bytes: Uint8Array;
        if (d.bytes) bytes = d.bytes;
        else if (typeof d.text === 'string') bytes = Buffer.from(d.text, 'utf8');
        else {
          const value = applyEdits(bases[d.base!]!, d.edits!, bytesReach).value;
          bytes = applyTextEdits(toJsonText({ jsonrpc: '2.0', id: 1, result: [value] }), d.text as TextEdit[], maxOpenDepth);
        }
        // The two ways a response's bytes are read (parsed here / scanned) must agree on the answer.
        const [a, b] = await Promise.all([settle(inline.verify(kind, bytes.slice())), settle(scanning.verify(kind, bytes.slice()))]);
        const shape = (r: Settled) => (r.kind === 'ok' ? r.verdicts.map((v) => (v.valid ? 1 : 0)).join('') : r.kind);
        if (a.kind === 'thrown') throw a.error;
        if (b.kind === 'thrown') throw b.error;
        if (shape(a) !== shape(b)) throw new Broken(`bytes parsed → ${describeSettled(a)}; bytes scanned → ${describeSettled(b)}`);
        if (a.kind === 'error') throw a.error;
        return a.verdicts.every((v) => v.valid) && a.verdicts.length > 0 ? 'ok' : 'invalid';
      },
    });

    const pure = PURE[kind];
    targets.push({
      name: `pure:${kind}`,
      arb,
      describe,
      run(input) {
        const d = input as Drawn;
        if ('any' in d) return pure(d.any).valid ? 'ok' : 'invalid';
        const { base, value } = mutantOf(bases, d, reach);
        return oracle(kind, base, value, pure(value), baseValid[d.base]!);
      },
    });
  }

  targets.push(assetLeafWithProof(reach), validityTarget(reach), treeAccountTarget());
  return {
    targets,
    async close() {
      await inline.close();
      await scanning.close();
    },
  };
}

type Settled = { kind: 'ok'; verdicts: Verdict[] } | { kind: 'error'; error: unknown } | { kind: 'thrown'; error: unknown };
async function settle(p: Promise<Verdict[]>): Promise<Settled> {
  try {
    return { kind: 'ok', verdicts: await p };
  } catch (e) {
    return typedCode(e) ? { kind: 'error', error: e } : { kind: 'thrown', error: e };
  }
}
function describeSettled(r: Settled): string {
  if (r.kind === 'ok') return `[${r.verdicts.map((v) => (v.valid ? 'valid' : `invalid: ${v.reason}`)).join('; ')}]`;
  return `error ${r.error instanceof Error ? r.error.message : String(r.error)}`;
}

/** The per-kind functions a caller may use without the pool. */
const PURE: Record<KindName, (item: unknown) => Verdict> = {
  'asset-proof': (x) => verifyAssetProofJson(x),
  'asset-leaf': (x) => verifyAssetLeaf(x),
  'account-proof': (x) => verifyAccountProof(parseAccountProof(x)),
  'account-hash': (x) => verifyAccountHash(parseCompressedAccount(x)),
  'address-proof': (x) => verifyNewAddressProof(parseNewAddressProof(x)),
  'validity-proof': (x) => verifyValidityProofSync(x),
};

/** `verifyAssetLeaf(asset, proof)` on the bubblegum bundles: either side mutated. */
function assetLeafWithProof(reach: Reach): Target {
  const bundles = readdirSync(new URL('bubblegum/', VECTORS))
    .filter((f) => f.startsWith('mpl_bubblegum_dasApi'))
    .sort()
    .map((f) => JSON.parse(readVector(`bubblegum/${f}`)) as { getAsset: J; getAssetProof: J });
  return {
    name: 'pure:asset-leaf+proof',
    arb: fc.record({ base: fc.nat({ max: bundles.length - 1 }), side: fc.constantFrom('asset', 'proof'), edits: editsArb }),
    run(input) {
      const d = input as { base: number; side: 'asset' | 'proof'; edits: Edit[] };
      const { getAsset, getAssetProof } = bundles[d.base]!;
      const asset = d.side === 'asset' ? applyEdits(getAsset, d.edits, reach).value : getAsset;
      const proof = d.side === 'proof' ? applyEdits(getAssetProof, d.edits, reach).value : getAssetProof;
      const v = verifyAssetLeaf(asset, proof);
      if (!v.valid) return 'invalid';
      const changed =
        d.side === 'asset'
          ? changedChecked('asset-leaf', getAsset, asset)
          : changedChecked('asset-proof', getAssetProof, proof).concat(treeIdChanged(getAssetProof.tree_id, getAt(proof, ['tree_id'])) ? ['tree_id'] : []);
      if (changed.length) throw new Broken(`verifyAssetLeaf: valid with the ${d.side}'s ${changed.join(', ')} changed: ${JSON.stringify(v)}`);
      return 'ok';
    },
  };
}

/**
 * A proof without a tree_id (absent or null) claims no tree, and verifyAssetLeaf checks it only when
 * it names one (the leaf itself binds the tree through the asset id); another tree named is a change.
 */
const treeIdChanged = (before: unknown, after: unknown): boolean => after !== undefined && after !== null && !sameJson(before, after);

/**
 * `verifyValidityProof` on the real v1 inclusion proof (valid with the 2024 key set) and the photon
 * structure-only vectors. A change of the proof, a root or a leaf must not verify.
 */
function validityTarget(reach: Reach): Target {
  const e2e = JSON.parse(readVector('light_e2e/light_v1_inclusion_groth16_e2e.json'));
  const hex = (h: string): number[] => Array.from(Buffer.from(h, 'hex'));
  const b58 = (h: string): string => bs58.encode(Buffer.from(h, 'hex'));
  const p0 = e2e.proofs[0];
  const real: J = {
    compressedProof: { a: hex(p0.compressedProof.a), b: hex(p0.compressedProof.b), c: hex(p0.compressedProof.c) },
    roots: [b58(p0.root)],
    rootIndices: [p0.rootIndex],
    leafIndices: [p0.inputLeafIndex],
    leaves: [b58(p0.leaf)],
    merkleTrees: [e2e.leaves[0].tree],
  };
  const photon = readdirSync(new URL('photon/', VECTORS))
    .filter((f) => f.includes('validity-proof'))
    .sort()
    .map((f) => JSON.parse(readVector(`photon/${f}`)) as unknown);
  const bases = [real, ...photon];
  const opts = { keySets: [LIGHT_CURRENT, LIGHT_2024_06] };
  return {
    name: 'validity:verifyValidityProof',
    // a pairing check is ~1,000× a hash path: fewer cases
    weight: 0.3,
    arb: drawnArb(bases.length),
    async run(input) {
      const d = input as Drawn;
      if ('any' in d) return (await verifyValidityProof(d.any, opts)).valid ? 'ok' : 'invalid';
      const value = applyEdits(bases[d.base]!, d.edits, reach).value;
      const v = await verifyValidityProof(value, opts);
      if (!v.valid) return 'invalid';
      const pick = (x: unknown) => (isObj(x) ? { compressedProof: x.compressedProof, roots: x.roots, leaves: x.leaves } : { x });
      if (d.base === 0 && !sameJson(pick(real), pick(value))) throw new Broken(`validity proof verified after its proof, roots or leaves changed: ${JSON.stringify(v)}`);
      if (d.base !== 0) throw new Broken(`a redacted photon vector verified: ${JSON.stringify(v)}`);
      return 'ok';
    },
  };
}

/** `parseTreeAccount` + `verifyTreeAccount` on the spl-account-compression fixture's bytes. */
function treeAccountTarget(): Target {
  const fixture = JSON.parse(readVector('bubblegum/spl_ac_fixture_pre-batch-init-tree-account.json'));
  const data = Uint8Array.from(Buffer.from(fixture.account.data[0], 'base64'));
  // depth 10, buffer 32, active index 9: where the checked parts lie (see tree-account.test.ts)
  const changeLog = 32 + 32 * 10 + 8;
  const rightmost = 80 + 32 * changeLog;
  const checked: Array<[number, number]> = [
    [80 + 9 * changeLog, 80 + 9 * changeLog + 32], // current root
    [rightmost, rightmost + 320 + 32], // rightmost proof and leaf
  ];
  const edit = fc.record({ op: fc.constantFrom('flip', 'cut', 'grow', 'header', 'set'), at: fc.nat(), k: fc.nat() });
  return {
    name: 'tree-account:parseTreeAccount',
    arb: fc.oneof(
      { weight: 1, arbitrary: fc.uint8Array({ maxLength: 4096 }).map((bytes) => ({ bytes })) },
      { weight: 4, arbitrary: fc.array(edit, { minLength: 1, maxLength: 3 }).map((edits) => ({ edits })) },
    ),
    run(input) {
      const d = input as { bytes?: Uint8Array; edits?: Array<{ op: string; at: number; k: number }> };
      let bytes = d.bytes ?? data.slice();
      for (const e of d.edits ?? []) {
        if (bytes.length === 0) break;
        const at = e.at % bytes.length;
        if (e.op === 'flip') bytes[at]! ^= 1 << (e.k % 8);
        else if (e.op === 'cut') bytes = bytes.slice(0, at);
        else if (e.op === 'grow') bytes = Uint8Array.from([...bytes, ...new Uint8Array(1 + (e.k % 5000))]);
        else if (e.op === 'header' && bytes.length >= 10) {
          // maxBufferSize (bytes 2..6) or maxDepth (6..10) as any u32, huge ones included
          new DataView(bytes.buffer, bytes.byteOffset).setUint32(e.k % 2 ? 2 : 6, e.k % 3 === 0 ? 0xffffffff : e.k, true);
        } else if (e.op === 'set') bytes[at] = e.k & 0xff;
      }
      const v = verifyTreeAccount(parseTreeAccount(bytes));
      if (!v.valid) return 'invalid';
      // same layout (same size, same header), a byte of the root or the rightmost path changed
      const sameLayout = bytes.length === data.length && bytes.subarray(0, 80).every((b, i) => b === data[i]);
      const hit = checked.filter(([a, b]) => bytes.subarray(a, b).some((x, i) => x !== data[a + i]));
      if (d.edits && sameLayout && hit.length) throw new Broken(`tree account verified with bytes [${hit.map(([a, b]) => `${a}, ${b})`).join(', [')} (its root or rightmost path) changed`);
      return 'ok';
    },
  };
}
