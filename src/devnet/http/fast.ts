/**
 * The rules of the `/fast` submission host, as the real one enforces them (see the project's
 * sender notes): JSON-RPC `sendTransaction` only; `params[1].maxRetries` must be 0; encoding
 * `base58` or `base64`; the transaction must carry a `setComputeUnitPrice` instruction and a System
 * transfer of at least the minimum tip to one of the tip accounts (`swqos_only=true` lowers the
 * minimum). Violations answer HTTP 400 with JSON-RPC -32602 and a message naming what is missing.
 * `sendBundle` (Sender Max bundles, up to 5 transactions) is checked by the same rules in `fastSendBundle`.
 * The minima and the tip accounts are configuration with the provider's latest known defaults.
 */
import { createHash } from 'node:crypto';
import { isPlainObject } from '../../assert.js';
import { base58TooLong, maxBase58Length } from '../../base58-bound.js';
import { CairnError, InputError } from '../../errors/index.js';
import { base58Bytes, encodeBase58, readFastRules, type ParsedTransaction } from '../../solana/index.js';
import { parseSubmitted } from '../chain/parse-submitted.js';
import { DevnetRpcError } from '../types.js';
import { DEFAULT_MIN_TIP_LAMPORTS, DEFAULT_TIP_ACCOUNTS } from '../../tips.js';

export { DEFAULT_TIP_ACCOUNTS };

export interface FastRules {
  /** Tip accounts (base58). */
  tipAccounts?: readonly string[];
  /** Minimum tip with dual routing, lamports (default 1,000,000 = 0.001 SOL). */
  minTipLamports?: bigint;
  /** Minimum tip with `swqos_only=true`, lamports (default 5,000 = 0.000005 SOL). */
  minTipLamportsSwqos?: bigint;
}

export interface ResolvedFastRules {
  tipAccounts: Set<string>;
  /** The same accounts as hex of their bytes. */
  tipAccountsHex: Set<string>;
  /** And as bytes: the hot path compares bytes, never strings. */
  tipAccountsBytes: Uint8Array[];
  minTipLamports: bigint;
  minTipLamportsSwqos: bigint;
}

export function resolveFastRules(r: FastRules = {}): ResolvedFastRules {
  const tips = r.tipAccounts ?? DEFAULT_TIP_ACCOUNTS;
  const hex = new Set<string>();
  const bytes: Uint8Array[] = [];
  tips.forEach((t, i) => {
    if (typeof t === 'string' && base58TooLong(t, 32)) throw new InputError(`fast.tipAccounts[${i}]`, `expected a 32-byte address, got ${t.length} characters`);
    let b: Uint8Array;
    try {
      b = base58Bytes(t);
    } catch (cause) {
      throw new InputError(`fast.tipAccounts[${i}]`, `not base58: ${JSON.stringify(t)}`, { cause });
    }
    if (b.length !== 32) throw new InputError(`fast.tipAccounts[${i}]`, `expected a 32-byte address, got ${b.length} bytes`);
    hex.add(Buffer.from(b).toString('hex'));
    bytes.push(Uint8Array.from(b));
  });
  for (const [k, v] of [['minTipLamports', r.minTipLamports], ['minTipLamportsSwqos', r.minTipLamportsSwqos]] as const) {
    if (v !== undefined && (typeof v !== 'bigint' || v < 0n)) throw new InputError(`fast.${k}`, `expected a bigint ≥ 0, got ${String(v)}`);
  }
  return {
    tipAccountsHex: hex,
    tipAccountsBytes: bytes,
    tipAccounts: new Set(tips),
    minTipLamports: r.minTipLamports ?? DEFAULT_MIN_TIP_LAMPORTS.dual,
    minTipLamportsSwqos: r.minTipLamportsSwqos ?? DEFAULT_MIN_TIP_LAMPORTS.swqosOnly,
  };
}

const invalid = (message: string, data?: unknown) => new DevnetRpcError(-32602, message, 400, data);

/** A transaction fits one packet: the real RPC refuses anything larger, and so does the devnet. */
const PACKET_DATA_SIZE = 1232;

/** Decode `params[0]` in the given encoding; throws -32602 naming the problem. */
export function decodeTransactionParam(encoded: unknown, encoding: string): Uint8Array {
  if (typeof encoded !== 'string' || encoded.length === 0) {
    throw invalid('Invalid request: params[0] must be the signed transaction as a non-empty string');
  }
  let bytes: Uint8Array;
  if (encoding === 'base64') {
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(encoded)) throw invalid('Invalid request: params[0] is not valid base64');
    bytes = new Uint8Array(Buffer.from(encoded, 'base64'));
  } else if (encoding === 'base58') {
    if (base58TooLong(encoded, PACKET_DATA_SIZE)) {
      throw invalid(`Invalid request: params[0] is too large: ${encoded.length} characters of base58 (max: encoded/raw ${maxBase58Length(PACKET_DATA_SIZE)}/${PACKET_DATA_SIZE})`);
    }
    try {
      bytes = base58Bytes(encoded);
    } catch {
      throw invalid('Invalid request: params[0] is not valid base58');
    }
  } else {
    throw invalid(`Invalid request: params[1].encoding must be "base58" or "base64", got ${JSON.stringify(encoding)}`);
  }
  return bytes;
}

export interface FastSubmission {
  wire: Uint8Array;
  parsed: ParsedTransaction;
}

/**
 * Check a `/fast` `sendTransaction` call against the host's rules. Returns the wire bytes to submit
 * or throws `DevnetRpcError(-32602, …, 400)` with a message that names what is missing.
 *
 * @example
 * const { wire } = checkFastSendTransaction(params, { swqosOnly: false }, resolveFastRules());
 */
export function checkFastSendTransaction(
  params: unknown,
  opts: { swqosOnly: boolean },
  rules: ResolvedFastRules,
): FastSubmission {
  if (!Array.isArray(params) || params.length < 1) {
    throw invalid('Invalid request: params must be an array [transaction, options]');
  }
  const config = params[1] as Record<string, unknown> | undefined;
  if (config !== undefined && !isPlainObject(config)) {
    throw invalid('Invalid request: params[1] must be an options object');
  }
  const encoding = config?.encoding ?? 'base58';
  if (typeof encoding !== 'string') throw invalid('Invalid request: params[1].encoding must be a string');
  if (config?.maxRetries !== 0) {
    throw invalid(
      `Invalid request: params[1].maxRetries must be 0 (the client rebroadcasts itself), got ${config?.maxRetries === undefined ? 'nothing' : JSON.stringify(config.maxRetries)}`,
    );
  }
  if (config.skipPreflight !== undefined && typeof config.skipPreflight !== 'boolean') {
    throw invalid('Invalid request: params[1].skipPreflight must be a boolean');
  }
  const wire = decodeTransactionParam(params[0], encoding);
  let parsed: ParsedTransaction;
  try {
    parsed = parseSubmitted(wire);
  } catch (e) {
    throw invalid(`Invalid request: params[0] is not a transaction: ${e instanceof CairnError ? e.message : String(e)}`);
  }
  const missing: string[] = [];
  const keys: string[] = [];
  const read = readFastRules(parsed.parts, rules.tipAccountsBytes);
  if (read.cuPrice === undefined) {
    keys.push('computeUnitPrice');
    missing.push('a priority fee (ComputeBudgetProgram.setComputeUnitPrice instruction)');
  }
  const min = opts.swqosOnly ? rules.minTipLamportsSwqos : rules.minTipLamports;
  const tip = read.tip?.lamports ?? 0n;
  if (tip < min) {
    keys.push('tip');
    missing.push(
      tip === 0n
        ? `a tip (System transfer of at least ${min} lamports to one of the ${rules.tipAccounts.size} tip accounts${opts.swqosOnly ? ', swqos_only' : ''})`
        : `a large enough tip (${tip} lamports to tip accounts, minimum ${min}${opts.swqosOnly ? ' with swqos_only' : ''})`,
    );
  }
  if (missing.length) {
    throw invalid(`Invalid request: transaction is missing ${missing.join(' and ')}`, { missing: keys });
  }
  return { wire, parsed };
}

/** A Sender bundle carries at most this many transactions (the provider's and Jito's limit). */
const MAX_BUNDLE_TRANSACTIONS = 5;

/**
 * Check a `/fast` `sendBundle` call — `[[tx, …], { encoding }]`, 1..5 signed transactions — and submit
 * its transactions in order through `submit`. Every transaction must decode and carry a priority fee
 * (the /fast rule); the tip is the bundle's, as the provider documents for Sender Max bundles: the
 * tips of all its transactions together must reach the dual-routing minimum (bundles never go
 * swqos-only). Nothing is submitted unless the whole bundle passes. The devnet executes the
 * transactions one after another, not atomically: one that fails on chain does not undo the others.
 * Returns the bundle id: hex SHA-256 of the signatures (base58, comma-joined).
 *
 * @example
 * const id = fastSendBundle(params, resolveFastRules(), (wire, parsed, sig) => chain.submitParsed(wire, parsed, sig).signature);
 */
export function fastSendBundle(
  params: unknown,
  rules: ResolvedFastRules,
  submit: (wire: Uint8Array, parsed: ParsedTransaction, signature: string) => string,
): string {
  if (!Array.isArray(params) || params.length < 1 || !Array.isArray(params[0])) {
    throw invalid('Invalid request: params must be [[transaction, …], options]');
  }
  const txs = params[0] as unknown[];
  if (txs.length < 1 || txs.length > MAX_BUNDLE_TRANSACTIONS) {
    throw invalid(`Invalid request: a bundle holds 1..${MAX_BUNDLE_TRANSACTIONS} transactions, got ${txs.length}`);
  }
  const config = params[1] as Record<string, unknown> | undefined;
  if (config !== undefined && !isPlainObject(config)) throw invalid('Invalid request: params[1] must be an options object');
  const encoding = config?.encoding ?? 'base58';
  if (typeof encoding !== 'string') throw invalid('Invalid request: params[1].encoding must be a string');
  const checked: FastSubmission[] = [];
  const signatures: string[] = [];
  let tip = 0n;
  txs.forEach((encoded, i) => {
    let wire: Uint8Array;
    let parsed: ParsedTransaction;
    try {
      wire = decodeTransactionParam(encoded, encoding);
      parsed = parseSubmitted(wire);
    } catch (e) {
      const why = e instanceof DevnetRpcError ? e.message.replace(/^Invalid request: params\[0\]/, 'is') : e instanceof CairnError ? `is not a transaction: ${e.message}` : String(e);
      throw invalid(`Invalid request: params[0][${i}] ${why}`, { index: i });
    }
    const read = readFastRules(parsed.parts, rules.tipAccountsBytes);
    if (read.cuPrice === undefined) {
      throw invalid(`Invalid request: params[0][${i}] is missing a priority fee (ComputeBudgetProgram.setComputeUnitPrice instruction)`, { index: i, missing: ['computeUnitPrice'] });
    }
    tip += read.tip?.lamports ?? 0n;
    checked.push({ wire, parsed });
    signatures.push(encodeBase58(parsed.signatures[0]!));
  });
  if (tip < rules.minTipLamports) {
    throw invalid(
      `Invalid request: bundle is missing ${tip === 0n ? 'a tip' : 'a large enough tip'} (${tip} lamports to tip accounts across its transactions, minimum ${rules.minTipLamports} in at least one of them)`,
      { missing: ['tip'] },
    );
  }
  if (new Set(signatures).size !== signatures.length) throw invalid('Invalid request: a bundle cannot hold the same transaction twice');
  checked.forEach((s, i) => submit(s.wire, s.parsed, signatures[i]!));
  return createHash('sha256').update(signatures.join(',')).digest('hex');
}
