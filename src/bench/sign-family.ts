/**
 * `cairn bench sign`: how fast this machine builds, signs and serialises the transactions cairn sends
 * — a transfer with its /fast tip (2 instructions), and the full shape the sender submits (CU limit,
 * CU price, transfer, tip) — with cairn's own wire path, as `sender.send` does before every submit.
 * Timed in rounds of 200 transactions for `seconds`; each round's bytes are checked to be a signed
 * transaction of the expected size, so nothing is optimised away.
 */
import {
  compileMessage,
  signMessageParts,
  computeUnitLimitInstruction,
  computeUnitPriceInstruction,
  transferInstruction,
  generateSigner,
  encodeBase58,
} from '../solana/index.js';
import { DEFAULT_TIP_ACCOUNTS } from '../tips.js';
import { percentile } from './percentile.js';
import { newResult, stopReason, type FamilyContext, type FamilyResult } from './types.js';

export interface SignBenchOptions {
  /** Seconds per shape (default 2). */
  seconds?: number;
}

const ROUND = 200;

export async function signFamily(o: SignBenchOptions, ctx: FamilyContext): Promise<FamilyResult> {
  const seconds = o.seconds ?? 2;
  const result = newResult('sign', { seconds, round: ROUND });
  const payer = generateSigner();
  const to = generateSigner().address;
  const tip = DEFAULT_TIP_ACCOUNTS[0]!;
  const blockhash = encodeBase58(crypto.getRandomValues(new Uint8Array(32)));
  let amount = 1n;
  const shapes: { name: string; ixs: () => Parameters<typeof compileMessage>[0]['instructions'] }[] = [
    {
      name: 'transfer + tip (2 instructions)',
      ixs: () => [transferInstruction(payer.address, to, amount++), transferInstruction(payer.address, tip, 1_000_000n)],
    },
    {
      name: 'CU limit + CU price + transfer + tip (4 instructions)',
      ixs: () => [
        computeUnitLimitInstruction(1_000),
        computeUnitPriceInstruction(200_000n),
        transferInstruction(payer.address, to, amount++),
        transferInstruction(payer.address, tip, 1_000_000n),
      ],
    },
  ];
  try {
    for (const [i, shape] of shapes.entries()) {
      ctx.progress('shapes', i, shapes.length);
      const perTxUs: number[] = [];
      let count = 0;
      const t0 = performance.now();
      do {
        ctx.signal.throwIfAborted();
        const r0 = performance.now();
        let size = 0;
        for (let k = 0; k < ROUND; k++) {
          size += signMessageParts(compileMessage({ payer: payer.address, recentBlockhash: blockhash, instructions: shape.ixs() }), [payer]).wire.length;
        }
        perTxUs.push(((performance.now() - r0) * 1000) / ROUND);
        if (size < ROUND * 150) throw new Error(`sign bench: ${size} bytes for ${ROUND} transactions is not what a signed transfer is`);
        count += ROUND;
        // yield to the event loop between rounds, so Ctrl-C is seen
        await new Promise((r) => setImmediate(r));
      } while (performance.now() - t0 < seconds * 1000);
      const wall = (performance.now() - t0) / 1000;
      result.rows.push({
        name: shape.name,
        transactions: count,
        perSec: Math.round(count / wall),
        p50Us: round2(percentile(perTxUs, 50)!),
        p99Us: round2(percentile(perTxUs, 99)!),
      });
    }
    ctx.progress('shapes', shapes.length, shapes.length);
  } catch (e) {
    if (!ctx.signal.aborted) throw e;
    result.partial = stopReason(ctx.signal);
  }
  result.notes.push('µs per transaction are medians and 99th percentiles over rounds of 200 (one thread)');
  return result;
}

const round2 = (v: number): number => Math.round(v * 100) / 100;
