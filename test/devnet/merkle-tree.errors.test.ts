import { describe, expect, it } from 'vitest';
import { isCairnError, type ErrorCode } from '../../src/errors/index.js';
import { createConcurrentMerkleTree, createIndexedMerkleTree, toBytes32 } from '../../src/devnet/trees/merkle.js';
import { keccakNode } from '../../src/devnet/das/leaf.js';
import { dispatchRpc, type RpcCall } from '../../src/devnet/http/dispatch.js';
import type { DevnetChain } from '../../src/devnet/chain/contract.js';
import { resolveFastRules } from '../../src/devnet/http/fast.js';

/** The error `fn` throws (fails when it throws nothing). */
function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  throw new Error('expected a throw');
}

const tree = () => createConcurrentMerkleTree({ depth: 3, hash: keccakNode });
const indexed = () => createIndexedMerkleTree({ height: 8, hash2: keccakNode, leafHash: (a, b, c) => keccakNode(keccakNode(a, b), c) });

// Each case: what the caller did, the code and field the error must carry, and the old message text.
const cases: { what: string; fn: () => unknown; code: ErrorCode; field?: string; message: RegExp }[] = [
  { what: 'depth 0', fn: () => createConcurrentMerkleTree({ depth: 0, hash: keccakNode }), code: 'INPUT_INVALID', field: 'depth', message: /^"depth": expected an integer 1\.\.32, got 0$/ },
  { what: 'maxBufferSize 0', fn: () => createConcurrentMerkleTree({ depth: 3, hash: keccakNode, maxBufferSize: 0 }), code: 'INPUT_INVALID', field: 'maxBufferSize', message: /^"maxBufferSize": expected a positive integer, got 0$/ },
  { what: 'canopyDepth = depth', fn: () => createConcurrentMerkleTree({ depth: 3, hash: keccakNode, canopyDepth: 3 }), code: 'INPUT_INVALID', field: 'canopyDepth', message: /^"canopyDepth": expected/ },
  { what: 'a 31-byte leaf', fn: () => tree().append(new Uint8Array(31)), code: 'INPUT_INVALID', field: 'leaf', message: /^"leaf": expected 32 bytes, got 31$/ },
  { what: 'an index past the tree', fn: () => tree().proof(8), code: 'INPUT_INVALID', field: 'index', message: /^"index": expected an integer 0\.\.7, got 8$/ },
  { what: 'a level past the root', fn: () => tree().zero(4), code: 'INPUT_INVALID', field: 'level', message: /^"level": expected 0\.\.3, got 4$/ },
  {
    what: 'a full tree',
    fn: () => {
      const t = tree();
      for (let i = 0; i < 8; i++) t.append(new Uint8Array(32));
      t.append(new Uint8Array(32));
    },
    code: 'INPUT_INVALID',
    field: 'tree',
    message: /^tree is full \(8 leaves\)$/,
  },
  { what: 'an address of 0', fn: () => indexed().insert(0n), code: 'INPUT_INVALID', field: 'address', message: /^"address": expected a value in/ },
  {
    what: 'an address twice',
    fn: () => {
      const t = indexed();
      t.insert(5n);
      t.insert(5n);
    },
    code: 'INPUT_INVALID',
    field: 'address',
    message: /^"address": 5 already exists in the tree$/,
  },
  {
    what: 'a proof of absence of a present address',
    fn: () => {
      const t = indexed();
      t.insert(5n);
      t.nonInclusionProof(5n);
    },
    code: 'INPUT_INVALID',
    field: 'address',
    message: /already exists/,
  },
  { what: 'an element that is not there', fn: () => indexed().element(99), code: 'INPUT_INVALID', field: 'index', message: /^"index": no element 99$/ },
  { what: 'toBytes32 of a negative value', fn: () => toBytes32(-1n), code: 'INTERNAL', message: /^value out of range for 32 bytes: -1$/ },
  { what: 'toBytes32 of 2^256', fn: () => toBytes32(1n << 256n), code: 'INTERNAL', message: /^value out of range for 32 bytes/ },
];

describe('merkle-tree: typed errors', () => {
  for (const c of cases) {
    it(`${c.what}: ${c.code}${c.field ? ` naming "${c.field}"` : ''}, same message`, () => {
      const e = thrown(c.fn);
      expect(isCairnError(e, c.code), String(e)).toBe(true);
      expect((e as Error).message).toMatch(c.message);
      if (c.field !== undefined && isCairnError(e, 'INPUT_INVALID')) expect(e.context.field).toBe(c.field);
      if (isCairnError(e, 'INTERNAL')) expect(e.context.invariant).toMatch(/toBytes32/);
    });
  }
});

describe('merkle-tree errors through JSON-RPC', () => {
  const call: RpcCall = { endpoint: 'rpc', signalOf: () => new AbortController().signal, drop: false, swqosOnly: false };
  const methods = new Map<string, (p: unknown) => unknown>(cases.map((c, i) => [`case${i}`, () => c.fn()]));
  const deps = { chain: {} as DevnetChain, fastRules: resolveFastRules(), methods, log: () => {} };

  for (const [i, c] of cases.entries()) {
    it(`${c.what}: ${c.code === 'INTERNAL' ? '-32603 Internal error' : `-32602 Invalid params naming "${c.field}"`}`, async () => {
      const r = await dispatchRpc(deps, { jsonrpc: '2.0', id: i, method: `case${i}` }, call);
      const error = (r.body as { error: { code: number; message: string } }).error;
      if (c.code === 'INTERNAL') {
        expect(error.code).toBe(-32603);
        expect(error.message).toMatch(/^Internal error: /);
      } else {
        expect(error.code).toBe(-32602);
        expect(error.message).toMatch(/^Invalid params: /);
        if (c.field !== 'tree') expect(error.message).toContain(`"${c.field}"`);
        else expect(error.message).toMatch(/tree is full/);
      }
    });
  }
});
