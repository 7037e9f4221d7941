import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assertShape, formatPath, v } from '../../src/rpc/validate.js';
import * as S from '../../src/rpc/shapes.js';
import { dasAssets } from './fixtures.js';

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
