/**
 * The papercuts of issue 31, each as a user met it: `cairn -v`; `cairn mint -u URL`; the mint's
 * deprecation said once in cairn's words (no Node DeprecationWarning, no "--trace-deprecation"),
 * nothing with --quiet; `--keypair nokey.json` saying there is no such file; `createClient({ url:
 * 'localhost:8899' })` blaming `url` and naming the missing scheme; `devnet.control.airdrop(signer)`;
 * `verifyValidityProof` always a promise. (`cairn journal status nope.jsonl`: test/cli/journal.test.ts;
 * `nr_pubinputs: "2"` and snarkjs keys: test/merkle/snarkjs-key.test.ts.)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateKeyPairSigner } from '@solana/kit';
import { Keypair } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { cairnVersion } from '../../src/cli/args.js';
import { dispatch } from '../../src/cli/commands.js';
import { run as mint } from '../../src/cli/mint.js';
import { run as send } from '../../src/cli/send.js';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { InputError } from '../../src/errors/index.js';
import { verifyValidityProof } from '../../src/index.js';
import * as merkle from '../../src/merkle/index.js';
import { resetDeprecationWarnings } from '../../src/internal.js';
import { createClient } from '../../src/rpc/client/create-client.js';
import { generateSigner } from '../../src/solana/signer.js';

const OWNER = '4ACfpUFoaSD9bfPdeu6DBt89gB6ENTeHBXCAi87NhDEE';
const dir = mkdtempSync(join(tmpdir(), 'cairn-papercuts-'));
let devnet: Devnet;

beforeAll(async () => {
  devnet = await startDevnet({ slotMs: 40, waitForModules: true, wsPortPlusOne: false });
});
afterAll(async () => {
  await devnet?.stop();
  rmSync(dir, { recursive: true, force: true });
});

function io() {
  const t = { out: '', err: '' };
  return { t, io: { stdout: { write: (s: string) => void (t.out += s) }, stderr: { write: (s: string) => void (t.err += s) } } };
}

describe('the CLI', () => {
  it('cairn -v prints the version, as --version and -V do', async () => {
    for (const flag of ['-v', '-V', '--version']) {
      const { t, io: s } = io();
      expect(await dispatch([flag], s)).toBe(0);
      expect(t.out).toBe(`cairn ${cairnVersion()}\n`);
      expect(t.err).toBe('');
    }
  });

  it('cairn mint takes -u for --url (as send does), and says the deprecation once in its own words; --quiet says nothing', async () => {
    resetDeprecationWarnings();
    const args = ['--name', 'Cut #1', '--symbol', 'CUT', '--owner', OWNER, '--json', '--no-verify', '-u', devnet.url];
    const a = io();
    expect(await mint(args, a.io)).toBe(0);
    expect(JSON.parse(a.t.out).minted).toBe(true);
    expect(a.t.err.match(/deprecated/g)).toHaveLength(1);
    expect(a.t.err).toMatch(/^cairn: mintCompressedNft is deprecated; the zero-knowledge compression methods .* replace it\n$/);
    expect(a.t.err).not.toMatch(/DeprecationWarning|trace-deprecation|\(node:/);
    resetDeprecationWarnings();
    const q = io();
    expect(await mint([...args, '--quiet'], q.io)).toBe(0);
    expect(q.t.err).toBe('');
  });

  it('--keypair naming a missing file says so, not "cannot read as JSON"', async () => {
    const missing = join(dir, 'nokey.json');
    const { t, io: s } = io();
    expect(await send(['--to', OWNER, '--lamports', '5000', '--keypair', missing, '-u', devnet.url], s)).toBe(2);
    expect(t.err).toMatch(/nokey\.json: no such file/);
    expect(t.err).not.toMatch(/as JSON|ENOENT/);
    const d = io();
    expect(await send(['--to', OWNER, '--lamports', '5000', '--keypair', dir, '-u', devnet.url], d.io)).toBe(2);
    expect(d.t.err).toMatch(/a directory, not a keypair file/);
  });
});

describe('the library', () => {
  it("createClient({ url: 'localhost:8899' }) blames url and names the missing scheme", () => {
    let e: unknown;
    try {
      createClient({ url: 'localhost:8899' });
    } catch (x) {
      e = x;
    }
    expect(e).toBeInstanceOf(InputError);
    expect((e as InputError).context.field).toBe('url');
    expect((e as InputError).message).toMatch(/did you mean http:\/\/localhost:8899\?/);
    // a field given on its own is still the one blamed
    let b: unknown;
    try {
      createClient({ baseUrl: 'ftp://x' });
    } catch (x) {
      b = x;
    }
    expect((b as InputError).context.field).toBe('baseUrl');
  });

  it('devnet.control.airdrop takes a signer (cairn, kit), a Keypair, or an address', async () => {
    const cairn = generateSigner();
    const kit = await generateKeyPairSigner();
    const web3 = Keypair.generate();
    await devnet.control.airdrop(cairn, 1_000_000n);
    await devnet.control.airdrop(kit, 2_000_000);
    await devnet.control.airdrop(web3, 3_000_000n);
    await devnet.control.airdrop(web3.publicKey, 1n);
    expect(devnet.chain.balance(cairn.address)).toBe(1_000_000n);
    expect(devnet.chain.balance(kit.address)).toBe(2_000_000n);
    expect(devnet.chain.balance(web3.publicKey.toBase58())).toBe(3_000_001n);
    await expect(devnet.control.airdrop({ address: 'nope' }, 1n)).rejects.toMatchObject({ context: { field: 'address.address' } });
    await expect(devnet.control.airdrop(cairn, 0.5)).rejects.toMatchObject({ context: { field: 'lamports' } });
  });

  it('verifyValidityProof is one type, a promise, whether or not the backend is loaded (same verdicts as before)', async () => {
    for (const verify of [verifyValidityProof, merkle.verifyValidityProof]) {
      expectTypeOf(verify).returns.toEqualTypeOf<Promise<merkle.ValidityVerdict>>();
      const before = verify({ nope: true }, { structureOnly: true });
      expect(before).toBeInstanceOf(Promise);
      const v = await before.catch((e: unknown) => e);
      await merkle.initGroth16(); // loaded: it used to answer in line then
      const after = verify({ nope: true });
      expect(after).toBeInstanceOf(Promise);
      expect(await after.catch((e: unknown) => e)).toEqual(v);
    }
  });
});
