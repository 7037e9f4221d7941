/**
 * The soak's mint phase (issue 36): N mints (default 500) through `cairn mint --file items.json
 * --journal FILE`, as a user runs it, against a devnet that loses answers after minting (`lostRate`)
 * and answers 503 at a rate, while a few runs are SIGKILLed at random points; the same command is
 * run again until it exits 0. Judged by the devnet's assets, not by what the command said: every item
 * minted exactly once, 0 duplicates, 0 items reported failed that were minted.
 *
 *   npm run soak:mint -- [--items 500] [--kills 3] [--lost 0.05] [--errors 0.05] [--seed S] [--out soak/results/mint-latest.json]
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { startDevnet } from '../src/devnet/index.js';
import { keypairFromSeed } from '../src/devnet/chain/keypair.js';
import { createClient } from '../src/rpc/client/create-client.js';

const ROOT = join(import.meta.dirname, '..');
const CLI = join(ROOT, 'bin', 'cairn.js');

export interface MintPhaseOptions {
  items: number;
  kills: number;
  lostRate: number;
  errorRate: number;
  seed: number;
  log: (line: string) => void;
}

export interface MintPhaseResult {
  items: number;
  runs: number;
  killed: number;
  mintedExactlyOnce: number;
  duplicates: number;
  missing: number;
  reportedFailedButMinted: number;
  /** Intents the journal settled through the indexer (answer lost, 503 or killed mid-call). */
  reconciled: number;
  /** mintCompressedNft requests that reached the devnet (items + the ones sent again after the indexer proved none minted). */
  mintCalls: number;
  lostRate: number;
  errorRate: number;
  seconds: number;
  seed: number;
}

function lines(path: string): number {
  try {
    return readFileSync(path, 'utf8').split('\n').length - 1;
  } catch {
    return 0;
  }
}

/** One run of the command; SIGKILLed once the journal has `killAfterLines` more lines, if given. */
function runCli(
  args: string[],
  journal: string,
  killAfterLines: number | undefined,
  timeoutMs: number,
): Promise<{ code: number | null; killed: boolean; out: string; err: string }> {
  return new Promise((resolve) => {
    const start = lines(journal);
    const p = spawn(process.execPath, [CLI, 'mint', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let killed = false;
    p.stdout.on('data', (d: Buffer) => (out += d));
    p.stderr.on('data', (d: Buffer) => (err += d));
    const watch =
      killAfterLines === undefined
        ? undefined
        : setInterval(() => {
            if (lines(journal) - start >= killAfterLines) {
              killed = true;
              p.kill('SIGKILL');
            }
          }, 20);
    const limit = setTimeout(() => p.kill('SIGKILL'), timeoutMs);
    p.on('close', (code) => {
      if (watch) clearInterval(watch);
      clearTimeout(limit);
      resolve({ code, killed, out, err });
    });
  });
}

/**
 * Run the mint phase.
 *
 * @example
 * const r = await runMintPhase({ items: 500, kills: 3, lostRate: 0.05, errorRate: 0.05, seed: 1, log: console.log });
 */
export async function runMintPhase(o: MintPhaseOptions): Promise<MintPhaseResult> {
  const t0 = performance.now();
  const devnet = await startDevnet({
    port: 0,
    slotMs: 20,
    seed: o.seed,
    wsPortPlusOne: false,
    faults: { rpc: { lostRate: o.lostRate, serverErrorRate: o.errorRate, serverErrorStatus: 503 } },
  });
  const dir = mkdtempSync(join(tmpdir(), 'cairn-soak-mint-'));
  try {
    const owners = Array.from({ length: 10 }, () => keypairFromSeed(new Uint8Array(randomBytes(32))).address);
    const items = Array.from({ length: o.items }, (_, i) => ({ id: `soak-${i}`, name: `Soak #${i}`, symbol: 'SOAK', description: '', owner: owners[i % owners.length]!, uri: `https://soak.example/${i}.json` }));
    const file = join(dir, 'items.json');
    const journal = join(dir, 'mints.jsonl');
    writeFileSync(file, JSON.stringify(items));
    const args = ['--file', file, '--journal', journal, '--url', devnet.url, '--no-verify', '--landing-slots', '20', '--json', '--quiet'];
    // the journal holds ~3 lines per item: kill at random points spread over the first runs' work
    let runs = 0;
    let killed = 0;
    let last: { code: number | null; out: string; err: string } | undefined;
    for (let k = 0; k < o.kills; k++) {
      const after = 10 + Math.floor(Math.random() * Math.max(10, (o.items * 3) / (o.kills + 1)));
      const r = await runCli(args, journal, after, 600_000);
      runs++;
      if (r.killed) killed++;
      o.log(`mint soak: run ${runs} ${r.killed ? `SIGKILLed after ${after} journal lines` : `exited ${r.code}`}`);
      if (!r.killed && r.code === 0) {
        last = r;
        break;
      }
    }
    for (let more = 0; (last === undefined || last.code !== 0) && more < 10; more++) {
      last = await runCli(args, journal, undefined, 900_000);
      runs++;
      o.log(`mint soak: run ${runs} exited ${last.code}${last.code === 0 ? '' : `: ${last.err.trim().split('\n').at(-1) ?? ''}`}`);
    }
    devnet.control.setFaults('rpc', {});
    const mintCalls = devnet.control.requestLog().filter((e) => e.method === 'mintCompressedNft').length;
    // the judge: the devnet's assets, once every mint has landed
    const client = createClient({ url: devnet.url, logger: () => {} });
    const count = new Map<string, number>();
    try {
      const slot = await client.getSlot({ commitment: 'processed' });
      while ((await client.getSlot({ commitment: 'processed' })) < slot + 30) await new Promise((r) => setTimeout(r, 20));
      for (const owner of owners) {
        for (let page = 1; ; page++) {
          const r = await client.getAssetsByOwner({ ownerAddress: owner, page, limit: 1000 });
          for (const a of r.items) count.set(a.content?.metadata?.name ?? '', (count.get(a.content?.metadata?.name ?? '') ?? 0) + 1);
          if (r.items.length < 1000) break;
        }
      }
    } finally {
      await client.close();
    }
    const n = (i: number) => count.get(`Soak #${i}`) ?? 0;
    const final =
      last?.code === 0 || last?.code === 1 ? (JSON.parse(last.out) as { items: { index: number; error?: unknown; outcome?: string }[] }) : { items: [] };
    const reconciled = readFileSync(journal, 'utf8').split('\n').filter((l) => l.includes('"op":"minted"') && l.includes('"reconciled":true')).length;
    return {
      items: o.items,
      runs,
      killed,
      mintedExactlyOnce: items.filter((_, i) => n(i) === 1).length,
      duplicates: items.reduce((s, _, i) => s + Math.max(0, n(i) - 1), 0),
      missing: items.filter((_, i) => n(i) === 0).length,
      reportedFailedButMinted: final.items.filter((r) => r.error !== undefined && r.outcome !== 'unknown' && n(r.index) > 0).length,
      reconciled,
      mintCalls,
      lostRate: o.lostRate,
      errorRate: o.errorRate,
      seconds: Math.round((performance.now() - t0) / 1000),
      seed: o.seed,
    };
  } finally {
    await devnet.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The phase passes when every item was minted once and nothing else. */
export function mintPhaseOk(r: MintPhaseResult): boolean {
  return r.mintedExactlyOnce === r.items && r.duplicates === 0 && r.missing === 0 && r.reportedFailedButMinted === 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({
    options: {
      items: { type: 'string', default: '500' },
      kills: { type: 'string', default: '3' },
      lost: { type: 'string', default: '0.05' },
      errors: { type: 'string', default: '0.05' },
      seed: { type: 'string' },
      out: { type: 'string', default: join(import.meta.dirname, 'results', 'mint-latest.json') },
    },
  });
  const r = await runMintPhase({
    items: Number(values.items),
    kills: Number(values.kills),
    lostRate: Number(values.lost),
    errorRate: Number(values.errors),
    seed: values.seed !== undefined ? Number(values.seed) : (Math.random() * 2 ** 31) >>> 0,
    log: (l) => console.log(l),
  });
  console.log(JSON.stringify(r, null, 2));
  mkdirSync(dirname(values.out!), { recursive: true });
  writeFileSync(values.out!, `${JSON.stringify(r, null, 2)}\n`);
  process.exitCode = mintPhaseOk(r) ? 0 : 1;
}
