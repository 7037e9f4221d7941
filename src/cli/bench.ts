/**
 * `cairn bench [family…]`: benchmarks for users, from the installed package — `verify` (proofs per
 * second on this machine), `sign` (build + sign + serialise), `rpc` (latency per read-only method of
 * an endpoint) and `landing` (transfers through `/fast`: landed %, time to confirmed, calls and
 * spend), each a table on the terminal with a progress line, `--json` rows, an HTML report with
 * charts (`--report`), and bounded in count and time. Ctrl-C stops the run and prints what was
 * measured. In a checkout the repository's families (cairn against its peers) run too, by name
 * (bench-repo.ts).
 */
import { writeFileSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CairnError, InputError } from '../errors/index.js';
import { renderTable, reportHtml, type FamilyResult } from '../bench/index.js';
import { runCommand, str, type CliWriter } from './args.js';
import { createProgress, type Progress } from './progress.js';
import { checkoutFamilies, runCheckoutFamilies } from './bench-repo.js';
import { planUserBench, USER_FAMILIES, type UserFamily } from './bench-user.js';
import { didYouMean, JSON_FLAG, QUIET_FLAG, type CommandSpec } from './usage.js';

export const SPEC: CommandSpec = {
  name: 'bench',
  summary: 'Measure this machine and an endpoint: verify, sign, rpc, landing (tables, --json, --report).',
  synopsis: '[family…] [options]',
  positionals: [0, 64],
  flags: {
    url: { type: 'string', short: 'u', value: 'URL', describe: 'the endpoint of rpc and landing (JSON-RPC and /fast); default: a devnet embedded in the process' },
    cluster: { type: 'string', value: 'NAME', describe: "the service's production hosts: mainnet or devnet (an API key alone means mainnet)" },
    'rpc-url': { type: 'string', value: 'URL', describe: 'the JSON-RPC endpoint, when not --url' },
    'sender-url': { type: 'string', value: 'URL', describe: 'the /fast endpoint, when not --url' },
    devnet: { type: 'boolean', describe: 'run rpc and landing against an embedded devnet (needs the optional litesvm)' },
    'api-key': { type: 'string', value: 'KEY', describe: 'the API key (prefer CAIRN_API_KEY: arguments are visible to other users); never printed' },
    'allow-insecure-key': { type: 'boolean', describe: 'send the API key over plain http to a host that is not loopback' },
    keypair: { type: 'string', short: 'k', value: 'FILE', describe: 'landing: the payer (default CAIRN_KEYPAIR, then ~/.config/solana/id.json; a fresh funded one on a local devnet)' },
    transfers: { type: 'string', value: 'N', describe: 'landing: transfers to send, 1–10,000 (default 20)' },
    concurrency: { type: 'string', value: 'N', describe: 'landing: transfers in flight (default 4); rpc: calls in flight per method (default 1)' },
    to: { type: 'string', value: 'ADDRESS', describe: 'landing: the recipient (default the payer itself: only fees and tips are spent)' },
    lamports: { type: 'string', value: 'N', describe: 'landing: the amount of each transfer (default 1000)' },
    'swqos-only': { type: 'boolean', describe: 'landing: route through stake-weighted validators only (lower minimum tip)' },
    tip: { type: 'string', value: 'LAMPORTS', describe: "landing: the /fast tip (default the routing mode's minimum)" },
    'cu-price': { type: 'string', value: 'MICROLAMPORTS', describe: 'landing: compute-unit price, fixed for the run (default 10000)' },
    'cu-limit': { type: 'string', value: 'UNITS', describe: 'landing: compute-unit limit (default 1000)' },
    'max-spend': { type: 'string', value: 'SOL', describe: 'landing: the most the run may spend; required against an endpoint that is not on loopback' },
    'time-limit': { type: 'string', value: 'SECONDS', describe: 'landing: stop starting transfers after this long (default 300)' },
    threads: { type: 'string', value: 'LIST', describe: 'verify: thread counts to measure, e.g. 1,2,4 (default 1 and every core)' },
    kinds: { type: 'string', value: 'LIST', describe: 'verify: asset-proof,account-proof,address-proof,validity-proof (default all)' },
    items: { type: 'string', value: 'N', describe: 'verify: proofs per call (default per kind, a large answer: 20,000 asset proofs, 4,000 account or address proofs, 128 validity proofs)' },
    seconds: { type: 'string', value: 'S', describe: 'verify and sign: seconds per measurement (default 2); rpc: at most per method (at least 10)' },
    requests: { type: 'string', value: 'N', describe: 'rpc: calls per method (default 50)' },
    methods: { type: 'string', value: 'LIST', describe: 'rpc: the read-only methods to time (default all it knows)' },
    report: { type: 'string', value: 'FILE.html', describe: 'write one self-contained HTML page with the tables and charts' },
    out: { type: 'string', value: 'DIR', describe: "write each family's results (<family>.json; a checkout family's .json and .md) here" },
    list: { type: 'boolean', describe: 'list the families and exit' },
    json: JSON_FLAG,
    quiet: QUIET_FLAG,
  },
  notes: `families: verify and sign need nothing; rpc and landing need an endpoint (--url, or an embedded
          devnet). None named runs verify and sign. In a checkout of the repository its families
          (cairn against its peers) run by name too; npm run bench refreshes their tracked results.
spending: landing fixes its prices first and prints the most it can spend; against an endpoint that
          is not on loopback it refuses to start without --max-spend covering that, and it stops
          starting transfers the moment one more could pass the cap (the payer's balance is watched).
environment: CAIRN_URL, CAIRN_RPC_URL, CAIRN_SENDER_URL, CAIRN_CLUSTER, CAIRN_API_KEY, CAIRN_KEYPAIR
Ctrl-C:   stops the run; transfers in flight get 20 s to finish, then what was measured is printed`,
  exits: [
    [0, 'every family ran to the end'],
    [1, 'a family failed or was stopped early (Ctrl-C, its time limit, the spending cap): partial results printed'],
    [2, 'usage: an unknown family or flag, a bad value, a missing or too small --max-spend; nothing was run'],
  ],
};

export interface BenchIo {
  stdout: CliWriter;
  stderr: CliWriter;
  env?: NodeJS.ProcessEnv;
  /** Stops the run (default: SIGINT / SIGTERM). */
  signal?: AbortSignal;
}

export async function run(argv: string[], io: BenchIo = { stdout: process.stdout, stderr: process.stderr }): Promise<number> {
  return runCommand(SPEC, argv, io, async ({ values, positionals, json }) => {
    const repo = checkoutFamilies().filter((f) => !(USER_FAMILIES as readonly string[]).includes(f));
    const all = [...USER_FAMILIES, ...repo];
    if (values.list) {
      io.stdout.write(`${USER_FAMILIES.join('\n')}\n${repo.length ? `# this checkout's families (cairn against its peers):\n${repo.join('\n')}\n` : ''}`);
      return 0;
    }
    for (const w of positionals) {
      if (!all.includes(w)) {
        const guess = didYouMean(w, all);
        throw new CairnError('INPUT_INVALID', `unknown family ${JSON.stringify(w)}${guess ? `, did you mean ${JSON.stringify(guess)}?` : ''}; families: ${all.join(', ')}`, { context: { field: 'family' } });
      }
    }
    const outArg = str(values, 'out');
    if (outArg === '') throw new InputError('--out', 'expected a directory');
    const out = outArg === undefined ? undefined : resolve(outArg);
    const reportArg = str(values, 'report');
    if (reportArg === '') throw new InputError('--report', 'expected a file path');
    const named = positionals.length ? positionals : ['verify', 'sign'];
    const user = named.filter((n): n is UserFamily => (USER_FAMILIES as readonly string[]).includes(n));
    const checkout = named.filter((n) => !(USER_FAMILIES as readonly string[]).includes(n));
    // every flag checked, and the keypair read, before anything runs
    const plan = planUserBench(user, values, io.env ?? process.env);
    const ac = new AbortController();
    const onSig = (): void => ac.abort(new Error('interrupted (Ctrl-C)'));
    if (!io.signal) {
      process.once('SIGINT', onSig);
      process.once('SIGTERM', onSig);
    }
    const signal = io.signal ?? ac.signal;
    const results: FamilyResult[] = [];
    let failed = 0;
    try {
      for (const family of user) {
        if (signal.aborted) break;
        let progress: Progress | undefined;
        let shown = 0;
        let label = '';
        const ctx = {
          signal,
          say: (line: string) => {
            if (!json && values.quiet !== true) io.stderr.write(`cairn bench: ${line}\n`);
          },
          progress: (l: string, done: number, total: number) => {
            if (l !== label) {
              progress?.done();
              progress = createProgress(io.stderr, { label: `bench ${family}: ${l}`, total, quiet: values.quiet === true || json });
              [label, shown] = [l, 0];
            }
            progress!.tick(done - shown);
            shown = done;
          },
        };
        try {
          const r = await plan.run(family, ctx);
          progress?.done();
          results.push(r);
          if (r.partial) failed++;
          if (!json) io.stdout.write(`${renderTable(r)}\n`);
          if (out) {
            mkdirSync(out, { recursive: true });
            writeFileSync(join(out, `${family}.json`), JSON.stringify(r, null, 2) + '\n');
          }
        } catch (e) {
          progress?.done();
          // a usage error (a bad flag, the cap) stops everything with exit 2; a family that failed is reported and counted
          if (e instanceof CairnError && (e.code === 'INPUT_INVALID' || e.code === 'RPC_INSECURE_KEY')) throw e;
          failed++;
          io.stderr.write(`cairn bench ${family}: FAILED ${(e as Error).message}\n`);
        }
      }
      if (checkout.length && !signal.aborted) failed += await runCheckoutFamilies(checkout, out, io);
    } finally {
      process.off('SIGINT', onSig);
      process.off('SIGTERM', onSig);
      await plan.close();
      if (reportArg && results.length) {
        writeFileSync(resolve(reportArg), reportHtml(results));
        if (!json) io.stderr.write(`cairn bench: report written to ${resolve(reportArg)}\n`);
      }
      if (json && results.length) io.stdout.write(JSON.stringify(results.length === 1 ? results[0] : results) + '\n');
    }
    return failed ? 1 : 0;
  });
}
