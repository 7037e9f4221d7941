/**
 * Helpers for the devnet tests: keypairs and signed transfers built on bytes with node:crypto (no
 * @solana/web3.js import, which costs seconds per test file on a loaded machine), and plain-fetch
 * JSON-RPC calls (the tests check status codes and headers the typed client hides).
 */
import { randomBytes } from 'node:crypto';
import bs58 from 'bs58';
import { keypairFromSeed, type DevnetKeypair } from '../../src/devnet/chain/keypair.js';
import { DEFAULT_TIP_ACCOUNTS } from '../../src/devnet/http/fast.js';
import { DevnetRpcError } from '../../src/devnet/types.js';
import { expect } from 'vitest';

export const LAMPORTS_PER_SOL = 1_000_000_000;
const SYSTEM = new Uint8Array(32);
const COMPUTE_BUDGET = bs58.decode('ComputeBudget111111111111111111111111111111');

/** A keypair with the two accessors the tests use from web3.js' Keypair. */
export type TestKeypair = Omit<DevnetKeypair, 'publicKey'> & {
  publicKey: { toBase58(): string; toBytes(): Uint8Array };
};

export function newKeypair(): TestKeypair {
  const kp = keypairFromSeed(new Uint8Array(randomBytes(32)));
  return { ...kp, publicKey: { toBase58: () => kp.address, toBytes: () => kp.publicKey } };
}

/** A fresh random address. */
export const newAddress = (): string => newKeypair().address;

export const TIP = DEFAULT_TIP_ACCOUNTS[0]!;

export interface TxSpec {
  payer: TestKeypair;
  /** Recipient address (random when omitted). */
  to?: string;
  lamports?: number;
  blockhash: string;
  /** µlamports per CU; omit for no setComputeUnitPrice. */
  cuPrice?: number;
  /** Tip in lamports to a tip account; omit for none. */
  tip?: number;
  tipTo?: string;
}

function u64(v: number | bigint): Uint8Array {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, BigInt(v), true);
  return b;
}

/** A signed legacy transaction: [setComputeUnitPrice], transfer payer → to, [transfer payer → tip]. */
export function buildTx(s: TxSpec): Buffer {
  const writable = [s.payer.publicKey.toBytes(), bs58.decode(s.to ?? newAddress())];
  if (s.tip !== undefined) writable.push(bs58.decode(s.tipTo ?? TIP));
  const readonly = [SYSTEM, ...(s.cuPrice !== undefined ? [COMPUTE_BUDGET] : [])];
  const keys = [...writable, ...readonly];
  const sys = writable.length;
  const ixs: number[][] = [];
  if (s.cuPrice !== undefined) ixs.push([sys + 1, 0, 9, 3, ...u64(s.cuPrice)]);
  const transfer = (to: number, lamports: number) => [sys, 2, 0, to, 12, 2, 0, 0, 0, ...u64(lamports)];
  ixs.push(transfer(1, s.lamports ?? 1_000_000));
  if (s.tip !== undefined) ixs.push(transfer(2, s.tip));
  const msg = Uint8Array.from([
    1, 0, readonly.length, keys.length,
    ...keys.flatMap((k) => [...k]),
    ...bs58.decode(s.blockhash),
    ixs.length,
    ...ixs.flat(),
  ]);
  return Buffer.concat([Uint8Array.of(1), s.payer.sign(msg), msg]);
}

export async function rpc(url: string, method: string, params: unknown, path = '/'): Promise<{ status: number; headers: Headers; body: any }> {
  const res = await fetch(new URL(path, url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: '1', method, params }),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

export function fastParams(wire: Uint8Array, extra: Record<string, unknown> = {}): unknown[] {
  return [Buffer.from(wire).toString('base64'), { encoding: 'base64', skipPreflight: true, maxRetries: 0, ...extra }];
}

export async function waitFor<T>(fn: () => T | null | undefined | false, timeoutMs = 10_000, stepMs = 10): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > end) throw new Error('waitFor: timed out');
    await new Promise((r) => setTimeout(r, stepMs));
  }
}

/** Run a state-module handler that must refuse: returns its DevnetRpcError (fails the test otherwise). */
export function rpcError(fn: () => unknown): DevnetRpcError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(DevnetRpcError);
    return e as DevnetRpcError;
  }
  throw new Error('expected a DevnetRpcError');
}
