/**
 * Every command on the one parser (issue 21): its help (exit codes in it), --version, a typo'd flag
 * (named, with a suggestion), a bad value, --json errors as JSON on stdout, and exit 2 for all of
 * them; `cairn` itself: --help with a line per command, help <cmd>, --version, unknown command with
 * "did you mean" (exit 2), and `cairn bench --help` running nothing. devnet has its own tests.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { dispatch, COMMANDS } from '../../src/cli/commands.js';
import { parseCommand } from '../../src/cli/args.js';
import { didYouMean } from '../../src/cli/usage.js';
import { run as verify } from '../../src/cli/verify.js';
import { run as send } from '../../src/cli/send.js';
import { run as mint } from '../../src/cli/mint.js';
import { run as journal } from '../../src/cli/journal.js';
import { run as demo } from '../../src/cli/demo.js';
import { run as bench } from '../../src/cli/bench.js';

const VERSION = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;

type Run = (argv: string[], io: never) => Promise<number>;

function capture() {
  let out = '';
  let err = '';
  const io = {
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s) },
    stdin: (async function* () {})(),
    env: {},
    signal: new AbortController().signal,
  };
  return { io, out: () => out, err: () => err };
}

async function call(run: Run, argv: string[]) {
  const c = capture();
  const code = await run(argv, c.io as never);
  return { code, out: c.out(), err: c.err() };
}

/** Each command: a typo of one of its flags (and the flag it means), a bad value, and whether it has --json. */
const cases: { name: string; run: Run; typo: [string, string]; bad: [string[], string]; json: boolean }[] = [
  { name: 'verify', run: verify as Run, typo: ['--only-invalld', '--only-invalid'], bad: [['asset-proof', '-', '--threads', '99'], '--threads'], json: true },
  { name: 'send', run: send as Run, typo: ['--lamprots', '--lamports'], bad: [['--to', '11111111111111111111111111111112', '--lamports', 'lots'], '--lamports'], json: true },
  { name: 'mint', run: mint as Run, typo: ['--symbl', '--symbol'], bad: [['--name', 'n', '--symbol', 'S', '--owner', '11111111111111111111111111111112', '--seller-fee-bps', '20000'], '--seller-fee-bps'], json: true },
  { name: 'journal', run: journal as Run, typo: ['--jsno', '--json'], bad: [['status'], 'FILE'], json: true },
  { name: 'demo', run: demo as Run, typo: ['--transfer', '--transfers'], bad: [['--mints', '-1'], '--mints'], json: false },
  { name: 'bench', run: bench as Run, typo: ['--outt', '--out'], bad: [['not-a-family'], 'family'], json: false },
];

describe.each(cases)('cairn $name', ({ name, run, typo, bad, json }) => {
  it('--help and -h: the usage, every flag, the exit codes; exit 0, nothing run', async () => {
    for (const h of ['--help', '-h']) {
      const r = await call(run, [h]);
      expect(r.code).toBe(0);
      expect(r.err).toBe('');
      expect(r.out).toMatch(new RegExp(`^usage: cairn ${name} `));
      expect(r.out).toMatch(/--help/);
      expect(r.out).toMatch(/exit codes:\n {2}0 {2}.+\n {2}1 {2}.+\n {2}2 {2}/);
    }
  });

  it('--version prints the package version, exit 0', async () => {
    const r = await call(run, ['--version']);
    expect(r.code).toBe(0);
    expect(r.out).toBe(`cairn ${VERSION}\n`);
  });

  it('a typo in a flag: exit 2, the flag named, and the one it resembles', async () => {
    const r = await call(run, [typo[0]]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`cairn ${name}: [INPUT_INVALID] "${typo[0]}": unknown option; did you mean ${typo[1]}?`);
    expect(r.out).toBe('');
  });

  it('a bad value: exit 2 in the one format, naming the flag or argument', async () => {
    const r = await call(run, bad[0]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(new RegExp(`^cairn ${name}: \\[INPUT_INVALID\\] `));
    expect(r.err).toContain(bad[1]);
  });

  it.runIf(json)('--json: the error as {"error":{code,message,field}} on stdout, exit 2', async () => {
    const r = await call(run, [...bad[0], '--json']);
    expect(r.code).toBe(2);
    const j = JSON.parse(r.out) as { error: { code: string; message: string; field: string | null } };
    expect(j.error.code).toBe('INPUT_INVALID');
    expect(j.error.message).toContain(bad[1]);
    expect(j.error.field).toBe(bad[1]);
    const t = await call(run, [typo[0], '--json']);
    expect(t.code).toBe(2);
    expect(JSON.parse(t.out)).toMatchObject({ error: { code: 'INPUT_INVALID', field: typo[0] } });
  });
});

describe('the shared parser', () => {
  const spec = { name: 't', summary: '', synopsis: '', exits: [], flags: { n: { type: 'string' as const, describe: '' }, b: { type: 'boolean' as const, describe: '' } } };

  it('takes --flag value, --flag=value, and a value that starts with a dash as the value', () => {
    expect(parseCommand(spec, ['--n', '5']).values.n).toBe('5');
    expect(parseCommand(spec, ['--n=5']).values.n).toBe('5');
    expect(parseCommand(spec, ['--n', '-5']).values.n).toBe('-5');
  });

  it('refuses a missing value, a value for a switch, a stray argument, naming each', () => {
    expect(() => parseCommand(spec, ['--n'])).toThrow(/"--n": expected a value/);
    expect(() => parseCommand(spec, ['--b=1'])).toThrow(/"--b": takes no value/);
    expect(() => parseCommand(spec, ['stray'])).toThrow(/unexpected argument "stray"/);
  });

  it('a flag of two values (--bpf-program ADDR FILE, for devnet) is read in pairs, repeatable', () => {
    const two = { ...spec, flags: { ...spec.flags, 'bpf-program': { type: 'string' as const, arity: 2 as const, value: 'ADDR FILE', describe: '' } } };
    const r = parseCommand(two, ['--bpf-program', 'A1', 'a.so', '--b', '--bpf-program', 'A2', 'b.so']);
    expect(r.pairs['bpf-program']).toEqual([['A1', 'a.so'], ['A2', 'b.so']]);
    expect(r.values.b).toBe(true);
    expect(() => parseCommand(two, ['--bpf-program', 'A1'])).toThrow(/"--bpf-program": expected two values: ADDR FILE/);
  });

  it('suggests close names only', () => {
    expect(didYouMean('verfy', ['verify', 'send'])).toBe('verify');
    expect(didYouMean('snd', ['verify', 'send'])).toBe('send');
    expect(didYouMean('xyzzy', ['verify', 'send'])).toBeUndefined();
  });
});

describe('cairn (the dispatcher)', () => {
  const top = async (argv: string[]) => {
    const c = capture();
    const code = await dispatch(argv, c.io);
    return { code, out: c.out(), err: c.err() };
  };

  it('--help, -h and no arguments: a line per command saying what it does, exit 0', async () => {
    for (const argv of [['--help'], ['-h'], [], ['help']]) {
      const r = await top(argv);
      expect(r.code).toBe(0);
      for (const [name, c] of Object.entries(COMMANDS)) expect(r.out).toContain(`  ${name.padEnd(9)}${c.summary}\n`);
      expect(r.out).toMatch(/exit codes: 0 ok, 1 failed or invalid, 2 usage/);
    }
  });

  it('--version, -V and version: the package version, exit 0', async () => {
    for (const v of ['--version', '-V', 'version']) expect(await top([v])).toEqual({ code: 0, out: `cairn ${VERSION}\n`, err: '' });
  });

  it('an unknown command: exit 2, "did you mean"; one with nothing close lists the commands', async () => {
    const r = await top(['verfy', 'x']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^cairn: \[INPUT_INVALID\] unknown command 'verfy', did you mean 'verify'\?/);
    expect(r.out).toBe('');
    const s = await top(['frobnicate']);
    expect(s.code).toBe(2);
    expect(s.err).toMatch(/unknown command 'frobnicate'; commands: verify, send/);
    expect((await top(['help', 'sned'])).err).toMatch(/did you mean 'send'/);
    expect((await top(['--bogus'])).code).toBe(2);
  });
});

/** `bin/cairn.js` as a user runs it. */
function cairn(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['bin/cairn.js', ...args], { timeout: 60_000 }, (e, out, err) => resolve({ code: e ? ((e as { code?: number }).code ?? null) : 0, out, err }));
  });
}

describe('cairn as a process', () => {
  it('help <cmd> and <cmd> --help print the same; --version; a typo exits 2', async () => {
    const [a, b, v, t] = await Promise.all([cairn(['help', 'verify']), cairn(['verify', '--help']), cairn(['--version']), cairn(['sendd'])]);
    expect(a.code).toBe(0);
    expect(a.out).toBe(b.out);
    expect(a.out).toMatch(/--only-invalid/);
    expect(v).toMatchObject({ code: 0, out: `cairn ${VERSION}\n` });
    expect(t.code).toBe(2);
    expect(t.err).toMatch(/did you mean 'send'/);
  });

  it('cairn bench --help prints the help and runs nothing', async () => {
    const t0 = Date.now();
    const r = await cairn(['bench', '--help']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^usage: cairn bench /);
    expect(r.out).toMatch(/--out DIR/);
    expect(r.out).not.toMatch(/===/);
    expect(Date.now() - t0).toBeLessThan(30_000);
  });
});
