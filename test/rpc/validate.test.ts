import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assertShape, formatPath, v, type Validator } from '../../src/rpc/validate.js';
import * as S from '../../src/rpc/shapes.js';
import { dasAssets } from '../support/rpc-fixtures.js';

/** Every [path, value] leaf of a JSON value that is a string, number or boolean. */
function leaves(x: unknown, path: (string | number)[] = []): [(string | number)[], unknown][] {
  if (Array.isArray(x)) return x.flatMap((y, i) => leaves(y, [...path, i]));
  if (x && typeof x === 'object') return Object.entries(x).flatMap(([k, y]) => leaves(y, [...path, k]));
  return x === null ? [] : [[path, x]];
}

describe('validators', () => {
  it('formats paths like code', () => {
    // segments are collected innermost first
    expect(formatPath('result', ['owner', 'ownership', 2])).toBe('result[2].ownership.owner');
    expect(formatPath('result', ['$schema', 'content'])).toBe('result.content.$schema');
    expect(formatPath('body', ['a-b'])).toBe('body["a-b"]');
  });

  /** Leaves the spec defines (and the Asset shape therefore checks). Extension fields pass unchecked. */
  const SPEC_LEAF =
    /^(interface|id|last_indexed_slot|content\.(\$schema|json_uri|files\.\d+\.(uri|cdn_uri|mime)|metadata\.(description|name|symbol|token_standard|attributes\.\d+\.trait_type))|authorities\.\d+\.(address|scopes\.\d+)|compression\.(eligible|compressed|data_hash|creator_hash|asset_hash|tree|seq|leaf_id)|grouping\.\d+\.(group_key|group_value)|royalty\.(royalty_model|target|percent|basis_points|primary_sale_happened|locked)|creators\.\d+\.(address|share|verified)|ownership\.(frozen|delegated|delegate|ownership_model|owner)|supply\.(print_max_supply|print_current_supply|edition_nonce)|mutable|burnt)$/;

  const assets = dasAssets().map((a) => a.asset);
  const specLeaves = assets.flatMap((asset, ai) => leaves(asset).filter(([p]) => SPEC_LEAF.test(p.join('.'))).map(([p, x]) => ({ ai, path: p, value: x })));

  it('covers the spec fields of the vectors', () => {
    expect(specLeaves.length).toBeGreaterThan(300);
  });

  it('any wrong-typed value at any spec leaf of a real asset is rejected, naming exactly that path', () => {
    const wrongFor = (x: unknown) =>
      fc.oneof(fc.string(), fc.double({ noNaN: true }), fc.integer(), fc.boolean(), fc.array(fc.nat(), { maxLength: 2 }), fc.constant({})).filter(
        (w) => typeof w !== typeof x, // (fractional numbers in integer fields are covered by assertShape below)
      );
    fc.assert(
      fc.property(
        fc.nat({ max: specLeaves.length - 1 }).chain((i) => fc.tuple(fc.constant(specLeaves[i]), wrongFor(specLeaves[i].value))),
        ([{ ai, path }, wrong]) => {
          const asset = structuredClone(assets[ai]);
          let o: any = asset;
          for (const p of path.slice(0, -1)) o = o[p];
          o[path.at(-1)!] = wrong;
          const f = S.asset(asset);
          expect(f, `${path.join('.')} = ${JSON.stringify(wrong)}`).toBeDefined();
          expect(formatPath('result', f!.path)).toBe(formatPath('result', [...path].reverse()));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('assertShape throws RPC_SCHEMA with the path and what was found', () => {
    const shape = v.object({ a: v.array(v.object({ b: v.int })) });
    expect(() => assertShape(shape, { a: [{ b: 1 }, { b: 1.5 }] }, 'result', 'm')).toThrow('m: result.a[1].b: expected integer, got number 1.5');
    expect(() => assertShape(shape, { a: [{ b: 1 }] }, 'result', 'm')).not.toThrow();
    expect(() => assertShape(v.literal('x', 'y'), 'z', 'result', 'm')).toThrow('expected "x" | "y", got "z"');
    expect(() => assertShape(v.u64, -1, 'result', 'm')).toThrow('expected unsigned integer');
    expect(assertShape(v.u64, 2n ** 64n - 1n, 'result', 'm')).toBe(2n ** 64n - 1n);
  });
});

// Every u64 field of every response shape is held to 0 ≤ v < 2^64 and every integer field to a
// safe integer. Each sample below sets every u64 field it has to u64::MAX (found by walking the
// sample, so a field is covered by being written here once); each one is then set past the range and
// must be refused naming exactly its path.
describe('numeric ranges', () => {
  const U = 2n ** 64n - 1n;
  const ADDR = '11111111111111111111111111111111';
  const account = { hash: ADDR, owner: ADDR, lamports: U, leafIndex: U, tree: ADDR, merkleContext: { tree: ADDR, queue: ADDR, treeType: U }, data: { data: '', dataHash: ADDR, discriminator: U }, seq: U, slotCreated: U };
  const tokenData = { mint: ADDR, owner: ADDR, amount: U, state: 'initialized' };
  const ctx = { context: { slot: U } };
  const samples: Array<[string, Validator, unknown]> = [
    ['asset', S.asset, { interface: 'V1_NFT', id: ADDR, compression: { seq: U, leaf_id: U }, supply: { print_max_supply: U, print_current_supply: U }, token_info: { supply: U } }],
    ['assetProof', S.assetProof, { root: ADDR, proof: [ADDR], node_index: U, leaf: ADDR, tree_id: ADDR }],
    ['tokenAccountList', S.tokenAccountList, { token_accounts: [{ address: ADDR, mint: ADDR, owner: ADDR, amount: U, delegated_amount: U }] }],
    ['compressedAccount', S.compressedAccount, account],
    ['compressedTokenAccount', S.compressedTokenAccount, { account, tokenData }],
    ['compressedAccountProof', S.compressedAccountProof, { hash: ADDR, leafIndex: U, merkleTree: ADDR, proof: [ADDR], root: ADDR, rootSeq: U }],
    ['newAddressProof', S.newAddressProof, { address: ADDR, higherRangeAddress: ADDR, lowElementLeafIndex: U, lowerRangeAddress: ADDR, merkleTree: ADDR, nextIndex: U, proof: [ADDR], root: ADDR, rootSeq: U }],
    ['validityProof', S.validityProof, { compressedProof: null, rootIndices: [U], leafIndices: [U] }],
    ['compressionSignature', S.compressionSignature, { signature: ADDR, slot: U, blockTime: 1_700_000_000 }],
    ['withContext(cursorPage)', S.withContext(S.cursorPage(S.compressedAccount)), { ...ctx, value: { items: [account] } }],
    ['transactionWithCompressionInfo', S.transactionWithCompressionInfo, { transaction: null, compression_info: { closedAccounts: [{ account, optionalTokenData: tokenData }], openedAccounts: [] } }],
    ['transferPage', S.transferPage, { data: [{ signature: ADDR, timestamp: U, direction: 'in' }], pagination: { hasMore: false } }],
    ['latestBlockhash', S.latestBlockhash, { ...ctx, value: { blockhash: ADDR, lastValidBlockHeight: U } }],
    ['signatureStatuses', S.signatureStatuses, { ...ctx, value: [{ slot: U, confirmations: U }] }],
    ['transaction', S.transaction, { slot: U, blockTime: -1 }],
    ['simulation', S.simulation, { ...ctx, value: { unitsConsumed: U } }],
    ['accountInfo', S.accountInfo, { ...ctx, value: { lamports: U, owner: ADDR, executable: false, rentEpoch: U, space: U } }],
    ['balance', S.balance, { ...ctx, value: U }],
    ['u64', v.u64, U],
  ];

  /** Paths (root first) of every leaf equal to `x`. */
  const pathsOf = (o: unknown, x: unknown, path: (string | number)[] = []): (string | number)[][] =>
    (o === x ? [path] : o && typeof o === 'object' ? Object.entries(o).flatMap(([k, y]) => pathsOf(y, x, [...path, Array.isArray(o) ? Number(k) : k])) : []);
  const withAt = (o: unknown, path: (string | number)[], x: unknown): unknown => {
    if (path.length === 0) return x;
    const copy: any = Array.isArray(o) ? [...o] : { ...(o as object) };
    copy[path[0]!] = withAt(copy[path[0]!], path.slice(1), x);
    return copy;
  };

  it('u64::MAX passes in every u64 field; 2^64, 2^128, -1 and unsafe or fractional numbers are refused naming the field', () => {
    let fields = 0;
    for (const [name, shape, sample] of samples) {
      expect(shape(sample), name).toBeUndefined();
      for (const path of pathsOf(sample, U)) {
        fields++;
        for (const bad of [2n ** 64n, 2n ** 128n, -1n, -1, 2 ** 64, 2 ** 53, 1.5, 1e300]) {
          const f = shape(withAt(sample, path, bad));
          const label = `${name} ${path.join('.')} = ${String(bad)}`;
          expect(f, label).toBeDefined();
          expect(formatPath('result', f!.path), label).toBe(formatPath('result', [...path].reverse()));
        }
        for (const good of [0, 1, Number.MAX_SAFE_INTEGER, 2n ** 53n + 1n]) expect(shape(withAt(sample, path, good)), `${name} ${path.join('.')} = ${good}`).toBeUndefined();
      }
    }
    // the 35 u64 fields of shapes.ts, some in several samples (context.slot, the account inside others)
    expect(fields).toBe(59);
  });

  it('integer fields take safe integers only (a slot of 1e300 is no slot); i64 times may be negative', () => {
    for (const [shape, sample, path] of [
      [S.asset, { interface: 'V1_NFT', id: ADDR, last_indexed_slot: 5 }, ['last_indexed_slot']],
      [S.assetList, { items: [], total: 5 }, ['total']],
      [S.compressionSignature, { signature: ADDR, slot: 1, blockTime: 5 }, ['blockTime']],
      [S.transaction, { slot: 1, blockTime: 5 }, ['blockTime']],
    ] as const) {
      expect(shape(sample)).toBeUndefined();
      expect(shape(withAt(sample, path as unknown as string[], -5))).toBeUndefined();
      for (const bad of [2 ** 53, 1e300, -(2 ** 53), 2n ** 63n, 1.5]) {
        const f = shape(withAt(sample, path as unknown as string[], bad));
        expect(f, `${path.join('.')} = ${String(bad)}`).toBeDefined();
        expect(formatPath('result', f!.path)).toBe(formatPath('result', [...path].reverse()));
      }
    }
  });

  it('a huge bigint in a failure message is cut to a short prefix', () => {
    let e: Error | undefined;
    try {
      assertShape(v.string, 10n ** 5000n, 'result', 'm');
    } catch (x) {
      e = x as Error;
    }
    expect(e!.message.length).toBeLessThan(200);
  });
});
