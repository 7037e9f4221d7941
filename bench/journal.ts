/**
 * Journal benchmark: opening a sender's journal of 100k, 300k and 1M intents (~1.3 KB each on disk:
 * created with a plan, signed with its wire bytes, landed, confirmed), each open in a fresh process:
 * - cairn: `openJournal` streams the file, keeps every unfinished intent and the newest 100,000
 *   ended ones, and compacts the file when it is past 64 MiB;
 * - the same journal opened again after that compaction;
 * - peer: the wave-1 way, the whole file read into one string and split (what cairn did before).
 * Figures: wall ms to open, peak RSS (MB) of the process, and for the peer whether it could open at
 * all (past ~400k intents the text no longer fits in one string).
 *
 * Writes bench/results/journal.{json,md}. `npx tsx bench/journal.ts` (BENCH_JOURNAL_SIZES=100000,…).
 */
import { spawnSync } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const here = dirname(fileURLToPath(import.meta.url));
const self = fileURLToPath(import.meta.url);

if (process.argv[2] === '--child') {
  const [, , , how, path] = process.argv;
  const t0 = performance.now();
  let kept = 0;
  let error: string | undefined;
  try {
    if (how === 'whole') {
      const text = readFileSync(path!, 'utf8');
      const views = new Map<string, unknown>();
      for (const line of text.split('\n')) if (line) views.set((JSON.parse(line) as { id: string }).id, line);
      kept = views.size;
    } else {
      const { openJournal } = await import('../src/sender/journal/file/journal.js');
      const j = await openJournal(path!);
      kept = j.intents().size;
      await j.close();
    }
  } catch (e) {
    error = (e as { code?: string }).code ?? (e as Error).message;
  }
  const ms = performance.now() - t0;
  process.stdout.write(JSON.stringify({ ms, peakRssMb: process.resourceUsage().maxRSS / 1024, kept, ...(error ? { error } : {}) }) + '\n');
  process.exit(0);
}

const sizes = (process.env.BENCH_JOURNAL_SIZES ?? '100000,300000,1000000').split(',').map(Number);
const loadBefore = loadavg()[0];
const tsx = createRequire(import.meta.url).resolve('tsx/cli');
const dir = mkdtempSync(join(tmpdir(), 'cairn-bench-journal-'));

/** A journal of `n` intents, ~1.3 KB each, every 1000th left unfinished (signed, not landed). */
async function generate(path: string, n: number): Promise<void> {
  const out = createWriteStream(path);
  const wire = 'A'.repeat(540); // a transfer with CU limit, CU price and tip: ~400 bytes, base64
  const plan = { payer: '11111111111111111111111111111112', version: 'legacy', instructions: [{ programId: '11111111111111111111111111111111', keys: [['11111111111111111111111111111112', true, true], ['Ff4yXc4gAnQ6pcoxiXnGRAS7L5nt5j5B8hFAqLMchCrB', false, true]], data: 'AgAAAOgDAAAAAAAA' }] };
  const t = Date.now() - n;
  for (let i = 0; i < n; i++) {
    const id = `order-${i.toString().padStart(8, '0')}`;
    const sig = `${i.toString(36).padStart(8, '0')}${'x'.repeat(80)}`;
    let s = JSON.stringify({ op: 'created', id, at: t + i, plan }) + '\n';
    s += JSON.stringify({ op: 'signed', id, at: t + i, signature: sig, wire, lastValidBlockHeight: 1_000 + i, attempt: 1 }) + '\n';
    if (i % 1_000 !== 0) {
      s += JSON.stringify({ op: 'landed', id, at: t + i, signature: sig, slot: i }) + '\n';
      s += JSON.stringify({ op: 'confirmed', id, at: t + i, signature: sig, slot: i, commitment: 'confirmed' }) + '\n';
    }
    if (!out.write(s)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

function child(how: 'stream' | 'whole', path: string): { ms: number; peakRssMb: number; kept: number; error?: string } {
  const r = spawnSync(process.execPath, [tsx, self, '--child', how, path], { encoding: 'utf8', maxBuffer: 1 << 20 });
  const line = r.stdout.trim().split('\n').pop() ?? '';
  try {
    return JSON.parse(line) as { ms: number; peakRssMb: number; kept: number; error?: string };
  } catch {
    return { ms: NaN, peakRssMb: NaN, kept: 0, error: `exit ${r.status ?? r.signal}: ${r.stderr.trim().split('\n').pop() ?? ''}` };
  }
}

const rows: Record<string, unknown>[] = [];
try {
  for (const n of sizes) {
    const path = join(dir, `j-${n}.jsonl`);
    await generate(path, n);
    const bytes = statSync(path).size;
    const peer = child('whole', path); // before cairn's open compacts the file
    const first = child('stream', path);
    const compacted = statSync(path).size;
    const again = child('stream', path);
    rows.push({ intents: n, mb: bytes / 2 ** 20, peer, first, compactedMb: compacted / 2 ** 20, again });
    console.log(JSON.stringify(rows.at(-1)));
    rmSync(path, { force: true });
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const f = (x: number, d = 0): string => (Number.isFinite(x) ? x.toFixed(d) : '—');
const md = [
  '## journal',
  '',
  `Node ${process.version}, load average ${loadBefore.toFixed(1)} → ${loadavg()[0].toFixed(1)}. Each open in a fresh process; peak RSS of that process.`,
  '',
  '| intents | file MB | whole-file read (wave 1): ms / peak MB | cairn stream + compact: ms / peak MB | kept intents | after compaction: MB, ms / peak MB |',
  '|---:|---:|---|---|---:|---|',
  ...rows.map((r) => {
    const p = r.peer as { ms: number; peakRssMb: number; error?: string };
    const a = r.first as { ms: number; peakRssMb: number; kept: number };
    const b = r.again as { ms: number; peakRssMb: number };
    const peer = p.error ? `fails (${p.error})` : `${f(p.ms)} / ${f(p.peakRssMb)}`;
    return `| ${r.intents as number} | ${f(r.mb as number)} | ${peer} | ${f(a.ms)} / ${f(a.peakRssMb)} | ${a.kept} | ${f(r.compactedMb as number)}, ${f(b.ms)} / ${f(b.peakRssMb)} |`;
  }),
  '',
  'Kept: every unfinished intent (1 in 1,000 here) and the newest 100,000 ended ones (the idempotency window).',
  '',
].join('\n');
mkdirSync(join(here, 'results'), { recursive: true });
writeFileSync(join(here, 'results', 'journal.json'), JSON.stringify({ node: process.version, rows }, null, 2));
writeFileSync(join(here, 'results', 'journal.md'), md);
console.log(md);
