import { readdirSync, readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import bs58 from 'bs58';
import { BN254_R, bigToBe } from '../../src/crypto/bn254-encoding.js';
import { initGroth16 } from '../../src/merkle/groth16/verify.js';
import { poseidon } from '../../src/crypto/poseidon.js';
import { poseidonBigInt } from '../../src/crypto/poseidon-js.js';
import { hashCompressedAccount } from '../../src/merkle/compressed/account.js';
import { parseCompressedAccount } from '../../src/merkle/compressed/account-parse.js';
import { LIGHT_2024_06, LIGHT_CURRENT } from '../../src/merkle/groth16/keys/index.js';
import { verifyValidityProof, verifyValidityProofSync } from '../../src/merkle/groth16/validity.js';
import type { ValidityVerdict } from '../../src/merkle/groth16/validity-types.js';
import { fakeCompressedProof, fakeCompressedProofJson } from '../../src/devnet/compression/fake-proof.js';
import { InputError } from '../../src/errors/index.js';

const PHOTON = 'test/vectors/photon/';
const read = (p: string) => JSON.parse(readFileSync(p, 'utf8'));
const e2e = read('test/vectors/light_e2e/light_v1_inclusion_groth16_e2e.json');
const hex = (h: string): Uint8Array => Uint8Array.from(Buffer.from(h, 'hex'));
const b58 = (b: Uint8Array): string => bs58.encode(b);
const toHex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const big = (b: Uint8Array): bigint => BigInt('0x' + toHex(b));
const V2024 = 'light-protocol@338e47405 (2024-06-25)';

beforeAll(async () => {
  expect(await initGroth16()).toBe('mcl');
});

// The e2e vector as `getValidityProof` would return it for the first account (v1 shape).
const p0 = e2e.proofs[0];
const account0 = { ...e2e.leaves[0], address: null, data: null, seq: 1, slotCreated: 0 };
function e2eValue(): Record<string, unknown> {
  return {
    compressedProof: { a: Array.from(hex(p0.compressedProof.a)), b: Array.from(hex(p0.compressedProof.b)), c: Array.from(hex(p0.compressedProof.c)) },
    roots: [b58(hex(p0.root))],
    rootIndices: [p0.rootIndex],
    leafIndices: [p0.inputLeafIndex],
    leaves: [b58(hex(p0.leaf))],
    merkleTrees: [e2e.leaves[0].tree],
  };
}

/** A height-26 path for the only leaf of a tree: every sibling is the empty subtree of its level. */
function singleLeafProof(leaf: string): Record<string, unknown> {
  const zeros: Uint8Array[] = [new Uint8Array(32)];
  for (let i = 1; i < 26; i++) zeros.push(poseidon([zeros[i - 1]!, zeros[i - 1]!]));
  let node = bs58.decode(leaf);
  for (const z of zeros) node = poseidon([node, z]);
  return { hash: leaf, leafIndex: 0, merkleTree: e2e.leaves[0].tree, proof: zeros.map(b58), root: b58(node), rootSeq: 1 };
}

describe('photon validity-proof vectors (proof bytes redacted): structure only', () => {
  const files = readdirSync(PHOTON).filter((f) => f.includes('validity-proof'));
  it('there are 14 of them', () => expect(files.length).toBe(14));
  for (const f of files) {
    it(f, async () => {
      const json = read(PHOTON + f);
      const v: ValidityVerdict = await verifyValidityProof(json);
      expect(v).toMatchObject({ valid: false, status: 'proof-absent', reason: 'structure valid, proof bytes absent' });
      const value = json.value ?? json;
      const leaves: string[] = value.leaves ?? [
        ...(value.accounts ?? []).map((a: { hash: string }) => a.hash),
        ...(value.addresses ?? []).map((a: { address: string }) => a.address),
      ];
      const roots: string[] = value.roots ?? [...(value.accounts ?? []), ...(value.addresses ?? [])].map((a: { root: string }) => a.root);
      const isAddress = f.startsWith('mock_tests__get_multiple_new_address_proofs');
      expect(v.circuit).toBe(isAddress ? `v1_non_inclusion_26_${leaves.length}` : `v1_inclusion_26_${leaves.length}`);
      // v1 public inputs: the roots, then the leaves (or addresses), as 32-byte big-endian integers.
      expect(v.publicInputs).toEqual([...roots, ...leaves].map((s) => toHex(bs58.decode(s))));
    });
  }

  it('the new-address validity proof agrees with the new-address proof of the same address', () => {
    const proofs = read(PHOTON + 'mock_tests__get_multiple_new_address_proofs_interop.json').value;
    const value = read(PHOTON + 'mock_tests__get_multiple_new_address_proofs_interop-validity-proof.json');
    expect(verifyValidityProofSync(value, { addressProofs: proofs }).status).toBe('proof-absent');
    const moved = [{ ...proofs[0], root: proofs[0].proof[3] }];
    const v = verifyValidityProofSync(value, { addressProofs: moved });
    expect(v).toMatchObject({ valid: false, status: 'malformed' });
    expect(v.reason).toMatch(/addressProofs\[0\]/);
  });
});

describe('light e2e v1 inclusion proof, end to end', () => {
  it('the leaf is the account hash recomputed from the account fields', () => {
    expect(toHex(hashCompressedAccount(parseCompressedAccount(account0)))).toBe(p0.leaf);
  });

  it('verifies from the account fields and its Merkle path, with the 2024 key set named', async () => {
    const v = await verifyValidityProof(e2eValue(), { accounts: [account0], accountProofs: [singleLeafProof(account0.hash)] });
    expect(v).toEqual({
      valid: true,
      status: 'verified',
      circuit: 'v1_inclusion_26_1',
      keySet: V2024,
      publicInputs: [p0.root, p0.leaf],
    });
  });

  it('fails with the current key only, saying no key set verified this proof', () => {
    const v = verifyValidityProofSync(e2eValue(), { keySets: [LIGHT_CURRENT] });
    expect(v.valid).toBe(false);
    expect(v.status).toBe('not-verified');
    expect(v.reason).toMatch(/^no key set verified this proof/);
    expect(v.reason).toContain('light-protocol@8ddf06ba');
    expect(v.tried).toEqual(['light-protocol@8ddf06ba']);
  });

  it('reads a whole JSON-RPC response, {context, value}, and hex/base64/base58 proof bytes; the noble backend agrees', () => {
    const env = { jsonrpc: '2.0', id: 1, result: { context: { slot: 9 }, value: e2eValue() } };
    expect(verifyValidityProofSync(env, { id: 'x' })).toMatchObject({ id: 'x', valid: true, keySet: V2024 });
    const cp = p0.compressedProof;
    for (const enc of [(h: string) => h, (h: string) => '0x' + h, (h: string) => Buffer.from(h, 'hex').toString('base64'), (h: string) => b58(hex(h))]) {
      const value = { ...e2eValue(), compressedProof: { a: enc(cp.a), b: enc(cp.b), c: enc(cp.c) } };
      expect(verifyValidityProofSync(value).status).toBe('verified');
    }
    expect(verifyValidityProofSync(e2eValue(), { backend: 'noble' })).toMatchObject({ valid: true, keySet: V2024 });
  });

  it('every proof-byte bit flip is rejected', () => {
    for (const part of ['a', 'b', 'c'] as const) {
      const bytes = hex(p0.compressedProof[part]);
      for (let bit = 0; bit < bytes.length * 8; bit += 29) {
        const m = bytes.slice();
        m[bit >> 3]! ^= 0x80 >> (bit & 7);
        const value = e2eValue();
        (value.compressedProof as Record<string, number[]>)[part] = Array.from(m);
        const v = verifyValidityProofSync(value);
        expect(v.valid, `${part} bit ${bit}`).toBe(false);
        expect(['not-verified', 'malformed']).toContain(v.status);
      }
    }
  });

  it('a flipped root or leaf bit is rejected (by the pairing, or by the recomputed account hash)', () => {
    for (const key of ['roots', 'leaves'] as const) {
      for (const bit of [255, 200, 128, 64, 9]) {
        const value = e2eValue();
        const b = bs58.decode((value[key] as string[])[0]!);
        b[bit >> 3]! ^= 0x80 >> (bit & 7);
        (value[key] as string[])[0] = b58(b);
        expect(verifyValidityProofSync(value).status, `${key} bit ${bit}`).toBe('not-verified');
        if (key === 'leaves') {
          const v = verifyValidityProofSync(value, { accounts: [account0] });
          expect(v.status).toBe('malformed');
          expect(v.reason).toMatch(/"accounts\[0\]": the hash recomputed from the account's fields .* is not among the proof's leaves/);
        }
      }
    }
  });

  it('a tampered account field or a wrong account path is caught before any pairing', () => {
    const v = verifyValidityProofSync(e2eValue(), { accounts: [{ ...account0, lamports: '1000000001' }] });
    expect(v).toMatchObject({ valid: false, status: 'malformed' });
    const otherRoot = singleLeafProof(e2e.leaves[1].hash);
    const w = verifyValidityProofSync(e2eValue(), { accountProofs: [{ ...singleLeafProof(account0.hash), root: otherRoot.root }] });
    expect(w).toMatchObject({ valid: false, status: 'malformed' });
    expect(w.reason).toMatch(/accountProofs\[0\]/);
  });
});

describe('validity: structural checks', () => {
  const mock = () => read(PHOTON + 'mock_tests__get_multiple_new_address_proofs_interop-validity-proof.json');

  it('roots and leaves ≥ r are rejected, never reduced', () => {
    for (const key of ['roots', 'leaves'] as const) {
      const value = e2eValue();
      (value[key] as string[])[0] = b58(bigToBe(BN254_R, 32));
      const v = verifyValidityProofSync(value);
      expect(v).toMatchObject({ valid: false, status: 'malformed' });
      expect(v.reason).toBe(`"${key}[0]": not below the BN254 scalar field modulus r`);
    }
  });

  it('addresses ≥ 2^248 are rejected', () => {
    const value = mock();
    const a = new Uint8Array(32);
    a[0] = 1;
    value.value.leaves[0] = b58(a);
    expect(verifyValidityProofSync(value).reason).toBe('"leaves[0]": an address must be below 2^248');
  });

  it('array lengths must agree and match a circuit size', () => {
    const value = e2eValue();
    (value.leaves as string[]).push((value.leaves as string[])[0]!);
    expect(verifyValidityProofSync(value).reason).toBe('"leaves": has 2 entries but roots has 1');
    const five = e2eValue();
    for (const k of ['roots', 'rootIndices', 'leafIndices', 'leaves', 'merkleTrees'] as const) {
      const arr = five[k] as unknown[];
      while (arr.length < 5) arr.push(arr[0]);
    }
    const v = verifyValidityProofSync(five);
    expect(v.status).toBe('malformed');
    expect(v.reason).toMatch(/no v1 circuit proves 5 account\(s\) and 0 address\(es\)/);
  });

  it('v1 and v2 trees are never mixed', () => {
    const value = read(PHOTON + 'e2e_tests__e2e_mint_and_transfer_transactions-bob-validity-proof-v2.json');
    value.value.accounts[1].merkleContext.treeType = 3;
    expect(verifyValidityProofSync(value).reason).toMatch(/v1 trees .* and v2 trees .* are mixed/);
  });

  it('proof parts: lengths, partial redaction, bytes', () => {
    const short = { ...e2eValue(), compressedProof: { a: Array(31).fill(1), b: Array(64).fill(1), c: Array(32).fill(1) } };
    expect(verifyValidityProofSync(short).reason).toBe('"compressedProof.a": expected 32 bytes, got 31');
    const partial = { ...e2eValue(), compressedProof: { a: [], b: Array.from(hex(p0.compressedProof.b)), c: [] } };
    expect(verifyValidityProofSync(partial).status).toBe('malformed');
    const notByte = { ...e2eValue(), compressedProof: { a: [...Array(31).fill(0), 256], b: [], c: [] } };
    expect(verifyValidityProofSync(notByte).reason).toBe('"compressedProof.a[31]": expected a byte (0–255)');
  });

  it('proof points off the curve or outside the subgroup name the part', () => {
    const value = e2eValue();
    const b = hex(p0.compressedProof.b);
    // x = (0, 1): on the twist or not, it is not this proof's B; whichever way it fails, the part is named.
    b.fill(0);
    b[63] = 1;
    (value.compressedProof as Record<string, number[]>).b = Array.from(b);
    const v = verifyValidityProofSync(value);
    expect(v.status).toBe('malformed');
    expect(v.reason).toMatch(/^"compressedProof\.b": (not on the curve|not in the prime-order subgroup)/);
  });

  it('a v1 response is split into accounts and addresses by the request or the known address trees', () => {
    const value = e2eValue();
    const addr = read(PHOTON + 'mock_tests__get_multiple_new_address_proofs_interop-validity-proof.json').value;
    for (const k of ['roots', 'rootIndices', 'leafIndices', 'leaves', 'merkleTrees'] as const) (value[k] as unknown[]).push(addr[k][0]);
    expect(verifyValidityProofSync(value, { structureOnly: true }).circuit).toBe('v1_combined_26_26_1_1');
    const tree = 'Bx4pBd1BTBLVMdrDkedeH7cKbHmxEYsR9gN7ugDxUaMP';
    (value.merkleTrees as string[])[1] = tree;
    expect(verifyValidityProofSync(value, { structureOnly: true }).circuit).toBe('v1_inclusion_26_2');
    expect(verifyValidityProofSync(value, { structureOnly: true, addressTrees: [tree] }).circuit).toBe('v1_combined_26_26_1_1');
    const req = { hashes: [account0.hash], newAddressesWithTrees: [{ address: addr.leaves[0], tree }] };
    const v = verifyValidityProofSync(value, { request: req, structureOnly: true });
    expect(v).toMatchObject({ status: 'structure-valid', circuit: 'v1_combined_26_26_1_1' });
    expect(v.publicInputs).toEqual([p0.root, p0.leaf, toHex(bs58.decode(addr.roots[0])), toHex(bs58.decode(addr.leaves[0]))]);
  });

  it('anything that is not an object throws InputError naming the value', () => {
    for (const bad of [null, 3, 'x', []]) expect(() => verifyValidityProofSync(bad)).toThrow(InputError);
    expect(verifyValidityProofSync({ foo: 1 }).reason).toMatch(/expected roots\/leaves .* or accounts\/addresses/);
  });

  it('nothing to prove: no entries, or every account proven by index', () => {
    expect(verifyValidityProofSync({ compressedProof: null, accounts: [], addresses: [] }).status).toBe('nothing-to-prove');
    const value = read(PHOTON + 'e2e_tests__e2e_mint_and_transfer_transactions-bob-validity-proof-v2.json');
    for (const a of value.value.accounts) a.rootIndex.proveByIndex = true;
    expect(verifyValidityProofSync(value)).toMatchObject({ valid: false, status: 'nothing-to-prove' });
  });
});

describe('validity v2: the Poseidon public-input hash chain', () => {
  // Fields well below r (first byte 0) so that any 32 bytes serve as roots, leaves and addresses.
  const f = (n: number): string => {
    const b = new Uint8Array(32);
    b[1] = n;
    b[31] = n * 7;
    return b58(b);
  };
  const ctx = (treeType: number, tree: string) => ({ treeType, tree, queue: tree, cpiContext: null, nextTreeContext: null });
  const STATE2 = 'bmt1LryLZUMmF7ZtqESaw7wifBXLfXHQYoE4GAmrahU';
  const ADDR2 = 'amt2kaJA14v3urZbZvnc5v2np8jqvc4Z8zDep5wbtzx';
  const acct = (i: number, proveByIndex = false) => ({
    hash: f(10 + i),
    root: f(20 + i),
    rootIndex: { rootIndex: i, proveByIndex },
    leafIndex: i,
    merkleContext: ctx(3, STATE2),
  });
  const address = (i: number) => ({ address: f(30 + i), root: f(40 + i), rootIndex: i, merkleContext: ctx(4, ADDR2) });
  const P = (...xs: string[]): bigint => poseidonBigInt(xs.map((x) => big(bs58.decode(x))));
  const Pb = (...xs: bigint[]): bigint => poseidonBigInt(xs);
  const asHex = (x: bigint) => x.toString(16).padStart(64, '0');

  it('inclusion: h = P(r0, l0), then h = P(h, ri, li)', () => {
    const v = verifyValidityProofSync({ compressedProof: null, accounts: [acct(0), acct(1), acct(2)], addresses: [] });
    expect(v.circuit).toBe('v2_inclusion_32_3');
    const h = Pb(Pb(P(f(20), f(10)), big(bs58.decode(f(21))), big(bs58.decode(f(11)))), big(bs58.decode(f(22))), big(bs58.decode(f(12))));
    expect(v.publicInputs).toEqual([asHex(h)]);
  });

  it('combined = P(inclusionChain, nonInclusionChain), not the non-inclusion chain alone', () => {
    const v = verifyValidityProofSync({ compressedProof: fakeCompressedProofJson('v2'), accounts: [acct(0)], addresses: [address(0), address(1)] });
    expect(v.circuit).toBe('v2_combined_32_40_1_2');
    const inclusion = P(f(20), f(10));
    const nonInclusion = Pb(P(f(40), f(30)), big(bs58.decode(f(41))), big(bs58.decode(f(31))));
    expect(v.publicInputs).toEqual([asHex(Pb(inclusion, nonInclusion))]);
    expect(v.publicInputs).not.toEqual([asHex(nonInclusion)]);
    // The devnet's fake proof is well formed, so it reaches the pairing, which says no.
    expect(v).toMatchObject({ valid: false, status: 'not-verified' });
    expect(v.reason).toMatch(/no key set verified this proof \(tried v2_combined_32_40_1_2 in light-protocol@8ddf06ba\)/);
  });

  it('accounts proven by index are left out of the public inputs', () => {
    const v = verifyValidityProofSync({ compressedProof: null, accounts: [acct(0, true), acct(1)], addresses: [] });
    expect(v.circuit).toBe('v2_inclusion_32_1');
    expect(v.publicInputs).toEqual([asHex(P(f(21), f(11)))]);
  });
});

describe('fake proof for the devnet', () => {
  it('is deterministic in its seed and made of valid points', () => {
    const a = fakeCompressedProof('seed-1');
    expect(a.a.length).toBe(32);
    expect(a.b.length).toBe(64);
    expect(a.c.length).toBe(32);
    expect(fakeCompressedProof('seed-1')).toEqual(a);
    // b is the fixed G2 generator (a G2 multiplication per request is too slow); a and c follow the seed
    expect(toHex(fakeCompressedProof('seed-2').a)).not.toBe(toHex(a.a));
    expect(toHex(fakeCompressedProof('seed-2').c)).not.toBe(toHex(a.c));
    const value = { ...e2eValue(), compressedProof: fakeCompressedProofJson('seed-1') };
    expect(verifyValidityProofSync(value, { structureOnly: true })).toMatchObject({ status: 'structure-valid', circuit: 'v1_inclusion_26_1' });
    expect(verifyValidityProofSync(value, { structureOnly: true, backend: 'noble' }).status).toBe('structure-valid');
  });

  it('does not verify under any shipped key', () => {
    for (const seed of ['seed-1', 'seed-2', '']) {
      const value = { ...e2eValue(), compressedProof: fakeCompressedProofJson(seed) };
      const v = verifyValidityProofSync(value, { keySets: [LIGHT_CURRENT, LIGHT_2024_06] });
      expect(v).toMatchObject({ valid: false, status: 'not-verified', tried: ['light-protocol@8ddf06ba', V2024] });
    }
  });
});
