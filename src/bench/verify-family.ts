/**
 * `cairn bench verify`: proofs per second on this machine, per kind, input form and thread count,
 * through the same `createVerifier` a backend uses. Each cell verifies one call's worth of generated
 * valid proofs (proofs.ts) again and again for `seconds`, and every verdict table must say all of
 * them are valid — a benchmark that verified nothing would look fast. Two forms: `bytes` (the
 * response body as received: the workers parse it) and `parsed` (objects after JSON.parse).
 */
import { createVerifier, type Verifier } from '../merkle/index.js';
import { InputError } from '../errors/index.js';
import { benchProofs, BENCH_KINDS, type BenchKind } from './proofs.js';
import { newResult, stopReason, type FamilyContext, type FamilyResult } from './types.js';

export interface VerifyBenchOptions {
  kinds?: readonly BenchKind[];
  /** Thread counts to measure (default 1 and every core). */
  threads?: readonly number[];
  forms?: readonly ('bytes' | 'parsed')[];
  /** Seconds per cell (default 2). */
  seconds?: number;
  /** Proofs per call (default per kind: a large service answer's worth). */
  items?: number;
}

/** Items per call: ~0.1–0.5 s of one thread's work, as a large service answer. */
const PER_CALL: Record<BenchKind, number> = { 'asset-proof': 20_000, 'account-proof': 4_000, 'address-proof': 4_000, 'validity-proof': 128 };

export async function verifyFamily(o: VerifyBenchOptions, ctx: FamilyContext): Promise<FamilyResult> {
  const kinds = o.kinds ?? BENCH_KINDS;
  const threads = o.threads ?? [1];
  const forms = o.forms ?? ['bytes', 'parsed'];
  const seconds = o.seconds ?? 2;
  for (const k of kinds) if (!BENCH_KINDS.includes(k)) throw new InputError('--kinds', `unknown kind ${JSON.stringify(k)}; kinds: ${BENCH_KINDS.join(', ')}`);
  const result = newResult('verify', { kinds: [...kinds], threads: [...threads], forms: [...forms], seconds, items: o.items ?? null });
  const cells = kinds.length * forms.length * threads.length;
  let done = 0;
  // the inputs once per kind; one verifier per thread count (its workers start once, not per cell)
  const inputs = new Map<BenchKind, { items: unknown[]; bytes: Buffer }>();
  for (const kind of kinds) {
    const n = o.items ?? PER_CALL[kind];
    ctx.say(`verify: making ${n} valid ${kind}s`);
    const items = benchProofs(kind, n);
    inputs.set(kind, { items, bytes: Buffer.from(JSON.stringify(items)) });
  }
  const rate = new Map<string, number>();
  try {
    for (const t of threads) {
      const verifier = createVerifier({ threads: t });
      try {
        for (const kind of kinds) {
          for (const form of forms) {
            ctx.signal.throwIfAborted();
            ctx.progress('cells', done, cells);
            const { items, bytes } = inputs.get(kind)!;
            rate.set(`${kind} ${form} ${t}`, await measureCell(verifier, kind, form === 'bytes' ? bytes : items, items.length, seconds, ctx.signal));
            done++;
          }
        }
      } finally {
        await verifier.close();
      }
    }
    ctx.progress('cells', done, cells);
  } catch (e) {
    if (!ctx.signal.aborted) throw e;
    result.partial = stopReason(ctx.signal);
  }
  for (const kind of kinds) {
    for (const form of forms) {
      const base = rate.get(`${kind} ${form} ${threads[0]}`);
      for (const t of threads) {
        const perSec = rate.get(`${kind} ${form} ${t}`);
        if (perSec === undefined) continue;
        result.rows.push({
          name: `${kind} ${form} ×${t}`,
          kind,
          form,
          threads: t,
          itemsPerSec: Math.round(perSec),
          speedup: threads[0] === 1 && base ? Math.round((perSec / base) * 100) / 100 : null,
        });
      }
    }
  }
  result.notes.push('items are generated valid proofs (asset: keccak depth 14; account and address: Poseidon height 26); validity: a real Light v1 inclusion proof under the 2024 key, repeated');
  // a chart per kind: their rates differ by orders of magnitude
  for (const kind of kinds) {
    const rows = result.rows.filter((r) => r.kind === kind);
    if (rows.length === 0) continue;
    result.series.push({
      id: `verify-${kind}`,
      title: `${kind}: proofs per second`,
      kind: 'bars',
      xLabel: 'form × threads',
      yLabel: 'proofs/s',
      points: rows.map((r, i) => [i, r.itemsPerSec as number]),
      labels: rows.map((r) => `${r.form} ×${r.threads}`),
    });
  }
  return result;
}

/** Proofs per second for one cell: one warm-up call, then calls until `seconds` have passed. */
async function measureCell(verifier: Verifier, kind: BenchKind, input: unknown, n: number, seconds: number, signal: AbortSignal): Promise<number> {
  const check = async (): Promise<void> => {
    const table = await verifier.verifyTable(kind, input, { signal });
    if (table.validCount !== n) throw new Error(`verify bench: ${n - table.validCount} of ${n} generated ${kind}s did not verify (a bug in cairn or in the benchmark)`);
  };
  await check();
  let verified = 0;
  const t0 = performance.now();
  do {
    await check();
    verified += n;
  } while (performance.now() - t0 < seconds * 1000);
  return verified / ((performance.now() - t0) / 1000);
}
