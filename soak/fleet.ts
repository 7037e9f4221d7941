/**
 * The fleet's chaos campaign (issue 22): N sender processes (fleet-child.ts) share one PostgreSQL
 * journal and a queue of intents, each a transfer with an amount no other intent uses, so the
 * devnet's ledger alone says which intent was paid and how often. While they work, the harness
 * SIGKILLs a random working process every few hundred ms (each replaced by a fresh one), SIGSTOPs
 * one past its lease and then lets it go on (its late state changes must be refused by the fence),
 * and restarts PostgreSQL. Then the ledger is judged by soak/judge.ts, with the answers the processes
 * printed plus what the table says of every intent at the end (what a caller asking `status(id)` gets).
 * The pause and the restart are made to meet work by construction, not by timing: the process paused
 * is one the table shows holding live claims on unfinished intents, and PostgreSQL is stopped only
 * while a working process holds such claims, and stays down until some process has waited it out.
 * With `nonce`, every intent is a durable-nonce one with its own nonce account (issue 29's nonce phase).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sleep } from '../src/abort.js';
import { startDevnet } from '../src/devnet/index.js';
import { mulberry32 } from '../src/devnet/chain/mulberry32.js';
import { errorFromJournal } from '../src/sender/journal/error.js';
import { createNonceAccountInstructions, createSender, generateSigner, transferInstruction, type FleetMetrics, type IntentView } from '../src/sender/index.js';
import { startPostgres } from '../test/support/postgres-server.js';
import type { FleetChildJob } from './fleet-child.js';
import { spawnFleetProcess, type FleetProcess } from './fleet-processes.js';
import { makeIntents } from './intents.js';
import type { ChildAnswer } from './job.js';
import { judge, type Verdict } from './judge.js';
import { executionsByKey, settleLedger } from './ledger.js';
import type { ChildRun } from './run-child.js';

export interface FleetCampaignOptions {
  processes: number;
  intents: number;
  /** SIGKILLs of working processes (each replaced). */
  kills: number;
  /** Pause between kills: uniform in [min, max] ms. */
  killGapMs: [number, number];
  /** SIGSTOP one process for 2.5 leases, then SIGCONT it. */
  pause: boolean;
  /** Restart PostgreSQL mid-run. */
  restart: boolean;
  leaseMs: number;
  concurrency: number;
  seed: number;
  timeoutMs: number;
  /** Durable-nonce intents, each with a nonce account of its own (created before the processes start). */
  nonce?: boolean;
  /** Amounts start here (phases of one run use disjoint ranges). */
  base?: bigint;
  log?: (line: string) => void;
}

export interface FleetCampaign {
  seed: number;
  options: Omit<FleetCampaignOptions, 'log'>;
  verdict: Verdict;
  kills: number;
  processes: number;
  paused?: { label: string; ms: number; fencedRefused: number; leasesLost: number };
  postgresRestarts: number;
  /** Fleet figures summed over every process (a killed one's as last printed). */
  fleet: FleetMetrics;
  tableStates: Record<string, number>;
  ms: number;
  confirmedPerSecond: number;
  failures: string[];
}

const ZERO: FleetMetrics = { claims: 0, takeovers: 0, renewals: 0, leasesLost: 0, fencedRefused: 0, reconnects: 0 };
const TABLE = 'fleet_soak';

/**
 * @example
 * const c = await runFleetCampaign({ ...FLEET_DEFAULTS, intents: 300, kills: 4, seed: 1 });
 * c.verdict.lost; // 0
 */
export async function runFleetCampaign(o: FleetCampaignOptions): Promise<FleetCampaign> {
  const log = o.log ?? (() => {});
  const random = mulberry32(o.seed ^ 0xf1ee7);
  const payer = generateSigner();
  const recipients = Array.from({ length: 4 }, () => generateSigner().address);
  const devnet = await startDevnet({
    port: 0,
    host: '127.0.0.1',
    slotMs: 50,
    seed: o.seed,
    wsPortPlusOne: false,
    stateModules: false,
    fundedAccounts: [{ address: payer.address, lamports: 1_000_000n * 10n ** 9n }, ...recipients.map((address) => ({ address, lamports: 10n ** 9n }))],
  });
  const pg = await startPostgres().catch(async (e: unknown) => {
    await devnet.stop();
    throw e;
  });
  const dir = mkdtempSync(join(tmpdir(), 'cairn-fleet-'));
  const admin = createSender({ url: devnet.url, journal: { postgres: pg.url, table: TABLE, poolSize: 2 }, cuPrice: 200_000, cuLimit: 1_000 });
  const procs: FleetProcess[] = [];
  const failures: string[] = [];
  const t0 = performance.now();
  let postgresRestarts = 0;
  let paused: FleetCampaign['paused'];
  try {
    const intents = makeIntents(o.nonce ? 'fleet-nonce' : 'fleet', o.intents, o.base ?? 70_000_000n, recipients);
    const nonces = o.nonce ? await createNonceAccounts(devnet.url, payer, o.intents, devnet.chain.minimumBalanceForRentExemption(80)) : [];
    await admin.enqueue(
      intents.map((it, i) => ({
        id: it.id,
        instructions: [transferInstruction(payer.address, it.to, BigInt(it.lamports))],
        payer: payer.address,
        ...(o.nonce ? { nonce: { account: nonces[i]!, authority: payer.address } } : {}),
      })),
    );
    log(`devnet ${devnet.url}, postgres ${pg.url}, ${o.intents} ${o.nonce ? 'durable-nonce ' : ''}intents enqueued, seed ${o.seed}`);
    const job: FleetChildJob = { url: devnet.url, postgres: pg.url, table: TABLE, payer: Buffer.from(payer.secretKey()).toString('hex'), leaseMs: o.leaseMs, concurrency: o.concurrency, pollMs: 100, rebroadcastMs: 500 };
    const spawnOne = (): void => {
      const label = `p${procs.length}`;
      procs.push(spawnFleetProcess(job, join(dir, `${label}.json`), label, () => devnet.chain.slot()));
    };
    for (let i = 0; i < o.processes; i++) spawnOne();
    // -1 while the database is down (the restart): unknown, so nothing is decided on it.
    const unfinished = async (): Promise<number> =>
      pg.query(`SELECT count(*)::int AS n FROM ${TABLE} WHERE state NOT IN ('confirmed', 'failed', 'abandoned')`).then((r) => r[0]!.n as number, () => -1);
    /** The processes the table shows holding a live claim on an unfinished intent (by the pid in `owner`). */
    const holders = async (): Promise<Set<number>> =>
      pg
        .query(`SELECT DISTINCT owner FROM ${TABLE} WHERE state NOT IN ('confirmed', 'failed', 'abandoned') AND owner IS NOT NULL AND lease_until > now()`)
        .then((rows) => new Set(rows.map((r) => Number(String(r.owner).split(':').at(-2)))), () => new Set<number>());
    const deadline = Date.now() + o.timeoutMs;
    let kills = 0;
    let pausing: Promise<void> | undefined;
    let restarting: Promise<void> | undefined;
    // No kill while PostgreSQL is down: the processes holding claims are the ones that meet the gap.
    let pgDown = false;
    const pauseAt = Math.max(1, Math.floor(o.kills / 3));
    const restartAt = Math.max(1, Math.floor((2 * o.kills) / 3));
    // Chaos while there is work: a kill every few hundred ms, a pause and a restart on the way.
    while ((kills < o.kills || (o.pause && !pausing) || (o.restart && !restarting)) && Date.now() < deadline) {
      await sleep(o.killGapMs[0] + random() * (o.killGapMs[1] - o.killGapMs[0]));
      const working = procs.filter((p) => p.alive() && p.ready && !p.stopped && p.label !== paused?.label);
      if (working.length === 0) {
        if ((await unfinished()) === 0) break;
        continue;
      }
      let victim: FleetProcess | undefined;
      if (kills < o.kills && !pgDown) {
        victim = working[Math.floor(random() * working.length)]!;
        victim.kill();
        kills++;
        spawnOne();
      }
      // The pause and the restart also come due once the work runs low, whatever the kills: a short
      // phase (300 durable-nonce intents drain in ~25 s) could otherwise end before either met a claim.
      const left = (o.pause && !pausing) || (o.restart && !restarting) ? await unfinished() : -1;
      const pauseDue = o.pause && !pausing && (kills >= pauseAt || (left >= 0 && left < o.intents / 2));
      const restartDue = o.restart && !restarting && (kills >= restartAt || (left >= 0 && left < o.intents / 3));
      const holding = pauseDue || restartDue ? await holders() : new Set<number>();
      if (pauseDue) {
        // A process that holds claims right now: its drives are mid-way when it stops.
        const target = working.find((p) => p !== victim && p.alive() && holding.has(p.pid));
        if (target) {
          const ms = Math.round(2.5 * o.leaseMs);
          paused = { label: target.label, ms, fencedRefused: 0, leasesLost: 0 };
          target.stop();
          log(`SIGSTOP ${target.label} for ${ms} ms (lease ${o.leaseMs} ms)`);
          pausing = sleep(ms).then(() => target.cont());
        }
      }
      // Restart only while a process that is up and working holds claims on unfinished intents: it
      // renews them every third of a lease, so it meets the gap (not slept through by processes still
      // booting, paused or idle).
      const meets = working.some((p) => p !== victim && p.label !== paused?.label && p.alive() && holding.has(p.pid));
      if (restartDue && meets) {
        log('restarting PostgreSQL (down for 1 s, and until a process has waited it out)');
        restarting = (async () => {
          const before = sumMetrics(procs).reconnects;
          pgDown = true;
          await pg.halt();
          const down = Date.now();
          // Down long enough that renewals, claims and state changes in flight all meet the gap, and
          // until some process reported waiting it out (bounded at 5 s: the figure is checked at the end).
          while (Date.now() - down < 1_000 || (sumMetrics(procs).reconnects === before && Date.now() - down < 5_000)) await sleep(100);
          await pg.start();
          pgDown = false;
          postgresRestarts++;
          log(`PostgreSQL is back after ${Date.now() - down} ms`);
        })();
      }
    }
    await pausing;
    await restarting;
    log(`${kills} kills done in ${((performance.now() - t0) / 1000).toFixed(1)} s; letting the fleet drain`);
    // The fleet drains on its own; should every process be gone with work left, one more is started.
    while (Date.now() < deadline) {
      const left = await unfinished();
      const alive = procs.filter((p) => p.alive());
      if (left === 0 && alive.length === 0) break;
      if ((left > 0 || (left < 0 && !restarting)) && alive.length === 0) spawnOne();
      await sleep(250);
    }
    if (Date.now() >= deadline) failures.push(`timed out after ${o.timeoutMs} ms`);
    for (const p of procs) p.kill();
    await Promise.all(procs.map((p) => p.exited));
    await settleLedger(devnet);
    const { tableStates, tableRun } = tableAnswers(await pg.query(`SELECT id, state, view FROM ${TABLE}`), devnet.chain.slot());
    const verdict = judge(intents, [...procs.map((p) => p.run), tableRun], executionsByKey(devnet.control.ledger(), payer.address));
    const fleet = sumMetrics(procs);
    if (paused) {
      const p = procs.find((q) => q.label === paused!.label)!;
      paused.fencedRefused = p.metrics?.fencedRefused ?? 0;
      paused.leasesLost = p.metrics?.leasesLost ?? 0;
      if (paused.fencedRefused === 0) failures.push(`the process paused past its lease (${p.label}) had no state change refused: the pause tested nothing`);
    } else if (o.pause) failures.push('no process could be paused');
    if (kills < o.kills) failures.push(`only ${kills} of ${o.kills} kills before the work ran out`);
    if (o.restart && postgresRestarts === 0) failures.push('PostgreSQL was not restarted');
    else if (o.restart && fleet.reconnects === 0) failures.push('no process met the PostgreSQL restart (0 reconnect waits): it tested nothing');
    for (const p of procs) for (const f of p.run.fatal) failures.push(`${p.label}: ${f.code}: ${f.message}`);
    for (const p of procs) if (!p.run.killed && p.run.exit !== 0 && p.run.exit !== 'SIGKILL') failures.push(`${p.label}: exited ${String(p.run.exit)}: ${p.run.stderr.slice(-300)}`);
    const ms = Math.round(performance.now() - t0);
    return {
      seed: o.seed,
      options: { ...o, log: undefined } as Omit<FleetCampaignOptions, 'log'>,
      verdict,
      kills,
      processes: procs.length,
      ...(paused ? { paused } : {}),
      postgresRestarts,
      fleet,
      tableStates,
      ms,
      confirmedPerSecond: Math.round(((tableStates.confirmed ?? 0) / ms) * 1000 * 10) / 10,
      failures,
    };
  } finally {
    for (const p of procs) p.kill();
    await Promise.all(procs.map((p) => p.exited));
    await admin.close();
    await devnet.stop();
    await pg.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `count` nonce accounts with `payer` as authority, created through a plain sender (no journal: not the fleet's intents). */
async function createNonceAccounts(url: string, payer: ReturnType<typeof generateSigner>, count: number, lamports: bigint): Promise<string[]> {
  const setup = createSender({ url, cuPrice: 200_000, cuLimit: 1_000, pollMs: 100 });
  try {
    const keys = Array.from({ length: count }, () => generateSigner());
    const inputs = keys.map((key) => ({
      instructions: createNonceAccountInstructions({ from: payer.address, nonce: key.address, authority: payer.address, lamports }),
      payer,
      signers: [key],
    }));
    for await (const r of setup.sendMany(inputs, { concurrency: 64 })) if (!r.ok) throw r.error;
    return keys.map((k) => k.address);
  } finally {
    await setup.close();
  }
}

/** What the table says of each intent at the end: the answer any caller asking status(id) gets, as a run the judge reads. */
function tableAnswers(rows: Record<string, unknown>[], slot: number): { tableStates: Record<string, number>; tableRun: ChildRun } {
  const tableStates: Record<string, number> = {};
  const answers: ChildAnswer[] = rows.map((r) => {
    tableStates[r.state as string] = (tableStates[r.state as string] ?? 0) + 1;
    const v = r.view as IntentView;
    const end = v.end;
    if (end?.op === 'confirmed') return { t: 'answer', via: 'resume', id: v.id, ok: true, signature: end.signature };
    if (end?.op === 'failed' || end?.op === 'abandoned') {
      const e = errorFromJournal(end, v.id);
      return { t: 'answer', via: 'resume', id: v.id, ok: false, code: e.code, message: e.message };
    }
    return { t: 'answer', via: 'resume', id: v.id, ok: false, code: 'SENDER_PENDING', message: `still ${v.state}` };
  });
  return { tableStates, tableRun: { answers, fatal: [], rejections: [], killed: false, hung: false, lingered: false, exit: 0, stderr: '', ms: 0, endSlot: slot } };
}

/** Fleet figures summed over every process (a killed one's as it last printed them). */
function sumMetrics(procs: readonly FleetProcess[]): FleetMetrics {
  const acc = { ...ZERO };
  for (const p of procs) for (const k of Object.keys(ZERO) as (keyof FleetMetrics)[]) acc[k] += p.metrics?.[k] ?? 0;
  return acc;
}
