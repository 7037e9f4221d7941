/**
 * From a plan to signed wire bytes `/fast` accepts: a compute-unit limit (fixed or simulated ×
 * margin), a compute-unit price, a tip to a random tip account and a recent blockhash (their shared,
 * cached values come from inputs.ts), and the signatures. A durable-nonce plan signs with its
 * nonce account's value instead of a blockhash, AdvanceNonceAccount first. What the caller already put in (a CU
 * price, a CU limit, a tip) is kept, not doubled. A signature another intent owns is made distinct
 * before it is handed out (see `BuildOptions.claim`).
 */
import { sleep } from '../../abort.js';
import { CairnError, ErrorCodes, InputError, TransactionFailedError } from '../../errors/index.js';
import {
  encodeBase58,
  readFastRulesOfInstructions,
  tipAccountBytes,
  computeUnitLimitInstruction,
  computeUnitPriceInstruction,
  transferInstruction,
  signMessagePartsAsync,
  advanceNonceInstruction,
  compileMessage,
  type InstructionInput,
} from '../../solana/index.js';
import { createBuildInputs } from './inputs.js';
import { failureHint } from '../intent/failure-hint.js';
import { minimumTip, type ResolvedSenderOptions } from '../config.js';
import type { Prepared } from '../input/prepare.js';
import type { NonceRef } from '../journal/records.js';
import { currentNonce } from './nonce.js';
import type { SenderRpc } from '../client/rpc.js';

export interface Built {
  wire: Uint8Array;
  signature: string;
  /** A durable-nonce build: MAX_SAFE_INTEGER (no height ends it; `nonce` does). */
  lastValidBlockHeight: number;
  /** The durable nonce signed with, for a plan with `nonce`. */
  nonce?: NonceRef;
  buildMs: number;
  cuPrice: bigint;
  cuLimit?: number;
  tipLamports: bigint;
}

export interface BuildOptions {
  signal: AbortSignal;
  freshBlockhash?: boolean;
  minLastValidBlockHeight?: number;
  /** A nonce value proven moved past: a durable-nonce build never signs with it again. */
  staleNonce?: string;
  /**
   * Called with each signature before it is returned; `false` means another intent already owns it
   * (identical instructions, payer and blockhash sign to identical bytes), and the build makes its
   * transaction distinct: a compute-unit price one µlamport apart, else a compute-unit limit one
   * unit apart, else a tip one lamport apart, else a newer blockhash. A promise when the answer is
   * the fleet's (a PostgreSQL journal's signatures table): awaited before the signature is returned.
   */
  claim?: (signature: string, lastValidBlockHeight: number) => boolean | Promise<boolean>;
  /**
   * Awaited once the inputs are in and before anything is signed; a rejection ends the build
   * unsigned. A fleet drive re-reads its intent here (intent/drive.ts): a drive frozen while it fetched
   * its blockhash must not sign for an intent another process signed meanwhile.
   */
  beforeSign?: () => Promise<void>;
  /** Add no tip (a bundle's transactions but its last: the bundle tips once). */
  noTip?: boolean;
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
 * The builder: the build itself, over the shared inputs.
 *
 * @example
 * const b = createBuilder(client, resolveSenderConfig({ cuPrice: 200_000, cuLimit: 1_000 }));
 * const built = await b.build(prepareInput({ instructions, payer }, cfg), { signal });
 */
export function createBuilder(rpc: SenderRpc, cfg: ResolvedSenderOptions): Builder {
  const { blockhash, newerBlockhash, cuPrice, tipAmount, race } = createBuildInputs(rpc, cfg);

  const build: Builder['build'] = async (p, o) => {
    const t0 = performance.now();
    const have = scan(p.instructions, cfg.tipAccounts);
    const min = minimumTip(cfg);
    if (have.tip !== undefined && have.tip < min) {
      throw new CairnError(ErrorCodes.SENDER_MISSING_TIP, `the instructions tip ${have.tip} lamports, below the minimum ${min} for this routing mode`, {
        context: { tipLamports: have.tip.toString(), minTipLamports: min.toString() },
      });
    }
    const nonce = p.nonce;
    const [first, price, tip] = await Promise.all([
      nonce ? nonceHash(nonce, o) : blockhash(o.signal, o.freshBlockhash),
      have.price ? Promise.resolve(0n) : cuPrice(o.signal, p.payer),
      have.tip !== undefined ? Promise.resolve(have.tip) : tipAmount(o.signal),
    ]);
    if (!nonce && o.minLastValidBlockHeight !== undefined && first.lastValidBlockHeight <= o.minLastValidBlockHeight) {
      throw new CairnError(ErrorCodes.SENDER_BLOCKHASH_EXPIRED, 'the RPC returned a blockhash that is already past its window', {
        context: { lastValidBlockHeight: first.lastValidBlockHeight, blockHeight: o.minLastValidBlockHeight },
      });
    }
    if (o.beforeSign) await o.beforeSign();
    let hash = first;
    const tipAccount = cfg.tipAccounts[Math.floor(Math.random() * cfg.tipAccounts.length)];
    let units: number | undefined;
    /**
     * Sign with `salt` applied to the first lever this transaction has (see BuildOptions.claim).
     * Asynchronous because a kit signer signs through a promise (solana/inputs.ts); cairn's own
     * signers still sign in line.
     */
    const sign = async (
      limit: number | undefined,
      salt: number,
    ): Promise<{ wire: Uint8Array; signature: string; price: bigint; tip: bigint; units?: number }> => {
      const s = BigInt(salt);
      let cuPrice = price;
      let cuUnits = limit;
      let tipLamports = tip;
      const apart = (v: bigint, lo: bigint, hi: bigint): bigint | undefined => (v + s <= hi ? v + s : v - s >= lo ? v - s : undefined);
      if (salt > 0) {
        const p2 = have.price ? undefined : apart(price, 0n, cfg.maxCuPrice);
        const u2 = p2 === undefined && limit !== undefined ? apart(BigInt(limit), 1n, 1_400_000n) : undefined;
        const t2 = p2 === undefined && u2 === undefined && have.tip === undefined && !o.noTip ? apart(tip, minimumTip(cfg), cfg.maxTipLamports) : undefined;
        if (p2 !== undefined) cuPrice = p2;
        else if (u2 !== undefined) cuUnits = Number(u2);
        else if (t2 !== undefined) tipLamports = t2;
        // eslint-disable-next-line @typescript-eslint/only-throw-error -- a sentinel caught below: wait for a newer blockhash
        else throw NO_LEVER;
      }
      // A durable-nonce transaction advances its nonce FIRST: the runtime looks for it there.
      const ixs: InstructionInput[] = nonce ? [advanceNonceInstruction(nonce.account, nonce.authority)] : [];
      if (cuUnits !== undefined) ixs.push(computeUnitLimitInstruction(cuUnits));
      if (!have.price) ixs.push(computeUnitPriceInstruction(cuPrice));
      ixs.push(...p.instructions);
      if (have.tip === undefined && !o.noTip) ixs.push(transferInstruction(p.payer, tipAccount, tipLamports));
      const parts = compileMessage({ payer: p.payer, instructions: ixs, recentBlockhash: hash.blockhash, version: p.version, lookupTables: p.lookupTables });
      const { wire, signatures } = await signMessagePartsAsync(parts, p.signers, o.signal);
      return { wire, signature: encodeBase58(signatures[0]), price: cuPrice, tip: tipLamports, ...(cuUnits !== undefined ? { units: cuUnits } : {}) };
    };
    const cl = cfg.cuLimit;
    if (!have.limit) {
      if (typeof cl === 'number') units = cl;
      else {
        const draft = await sign(1_400_000, 0);
        const r = await race(rpc.simulateTransaction(draft.wire, { sigVerify: false, replaceRecentBlockhash: true }, { signal: o.signal }), o.signal);
        if (r.err !== null) {
          throw new TransactionFailedError(ErrorCodes.SENDER_TRANSACTION_FAILED, `simulation failed: ${JSON.stringify(r.err)}${failureHint(r.err, draft.wire)}`, {
            context: { signature: draft.signature, err: r.err, ...(r.logs ? { logs: r.logs } : {}) },
          });
        }
        // A u64: the client gives a bigint beyond 2^53 (Number() of undefined is NaN: the fallback).
        const consumed = Number(r.unitsConsumed);
        units = Number.isFinite(consumed) && consumed > 0 ? Math.max(cl.min, Math.ceil(consumed * cl.margin)) : cl.fallback;
        units = Math.min(units, 1_400_000);
      }
    }
    // Each signature is claimed once signed (claim is a check-and-set: in memory synchronously, so
    // concurrent builds of this process see each other, then in the fleet's table when shared).
    let signed = await sign(units, 0);
    for (let salt = 1; o.claim && !(await o.claim(signed.signature, hash.lastValidBlockHeight)); salt++) {
      let next = salt <= 1_000 ? await tryOr(() => sign(units, salt)) : undefined;
      if (!next) {
        if (nonce) {
          throw new InputError('input.nonce', `intent signs the same bytes as another one on nonce ${nonce.account} and nothing is left to vary: give each intent its own nonce account`);
        }
        // Nothing of ours left to vary: only a newer blockhash makes these bytes distinct.
        hash = await newerBlockhash(hash.blockhash, o.signal);
        salt = 0;
        next = await sign(units, 0);
      }
      signed = next;
    }
    return {
      wire: signed.wire,
      signature: signed.signature,
      lastValidBlockHeight: hash.lastValidBlockHeight,
      ...(nonce ? { nonce: { account: nonce.account, value: hash.blockhash } } : {}),
      buildMs: performance.now() - t0,
      cuPrice: signed.price,
      ...(signed.units !== undefined ? { cuLimit: signed.units } : {}),
      tipLamports: signed.tip,
    };
  };

  /** The nonce value to sign with, in place of a blockhash (it has no window: MAX_SAFE_INTEGER). */
  const nonceHash = async (n: { account: string; authority: string }, o: BuildOptions): Promise<{ blockhash: string; lastValidBlockHeight: number }> => {
    for (let i = 0; ; i++) {
      const value = await race(currentNonce(rpc, n.account, n.authority, o.signal), o.signal);
      if (value !== o.staleNonce) return { blockhash: value, lastValidBlockHeight: Number.MAX_SAFE_INTEGER };
      // The value proven moved past is shown again: an RPC node behind the one that showed it moved.
      // Never signed with: wait for the node to catch up, a while.
      if (i >= 20) {
        throw new InputError('input.nonce', `nonce account ${n.account} still shows ${value}, the value proven moved past, after ${i} reads: the RPC lags`);
      }
      await sleep(Math.max(50, cfg.pollMs), o.signal);
    }
  };

  return { build, blockhash };
}

/** Thrown by a salted sign when no lever of the transaction has room left. */
const NO_LEVER = Symbol('no lever');

async function tryOr<T>(f: () => Promise<T>): Promise<T | undefined> {
  try {
    return await f();
  } catch (e) {
    if (e === NO_LEVER) return undefined;
    throw e;
  }
}
