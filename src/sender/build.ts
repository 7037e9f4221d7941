/**
 * From what the caller gives (instructions + signers, an unsigned web3.js transaction, or signed
 * wire bytes) to signed wire bytes `/fast` accepts: a compute-unit limit (fixed or simulated ×
 * margin), a compute-unit price (fixed or estimated × multiplier, always capped), a tip to a random
 * tip account (fixed, the routing minimum, or automatic, always capped), a recent blockhash, and the
 * signatures. What the caller already put in (a CU price, a CU limit, a tip) is kept, not doubled.
 *
 * Blockhash, fee estimate and automatic tip are cached for a short while and shared by every send,
 * so a burst of 1,000 transfers costs one `getLatestBlockhash`, not 1,000.
 */
import { BadResponseError, CairnError, ErrorCodes, InputError, RpcError, TransactionFailedError } from '../errors.js';
import { sleep } from '../rpc/retry.js';
import { senderAbortError } from './abort.js';
import { addressBytes, addressText, type AddressLike } from '../solana/address.js';
import { encodeBase58 } from '../solana/base58.js';
import { minimumTip, type ResolvedSenderOptions } from './config.js';
import { assertSendable } from './inspect.js';
import { readFastRulesOfInstructions, tipAccountBytes } from '../solana/fast-rules.js';
import { computeUnitLimitInstruction, computeUnitPriceInstruction, transferInstruction } from '../solana/instructions.js';
import type { JournalPlan } from './journal.js';
import { normalizeBlockhash, type SenderRpc } from './rpc.js';
import { toSigner, type Signer, type SignerInput } from '../solana/signer.js';
import { compileMessage, parseTransaction, signMessageParts, type InstructionInput, type LookupTableInput, type TransactionVersion } from '../solana/wire.js';

/** Instructions and signers: cairn builds the transaction. */
export interface InstructionsInput {
  instructions: readonly InstructionInput[];
  /** Fee payer (signs). */
  payer: SignerInput;
  /** Other signers the instructions need. */
  signers?: readonly SignerInput[];
  version?: TransactionVersion;
  lookupTables?: readonly LookupTableInput[];
}

/**
 * An unsigned web3.js `Transaction` or `VersionedTransaction`: cairn keeps its instructions, adds
 * what is missing (CU limit, CU price, tip), puts in a fresh blockhash (so it knows the expiry) and
 * signs with `signers`.
 */
export interface TransactionInput {
  transaction: unknown;
  signers: readonly SignerInput[];
  /** Needed to rebuild a v0 message that uses lookup tables. */
  lookupTables?: readonly LookupTableInput[];
}

/** Signed wire bytes: sent as they are, after checking tip and CU price. */
export interface WireInput {
  wire: Uint8Array;
  /** The blockhash's last valid block height, when known (else cairn assumes the longest possible life). */
  lastValidBlockHeight?: number;
}

export type SendInput = InstructionsInput | TransactionInput | WireInput | Uint8Array;

/** A send normalised: either a plan cairn can (re)build and sign, or fixed signed bytes. */
export type Prepared =
  | { kind: 'plan'; payer: string; instructions: InstructionInput[]; version: TransactionVersion; lookupTables: LookupTableInput[]; signers: Signer[] }
  | { kind: 'wire'; wire: Uint8Array; signature: string; recentBlockhash: string; lastValidBlockHeight?: number };

export interface Built {
  wire: Uint8Array;
  signature: string;
  lastValidBlockHeight: number;
  buildMs: number;
  cuPrice: bigint;
  cuLimit?: number;
  tipLamports: bigint;
}

/** Turn any accepted input into a `Prepared`, validating at the boundary. */
export function prepareInput(input: SendInput, cfg: ResolvedSenderOptions): Prepared {
  if (input instanceof Uint8Array) input = { wire: input };
  if (!input || typeof input !== 'object') throw new InputError('input', 'expected { instructions, payer }, { transaction, signers } or { wire }');
  if ('wire' in input) {
    if (!(input.wire instanceof Uint8Array)) throw new InputError('input.wire', 'expected a Uint8Array');
    const s = assertSendable(input.wire, { tipAccounts: cfg.tipAccounts, minTipLamports: minimumTip(cfg) });
    const lv = input.lastValidBlockHeight;
    if (lv !== undefined && (!Number.isSafeInteger(lv) || lv < 0)) throw new InputError('input.lastValidBlockHeight', 'expected a non-negative integer');
    return { kind: 'wire', wire: input.wire, signature: s.signature, recentBlockhash: s.recentBlockhash, ...(lv !== undefined ? { lastValidBlockHeight: lv } : {}) };
  }
  if ('instructions' in input) {
    if (!Array.isArray(input.instructions) || input.instructions.length === 0) {
      throw new InputError('input.instructions', 'expected a non-empty array of instructions');
    }
    const payer = toSigner(input.payer, 'input.payer');
    const signers = [payer, ...(input.signers ?? []).map((s, i) => toSigner(s, `input.signers[${i}]`))];
    const version = input.version ?? (input.lookupTables?.length ? 0 : 'legacy');
    return { kind: 'plan', payer: payer.address, instructions: [...input.instructions], version, lookupTables: [...(input.lookupTables ?? [])], signers };
  }
  if ('transaction' in input) return fromWeb3(input, cfg);
  throw new InputError('input', 'expected { instructions, payer }, { transaction, signers } or { wire }');
}

function fromWeb3(input: TransactionInput, _cfg: ResolvedSenderOptions): Prepared {
  const tx = input.transaction as {
    instructions?: InstructionInput[];
    feePayer?: AddressLike;
    message?: { serialize(): Uint8Array; version?: unknown };
    version?: unknown;
  };
  if (!Array.isArray(input.signers) || input.signers.length === 0) throw new InputError('input.signers', 'expected at least the fee payer');
  const signers = input.signers.map((s, i) => toSigner(s, `input.signers[${i}]`));
  if (tx && Array.isArray(tx.instructions)) {
    // legacy web3.js Transaction
    const payer = tx.feePayer ? addressText(tx.feePayer, 'transaction.feePayer') : signers[0].address;
    return { kind: 'plan', payer, instructions: [...tx.instructions], version: 'legacy', lookupTables: [], signers };
  }
  if (tx && tx.message && typeof tx.message.serialize === 'function') {
    // VersionedTransaction: decompile its message back into instructions
    const msg = tx.message.serialize();
    const n = (msg[0] & 0x80 ? msg[1] : msg[0]) ?? 0;
    const fake = new Uint8Array(1 + 64 * n + msg.length);
    fake[0] = n; // < 128 signers always fits one compact-u16 byte
    fake.set(msg, 1 + 64 * n);
    const { parts } = parseTransaction(fake);
    const keys: string[] = parts.staticKeys.map((k) => encodeBase58(k));
    const h = parts.header;
    const nStatic = keys.length;
    const writable = (i: number): boolean =>
      i < h.numRequiredSignatures ? i < h.numRequiredSignatures - h.numReadonlySignedAccounts : i < nStatic - h.numReadonlyUnsignedAccounts;
    const flags = keys.map((_, i) => ({ signer: i < h.numRequiredSignatures, writable: writable(i) }));
    const tables = input.lookupTables ?? [];
    const looked: { key: string; w: boolean }[] = [];
    const lw: string[] = [];
    const lr: string[] = [];
    for (const l of parts.lookups) {
      const key = encodeBase58(l.key);
      const table = tables.find((t) => addressText(t.key, 'lookupTables[].key') === key);
      if (!table) throw new InputError('input.lookupTables', `the message uses lookup table ${key}; pass its addresses to rebuild it`);
      const addrs = 'addresses' in table ? table.addresses : table.state.addresses;
      for (const i of Array.from(l.writableIndexes)) lw.push(addressText(addrs[i], 'lookup address'));
      for (const i of Array.from(l.readonlyIndexes)) lr.push(addressText(addrs[i], 'lookup address'));
    }
    for (const a of lw) looked.push({ key: a, w: true });
    for (const a of lr) looked.push({ key: a, w: false });
    const all = [...keys.map((k, i) => ({ key: k, signer: flags[i].signer, writable: flags[i].writable })), ...looked.map((l) => ({ key: l.key, signer: false, writable: l.w }))];
    const instructions: InstructionInput[] = parts.instructions.map((ix) => ({
      programId: keys[ix.programIdIndex],
      keys: Array.from(ix.accounts).map((a) => ({ pubkey: all[a].key, isSigner: all[a].signer, isWritable: all[a].writable })),
      data: new Uint8Array(ix.data),
    }));
    return { kind: 'plan', payer: keys[0], instructions, version: parts.version, lookupTables: [...tables], signers };
  }
  throw new InputError('input.transaction', 'expected a web3.js Transaction or VersionedTransaction');
}

/** A plan as the journal stores it (no secrets): enough to rebuild and re-sign after a crash. */
export function planToJournal(p: Extract<Prepared, { kind: 'plan' }>): JournalPlan {
  return {
    payer: p.payer,
    version: p.version,
    instructions: p.instructions.map((ix, i) => ({
      programId: addressText(ix.programId, `instructions[${i}].programId`),
      keys: ix.keys.map((k, j) => [addressText(k.pubkey, `instructions[${i}].keys[${j}]`), !!k.isSigner, !!k.isWritable] as [string, boolean, boolean]),
      data: Buffer.from(ix.data).toString('base64'),
    })),
    ...(p.lookupTables.length
      ? {
          lookupTables: p.lookupTables.map((t) => ({
            key: addressText(t.key, 'lookupTables[].key'),
            addresses: ('addresses' in t ? t.addresses : t.state.addresses).map((a) => addressText(a, 'lookupTables[].addresses[]')),
          })),
        }
      : {}),
  };
}

/** Rebuild a plan from the journal with signers found in `keyring` (by address). */
export function planFromJournal(j: JournalPlan, keyring: ReadonlyMap<string, Signer>): Extract<Prepared, { kind: 'plan' }> | { missing: string[] } {
  const instructions: InstructionInput[] = j.instructions.map((ix) => ({
    programId: ix.programId,
    keys: ix.keys.map(([pubkey, isSigner, isWritable]) => ({ pubkey, isSigner, isWritable })),
    data: new Uint8Array(Buffer.from(ix.data, 'base64')),
  }));
  const needed = new Set<string>([j.payer]);
  for (const ix of j.instructions) for (const [k, s] of ix.keys) if (s) needed.add(k);
  const signers: Signer[] = [];
  const missing: string[] = [];
  for (const a of needed) {
    const s = keyring.get(a);
    if (s) signers.push(s);
    else missing.push(a);
  }
  if (missing.length) return { missing };
  return { kind: 'plan', payer: j.payer, instructions, version: j.version, lookupTables: j.lookupTables ?? [], signers };
}

interface Cached<T> {
  value?: T;
  at: number;
  inflight?: Promise<T>;
}

export interface BuildOptions {
  signal: AbortSignal;
  freshBlockhash?: boolean;
  minLastValidBlockHeight?: number;
  /**
   * Called with each signature before it is returned; `false` means another intent already owns it
   * (identical instructions, payer and blockhash sign to identical bytes), and the build makes its
   * transaction distinct: a compute-unit price one µlamport apart, else a compute-unit limit one
   * unit apart, else a tip one lamport apart, else a newer blockhash.
   */
  claim?: (signature: string, lastValidBlockHeight: number) => boolean;
}

export interface Builder {
  build(p: Extract<Prepared, { kind: 'plan' }>, o: BuildOptions): Promise<Built>;
  /** Latest blockhash (cached); `fresh` forces a new fetch. */
  blockhash(signal: AbortSignal, fresh?: boolean): Promise<{ blockhash: string; lastValidBlockHeight: number }>;
}

/** What the caller's instructions already carry, read by the one `/fast` rule (solana/fast-rules.ts). */
export function scan(ixs: readonly InstructionInput[], tipAccounts: readonly string[]): { price: boolean; limit: boolean; tip?: bigint } {
  const r = readFastRulesOfInstructions(ixs, tipAccountBytes(tipAccounts));
  // The tip is summed, as the /fast check counts it: several small tips make one.
  return { price: r.cuPrice !== undefined, limit: r.cuLimit !== undefined, ...(r.tip ? { tip: r.tip.lamports } : {}) };
}

/**
 * The builder: caches (blockhash, fee estimate, automatic tip) and the build itself.
 *
 * @example
 * const b = createBuilder(client, resolveSenderConfig({ cuPrice: 200_000, cuLimit: 1_000 }));
 * const built = await b.build(prepareInput({ instructions, payer }, cfg), { signal });
 */
export function createBuilder(rpc: SenderRpc, cfg: ResolvedSenderOptions): Builder {
  const bh: Cached<{ blockhash: string; lastValidBlockHeight: number }> = { at: 0 };
  const fee: Cached<bigint | undefined> = { at: 0 };
  const autoTip: Cached<bigint> = { at: 0 };

  const cached = async <T>(c: Cached<T>, ttl: number, fetch: () => Promise<T>, fresh = false): Promise<T> => {
    if (!fresh && c.value !== undefined && Date.now() - c.at < ttl) return c.value;
    if (c.inflight) return c.inflight;
    const p = fetch().then(
      (v) => {
        c.value = v;
        c.at = Date.now();
        c.inflight = undefined;
        return v;
      },
      (e: unknown) => {
        c.inflight = undefined;
        throw e;
      },
    );
    c.inflight = p;
    return p;
  };

  // Shared fetches run under the builder's own signal-free promise: one caller's abort must not
  // fail everyone waiting on the same fetch. Each caller still stops waiting on its own abort.
  const race = <T>(p: Promise<T>, signal: AbortSignal): Promise<T> => {
    if (signal.aborted) return Promise.reject(senderAbortError(signal, 'build'));
    return new Promise<T>((resolve, reject) => {
      const on = (): void => reject(senderAbortError(signal, 'build'));
      signal.addEventListener('abort', on, { once: true });
      p.then(
        (v) => {
          signal.removeEventListener('abort', on);
          resolve(v);
        },
        (e: unknown) => {
          signal.removeEventListener('abort', on);
          reject(e);
        },
      );
    });
  };

  const blockhash = (signal: AbortSignal, fresh = false) =>
    race(
      cached(bh, cfg.blockhashTtlMs, async () => normalizeBlockhash(await rpc.getLatestBlockhash({ commitment: 'confirmed' })), fresh),
      signal,
    );

  const cuPrice = async (signal: AbortSignal, feeKey: string): Promise<bigint> => {
    const c = cfg.cuPrice;
    if (typeof c === 'bigint') return c;
    // `undefined` = the cluster does not serve the method: never cached, so a cluster that gains it
    // (or a transient answer mistaken for it) is asked again on the next build.
    const est = await race(
      cached<bigint | undefined>(fee, c.refreshMs, async () => {
        let r: unknown;
        try {
          r = await rpc.getPriorityFeeEstimate({ accountKeys: [feeKey], options: { priorityLevel: c.estimate } });
        } catch (e) {
          // Only "this cluster has no such method" falls back (docs/sender.md: not every cluster
          // serves it). A bad key, a rate limit, a server error or a bug must be seen, not hidden.
          if (isUnsupportedMethod(e)) return undefined;
          throw e;
        }
        const v = (r as { priorityFeeEstimate?: unknown } | null)?.priorityFeeEstimate;
        const n = typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : NaN;
        if (!Number.isFinite(n) || n < 0) {
          throw new BadResponseError(ErrorCodes.RPC_BAD_RESPONSE, `getPriorityFeeEstimate: "priorityFeeEstimate" expected a number >= 0, got ${safeText(v)}`, {
            context: { method: 'getPriorityFeeEstimate', path: 'priorityFeeEstimate', detail: safeText(v) },
          });
        }
        return BigInt(Math.ceil(n * c.multiplier));
      }),
      signal,
    );
    const price = est ?? cfg.fallbackCuPrice;
    return price > cfg.maxCuPrice ? cfg.maxCuPrice : price;
  };

  const tipAmount = async (signal: AbortSignal): Promise<bigint> => {
    const min = minimumTip(cfg);
    const t = cfg.tip;
    if (t === 'min') return min;
    if (typeof t === 'bigint') return t;
    const floor = await race(
      cached(autoTip, t.refreshMs, async () => {
        const v = await t.auto(signal);
        if (typeof v === 'number' && Number.isFinite(v) && v >= 0) return BigInt(Math.ceil(v));
        if (typeof v === 'bigint' && v >= 0n) return v;
        throw new InputError('tip.auto', `returned ${String(v)}, expected non-negative lamports`);
      }),
      signal,
    );
    // Feeds spike: clamp to [minimum, cap].
    return floor < min ? min : floor > cfg.maxTipLamports ? cfg.maxTipLamports : floor;
  };

  const build: Builder['build'] = async (p, o) => {
    const t0 = performance.now();
    const have = scan(p.instructions, cfg.tipAccounts);
    const min = minimumTip(cfg);
    if (have.tip !== undefined && have.tip < min) {
      throw new CairnError(ErrorCodes.SENDER_MISSING_TIP, `the instructions tip ${have.tip} lamports, below the minimum ${min} for this routing mode`, {
        context: { tipLamports: have.tip.toString(), minTipLamports: min.toString() },
      });
    }
    const [first, price, tip] = await Promise.all([
      blockhash(o.signal, o.freshBlockhash),
      have.price ? Promise.resolve(0n) : cuPrice(o.signal, p.payer),
      have.tip !== undefined ? Promise.resolve(have.tip) : tipAmount(o.signal),
    ]);
    if (o.minLastValidBlockHeight !== undefined && first.lastValidBlockHeight <= o.minLastValidBlockHeight) {
      throw new CairnError(ErrorCodes.SENDER_BLOCKHASH_EXPIRED, 'the RPC returned a blockhash that is already past its window', {
        context: { lastValidBlockHeight: first.lastValidBlockHeight, blockHeight: o.minLastValidBlockHeight },
      });
    }
    let hash = first;
    const tipAccount = cfg.tipAccounts[Math.floor(Math.random() * cfg.tipAccounts.length)];
    let units: number | undefined;
    /** Sign with `salt` applied to the first lever this transaction has (see BuildOptions.claim). */
    const sign = (limit: number | undefined, salt: number): { wire: Uint8Array; signature: string; price: bigint; tip: bigint; units?: number } => {
      const s = BigInt(salt);
      let cuPrice = price;
      let cuUnits = limit;
      let tipLamports = tip;
      const apart = (v: bigint, lo: bigint, hi: bigint): bigint | undefined => (v + s <= hi ? v + s : v - s >= lo ? v - s : undefined);
      if (salt > 0) {
        const p2 = have.price ? undefined : apart(price, 0n, cfg.maxCuPrice);
        const u2 = p2 === undefined && limit !== undefined ? apart(BigInt(limit), 1n, 1_400_000n) : undefined;
        const t2 = p2 === undefined && u2 === undefined && have.tip === undefined ? apart(tip, minimumTip(cfg), cfg.maxTipLamports) : undefined;
        if (p2 !== undefined) cuPrice = p2;
        else if (u2 !== undefined) cuUnits = Number(u2);
        else if (t2 !== undefined) tipLamports = t2;
        else throw NO_LEVER; // caught below: wait for a newer blockhash
      }
      const ixs: InstructionInput[] = [];
      if (cuUnits !== undefined) ixs.push(computeUnitLimitInstruction(cuUnits));
      if (!have.price) ixs.push(computeUnitPriceInstruction(cuPrice));
      ixs.push(...p.instructions);
      if (have.tip === undefined) ixs.push(transferInstruction(p.payer, tipAccount, tipLamports));
      const parts = compileMessage({ payer: p.payer, instructions: ixs, recentBlockhash: hash.blockhash, version: p.version, lookupTables: p.lookupTables });
      const { wire, signatures } = signMessageParts(parts, p.signers);
      return { wire, signature: encodeBase58(signatures[0]), price: cuPrice, tip: tipLamports, ...(cuUnits !== undefined ? { units: cuUnits } : {}) };
    };
    const cl = cfg.cuLimit;
    if (!have.limit) {
      if (typeof cl === 'number') units = cl;
      else {
        const draft = sign(1_400_000, 0);
        const sim = (await race(rpc.simulateTransaction(draft.wire, { sigVerify: false, replaceRecentBlockhash: true }, { signal: o.signal }), o.signal)) as {
          value?: unknown;
        } & Record<string, unknown>;
        const r = (sim && 'value' in sim && 'context' in sim ? sim.value : sim) as { err?: unknown; logs?: string[] | null; unitsConsumed?: unknown } | null;
        if (r && r.err !== null && r.err !== undefined) {
          throw new TransactionFailedError(ErrorCodes.SENDER_TRANSACTION_FAILED, `simulation failed: ${JSON.stringify(r.err)}`, {
            context: { signature: draft.signature, err: r.err, ...(r.logs ? { logs: r.logs } : {}) },
          });
        }
        const consumed = typeof r?.unitsConsumed === 'number' ? r.unitsConsumed : typeof r?.unitsConsumed === 'bigint' ? Number(r.unitsConsumed) : NaN;
        units = Number.isFinite(consumed) && consumed > 0 ? Math.max(cl.min, Math.ceil(consumed * cl.margin)) : cl.fallback;
        units = Math.min(units, 1_400_000);
      }
    }
    // Sign and claim in one synchronous step, so concurrent builds of identical inputs see each other.
    let signed = sign(units, 0);
    for (let salt = 1; o.claim && !o.claim(signed.signature, hash.lastValidBlockHeight); salt++) {
      let next = salt <= 1_000 ? tryOr(() => sign(units, salt)) : undefined;
      if (!next) {
        // Nothing of ours left to vary: only a newer blockhash makes these bytes distinct.
        hash = await newerBlockhash(hash.blockhash, o.signal);
        salt = 0;
        next = sign(units, 0);
      }
      signed = next;
    }
    return {
      wire: signed.wire,
      signature: signed.signature,
      lastValidBlockHeight: hash.lastValidBlockHeight,
      buildMs: performance.now() - t0,
      cuPrice: signed.price,
      ...(signed.units !== undefined ? { cuLimit: signed.units } : {}),
      tipLamports: signed.tip,
    };
  };

  /** Wait for a blockhash other than `than` (a new one comes with each block). */
  const newerBlockhash = async (than: string, signal: AbortSignal): Promise<{ blockhash: string; lastValidBlockHeight: number }> => {
    for (;;) {
      const h = await blockhash(signal, true);
      if (h.blockhash !== than) return h;
      await sleep(Math.max(50, Math.min(400, cfg.blockhashTtlMs)), signal);
    }
  };

  return { build, blockhash };
}

/** Thrown by a salted sign when no lever of the transaction has room left. */
const NO_LEVER = Symbol('no lever');

function tryOr<T>(f: () => T): T | undefined {
  try {
    return f();
  } catch (e) {
    if (e === NO_LEVER) return undefined;
    throw e;
  }
}

/**
 * True when the RPC answered that it does not serve the method: JSON-RPC -32601 ("Method not
 * found"), or a server error whose message says the method is not supported.
 */
export function isUnsupportedMethod(e: unknown): boolean {
  if (!(e instanceof RpcError)) return false;
  return e.rpcCode === -32601 || /method not found|not supported|unsupported method/i.test(e.message);
}

function safeText(v: unknown): string {
  try {
    return v === undefined ? 'undefined' : JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x)).slice(0, 100);
  } catch {
    return String(v);
  }
}
