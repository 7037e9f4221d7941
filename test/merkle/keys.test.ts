import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadBn254Wasm, type Bn254Wasm } from '../../src/crypto/bn254-wasm.js';
import { parseVerifyingKey, type VerifyingKey } from '../../src/merkle/groth16/verify.js';
import { keySetByVersion, LIGHT_2024_06, LIGHT_CURRENT, packKeySet, SHIPPED_KEY_SETS, unpackKeySet, type KeySet } from '../../src/merkle/groth16/keys/index.js';
import { LIGHT_KEYS_8DDF06BA } from '../../src/merkle/groth16/keys/light-8ddf06ba.js';

const head = JSON.parse(readFileSync('test/vectors/groth16/light_verifying_keys_head.json', 'utf8'));
const e2e = JSON.parse(readFileSync('test/vectors/light_e2e/light_v1_inclusion_groth16_e2e.json', 'utf8'));

let w: Bn254Wasm;
beforeAll(async () => {
  w = await loadBn254Wasm();
});

// Keys share α, β, γ and many IC points: decode each distinct encoding once.
const memo = new Map<string, unknown>();
function pt<T>(kind: 'g1' | 'g2', b: Uint8Array): T {
  const k = kind + Buffer.from(b).toString('hex');
  let v = memo.get(k);
  if (v === undefined) memo.set(k, (v = kind === 'g1' ? w.g1(b) : w.g2(b)));
  return v as T;
}
type P = { isEqual(o: P): boolean };
const same1 = (a: Uint8Array, b: Uint8Array) => pt<P>('g1', a).isEqual(pt<P>('g1', b));
const same2 = (a: Uint8Array, b: Uint8Array) => pt<P>('g2', a).isEqual(pt<P>('g2', b));

/** Point-for-point equality of a shipped key with its upstream source (decoded, so encodings may differ). */
function expectSameKey(shipped: VerifyingKey, source: VerifyingKey, name: string): void {
  expect(shipped.ic.length, `${name}: IC count`).toBe(source.ic.length);
  expect(same1(shipped.alpha, source.alpha), `${name}.alpha`).toBe(true);
  expect(same2(shipped.beta, source.beta), `${name}.beta`).toBe(true);
  expect(same2(shipped.gamma, source.gamma), `${name}.gamma`).toBe(true);
  expect(same2(shipped.delta, source.delta), `${name}.delta`).toBe(true);
  shipped.ic.forEach((p, i) => expect(same1(p, source.ic[i]!), `${name}.ic[${i}]`).toBe(true));
}

describe('shipped verifying-key sets', () => {
  it('carry version labels and are ordered newest first', () => {
    expect(SHIPPED_KEY_SETS.map((s) => s.version)).toEqual(['light-protocol@8ddf06ba', 'light-protocol@338e47405 (2024-06-25)']);
    expect(keySetByVersion('light-protocol@8ddf06ba')).toBe(LIGHT_CURRENT);
    expect(keySetByVersion('nope')).toBeUndefined();
  });

  it('the current set holds exactly the 104 upstream keys, point for point', () => {
    const names = Object.keys(head.keys).sort();
    expect(LIGHT_CURRENT.names().sort()).toEqual(names);
    expect(names.length).toBe(104);
    for (const name of names) {
      const source = parseVerifyingKey(head.keys[name], name);
      const shipped = LIGHT_CURRENT.get(name)!;
      expect(shipped.name).toBe(name);
      expect(shipped.ic.length - 1).toBe(head.keys[name].nr_pubinputs);
      expectSameKey(shipped, source, name);
    }
  });

  it('the 2024 set holds the light_e2e key', () => {
    expect(LIGHT_2024_06.names()).toEqual(['v1_inclusion_26_1']);
    expectSameKey(LIGHT_2024_06.get('v1_inclusion_26_1')!, parseVerifyingKey(e2e.vk_inclusion_26_1_at_338e47405), '2024');
  });

  it('stores every point once, compressed (compact)', () => {
    const g1 = Buffer.from(LIGHT_KEYS_8DDF06BA.g1, 'base64').length;
    const g2 = Buffer.from(LIGHT_KEYS_8DDF06BA.g2, 'base64').length;
    expect(g1 % 32).toBe(0);
    expect(g2 % 64).toBe(0);
    // 104 keys, 517 IC points upstream; shared α/β/γ and IC points are stored once.
    expect(g1 + g2).toBeLessThan(20_000);
  });

  it('get() returns the same key object each time (so prepared keys stay cached) and undefined for unknown circuits', () => {
    expect(LIGHT_CURRENT.get('v1_inclusion_26_2')).toBe(LIGHT_CURRENT.get('v1_inclusion_26_2'));
    expect(LIGHT_CURRENT.get('v1_inclusion_26_5')).toBeUndefined();
    expect(LIGHT_CURRENT.has('toString')).toBe(false);
  });

  it('packKeySet → unpackKeySet round-trips a key', () => {
    const vk = parseVerifyingKey(e2e.vk_inclusion_26_1_at_338e47405, 'k');
    const set: KeySet = unpackKeySet(packKeySet('test', 'test', { k: vk }));
    expect(set.version).toBe('test');
    expectSameKey(set.get('k')!, vk, 'roundtrip');
  });
});
