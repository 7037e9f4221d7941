/**
 * Every ```ts block of README.md runs as written against a devnet: each block is written to a module
 * (its `cairn-solana` imports pointed at src/, as the package's exports point at dist/), preceded by
 * bindings for the names the README leaves to the reader (`devnet`, `secretKey64`, …) and followed by
 * what closes what it left open, then imported. The production snippet runs with the service's host
 * names redirected to a devnet that demands the API key (test/support/redirect-hosts.mjs), so it
 * really resolves mainnet's hosts and speaks TLS to them. Each block's output is checked, so a
 * snippet that runs but does the wrong thing fails too. (readme-examples.test.ts type-checks them.)
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLUSTER_HOSTS, SENDER_REGIONS } from '../../src/clusters.js';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { generateSigner } from '../../src/sender/index.js';
import { startPostgres, type PostgresServer } from '../support/postgres-server.js';
import { redirectHosts } from '../support/redirect-hosts.mjs';
import { documents, root, tsBlocks, type Block } from './doc-blocks.js';

const readme = documents().find((d) => d.file === 'README.md')!;
const blocks = tsBlocks(readme.text, 'README.md');
const KEY = 'readme-run-key-5c1e';

/** What each block needs around it: bindings before, closing after, and what its output must show. */
interface Harness {
  before?: string;
  after?: string;
  expect: (out: string[]) => void;
  /** Runs with mainnet's host names redirected to a keyed devnet and CAIRN_API_KEY set. */
  production?: true;
  postgres?: true;
}
const shared = 'const { devnet } = (globalThis as any).__readme;';
const harness: Record<string, Harness> = {
  'README.md:cairn-solana#1': {
    production: true,
    before: 'const { secretKey64, to } = (globalThis as any).__readme;',
    after: 'console.log("signature", signature); await sender.close(); await client.close();',
    expect: (out) => expect(out.join('\n')).toMatch(/^signature [1-9A-HJ-NP-Za-km-z]{64,88}$/m),
  },
  'README.md:cairn-solana#2': {
    before: "import { createClient } from 'cairn-solana';",
    after: 'console.log("slot", await local.getSlot()); await local.close(); await devnet.stop();',
    expect: (out) => expect(out.join('\n')).toMatch(/^slot \d+$/m),
  },
  'README.md:A bot#1': { before: shared, expect: (out) => expect(out.filter((l) => /^[01] \w{64,88} \d+$/.test(l))).toHaveLength(2) },
  'README.md:A mint script#1': { before: shared, expect: (out) => expect(out.join('\n')).toMatch(/"leaf":/) },
  'README.md:A backend that verifies#1': {
    before: shared,
    expect: (out) => {
      expect(out.filter((l) => l.startsWith('owns ')), out.join('\n')).toHaveLength(1);
      expect(out.filter((l) => l.endsWith(' valid'))).toHaveLength(1);
      expect(out.at(-1)).toBe('true');
    },
  },
  'README.md:A fleet#1': {
    postgres: true,
    before: 'const { devnet, databaseUrl } = (globalThis as any).__readme;',
    expect: (out) => expect(out).toContain('1 confirmed'),
  },
  'README.md:Subscriptions and bundles#1': {
    before: shared,
    expect: (out) => {
      expect(out.join('\n')).toMatch(/^bundle of 2 confirmed$/m);
      expect(out.join('\n')).toMatch(/^payer holds \d+$/m);
    },
  },
  'README.md:Testing against the devnet#1': { before: shared, expect: (out) => expect(out.join('\n')).toMatch(/^verified v1_inclusion_26_1$/m) },
  'README.md:Errors#1': { before: shared, expect: (out) => expect(out.join('\n')).toMatch(/^bad field: params\.id$/m) },
};

const work = mkdtempSync(join(tmpdir(), 'cairn-readme-run-'));
const modules = join(root, 'test', 'docs', '.readme-run');
let devnet: Devnet;
let keyed: Devnet;
let pg: PostgresServer | undefined;

beforeAll(async () => {
  [devnet, keyed] = await Promise.all([startDevnet({ port: 0, slotMs: 50 }), startDevnet({ port: 0, slotMs: 50, keys: [{ key: KEY, name: 'readme' }] })]);
  mkdirSync(modules, { recursive: true });
}, 60_000);
afterAll(async () => {
  await Promise.all([devnet?.stop(), keyed?.stop(), pg?.stop()]);
  rmSync(modules, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

/** The block as a module: its imports of the package pointed at src/, its free names bound. */
function moduleText(b: Block, h: Harness): string {
  const src = (sub: string | undefined) => pathToFileURL(join(root, 'src', sub ? `${sub}/index.ts` : 'index.ts')).href;
  const code = b.code.replace(/from '(cairn-solana)(?:\/(\w+))?'/g, (_, _name, sub: string | undefined) => `from '${src(sub)}'`);
  const before = (h.before ?? '').replace(/from '(cairn-solana)(?:\/(\w+))?'/g, (_, _name, sub: string | undefined) => `from '${src(sub)}'`);
  return `${before}\n${code}\n${h.after ?? ''}\nexport {};\n`;
}

describe('the README snippets run as written', () => {
  it('every block has a harness, and every harness a block', () => {
    expect(blocks.map((b) => b.key).sort()).toEqual(Object.keys(harness).sort());
  });

  it.each(blocks.map((b) => [b.key, b] as const))('%s', async (key, b) => {
    const h = harness[key]!;
    const payer = generateSigner();
    const target = h.production ? keyed : devnet;
    await target.control.airdrop(payer.address, 10n ** 9n);
    if (h.postgres) pg ??= await startPostgres();
    (globalThis as { __readme?: unknown }).__readme = { devnet, secretKey64: payer.secretKey(), to: generateSigner().address, databaseUrl: pg?.url };
    const file = join(modules, `${key.replace(/[^\w]+/g, '-')}.ts`);
    writeFileSync(file, moduleText(b, h));
    const out: string[] = [];
    const log = console.log;
    console.log = (...args: unknown[]) => void out.push(args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a, (_, v) => (typeof v === 'bigint' ? String(v) : v)))).join(' '));
    const cwd = process.cwd();
    process.chdir(work); // a journal file a snippet names lands here, not in the repository
    const hosts = [...new Set([...Object.values(CLUSTER_HOSTS.mainnet), ...Object.values(SENDER_REGIONS)].map((u) => new URL(u).hostname))];
    const redirect = h.production ? await redirectHosts({ target: keyed.url, hosts }) : undefined;
    if (h.production) process.env.CAIRN_API_KEY = KEY;
    try {
      await import(pathToFileURL(file).href);
    } finally {
      delete process.env.CAIRN_API_KEY;
      await redirect?.restore();
      process.chdir(cwd);
      console.log = log;
    }
    if (redirect) expect(redirect.refused).toEqual([]);
    if (redirect) expect(new Set(redirect.redirected)).toContain('https://mainnet.helius-rpc.com:443');
    h.expect(out);
  }, 120_000);
});
