/**
 * `cairn demo` (what `npm start` runs): the whole product once, end to end, on this machine. It
 * starts the embedded devnet, funds a payer, lands a batch of transfers through `/fast` with the
 * sender (rebroadcast + one batched status tracker), mints compressed NFTs and verifies them, puts
 * compressed accounts and addresses in the devnet's Poseidon trees, and verifies every proof the
 * service hands back offline in the worker pool. It exits 0 only when every step held.
 */
import { startDevnet, type Devnet } from '../devnet/index.js';
import { createClient, type CairnClient } from '../rpc/index.js';
import { createSender, generateSigner, transferInstruction, type Sender } from '../sender/index.js';
import { mintCompressedNft } from '../mint/index.js';
import { CAIRN_DEVNET, createVerifier, type Verifier, verifyValidityProof, type Verdict } from '../merkle/index.js';
import { intFlag, reportError, runCommand, type CliWriter } from './args.js';
import { createProgress } from './progress.js';
import { QUIET_FLAG, type CommandSpec } from './usage.js';

/** The devnet's own key set (opt-in: forgeable by anyone, never tried on a real service's answers). */
const CAIRN_DEVNET_KEYS = CAIRN_DEVNET;

export interface DemoIo {
  stdout: CliWriter;
  /** A terminal here (`isTTY`) gets progress lines for the transfers and the mints. */
  stderr: CliWriter;
}

export const SPEC: CommandSpec = {
  name: 'demo',
  summary: 'Run the whole toolkit once, end to end, against an embedded devnet it starts and stops itself (npm start).',
  synopsis: '[--transfers N] [--mints N] [--accounts N] [--threads N] [--quiet]',
  flags: {
    transfers: { type: 'string', value: 'N', describe: 'transfers sent through /fast, 1–100000 (default 300)' },
    mints: { type: 'string', value: 'N', describe: 'compressed NFTs minted and verified, 1–1000 (default 3)' },
    accounts: { type: 'string', value: 'N', describe: 'compressed accounts and new addresses proved, 1–1000 (default 4)' },
    threads: { type: 'string', value: 'N', describe: 'verifier worker threads, 0–64 (default 2)' },
    quiet: QUIET_FLAG,
  },
  exits: [
    [0, 'every check held'],
    [1, 'a check failed or a step errored (the output says which)'],
    [2, 'usage'],
  ],
};

export async function run(argv: string[], io: DemoIo = { stdout: process.stdout, stderr: process.stderr }): Promise<number> {
  return runCommand(SPEC, argv, io, async ({ values }) => {
    const opts = {
      transfers: intFlag(values, 'transfers', 1, 100_000) ?? 300,
      mints: intFlag(values, 'mints', 1, 1_000) ?? 3,
      accounts: intFlag(values, 'accounts', 1, 1_000) ?? 4,
      threads: intFlag(values, 'threads', 0, 64) ?? 2,
    };
    return demo(opts, values.quiet === true, io);
  });
}

async function demo(opts: { transfers: number; mints: number; accounts: number; threads: number }, quiet: boolean, io: DemoIo): Promise<number> {
  const say = (s: string) => io.stdout.write(`${s}\n`);
  const ac = new AbortController();
  const onSignal = () => ac.abort(new Error('interrupted'));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const failures: string[] = [];
  let devnet: Devnet | undefined;
  let client: CairnClient | undefined;
  let sender: Sender | undefined;
  let verifier: Verifier | undefined;
  try {
    const t0 = performance.now();
    devnet = await startDevnet({ port: 0, slotMs: 100, waitForModules: true });
    say(`devnet      up at ${devnet.url} in ${Math.round(performance.now() - t0)} ms (LiteSVM, 100 ms slots)`);
    client = createClient({ url: devnet.url });
    verifier = createVerifier({ threads: opts.threads });

    // 1. Transfers through /fast: tip + CU price added by the sender, confirmed by one tracker.
    const payer = generateSigner();
    await devnet.control.airdrop(payer.address, 10n ** 9n * BigInt(Math.ceil(opts.transfers / 50) + 2), ac.signal);
    const recipients = Array.from({ length: 8 }, () => generateSigner().address);
    sender = createSender({ client, cuPrice: 200_000, cuLimit: 1_000 });
    devnet.control.clearRequestLog();
    const t1 = performance.now();
    let confirmed = 0;
    const errors = new Map<string, number>();
    const inputs = Array.from({ length: opts.transfers }, (_, i) => ({
      instructions: [transferInstruction(payer.address, recipients[i % recipients.length]!, 1_000_000n + BigInt(i))],
      payer,
    }));
    const sent = createProgress(io.stderr, { label: 'send: transfers', total: opts.transfers, quiet });
    for await (const r of sender.sendMany(inputs, { concurrency: 256, signal: ac.signal })) {
      sent.tick();
      if (r.ok) confirmed++;
      else {
        const code = (r.error as { code?: string }).code ?? r.error.name;
        errors.set(code, (errors.get(code) ?? 0) + 1);
      }
    }
    sent.done();
    const secs = (performance.now() - t1) / 1000;
    const log = devnet.control.requestLog();
    const statusCalls = log.filter((e) => e.method === 'getSignatureStatuses').length;
    const ticks = sender.stats.tracker.ticks;
    say(
      `send        ${confirmed}/${opts.transfers} transfers confirmed in ${secs.toFixed(2)} s (${Math.round(confirmed / secs)}/s); ` +
        `${statusCalls} status calls in ${ticks} tracker ticks, ${sender.stats.rebroadcasts} rebroadcasts`,
    );
    if (confirmed !== opts.transfers) failures.push(`send: ${[...errors].map(([c, n]) => `${c} ×${n}`).join(', ')}`);
    const ledgerCount = devnet.control.ledger().filter((t) => t.accountKeys[0] === payer.address && t.err === null).length;
    if (ledgerCount !== opts.transfers) failures.push(`ledger: ${ledgerCount} executed transfers for ${opts.transfers} intents`);

    // 2. Compressed NFTs through the deprecated method, each verified offline after minting.
    const owner = generateSigner().address;
    const assetIds: string[] = [];
    const minted = createProgress(io.stderr, { label: 'mint: cNFTs', total: opts.mints, quiet });
    for (let i = 0; i < opts.mints; i++) {
      const m = await mintCompressedNft(
        client,
        { name: `cairn demo #${i + 1}`, symbol: 'CAIRN', description: 'minted by npm start', owner, sellerFeeBasisPoints: 500, creators: [{ address: owner, share: 100 }] },
        // the deprecation, once per process, in cairn's words on the process's stderr; --quiet says nothing
        { verify: true, signal: ac.signal, deprecationWarnings: !quiet },
      );
      assetIds.push(m.assetId);
      minted.tick();
    }
    minted.done();
    const proofs = await client.getAssetProofBatch({ ids: assetIds }, { signal: ac.signal });
    const assetVerdicts = await verifier.verify('asset-proof', proofs, { signal: ac.signal });
    const assets = await client.getAssetBatch({ ids: assetIds }, { signal: ac.signal });
    const leafVerdicts = await verifier.verify('asset-leaf', assets, { signal: ac.signal });
    say(`mint        ${assetIds.length} cNFTs minted; asset proofs ${tally(assetVerdicts)}; leaves ${tally(leafVerdicts)}`);
    check(failures, 'asset proofs', assetVerdicts, assetIds.length);
    check(failures, 'asset leaves', leafVerdicts, assetIds.length);

    // 3. ZK compression: accounts in the Poseidon state tree, new addresses in the indexed tree.
    const compression = devnet.compression!;
    const hashes: string[] = [];
    for (let i = 0; i < opts.accounts; i++) {
      const r = await compression.createCompressedAccount({ owner, lamports: 1_000n * BigInt(i + 1) }, { signal: ac.signal });
      hashes.push(String(r.account.hash));
    }
    const accountProofs = await Promise.all(hashes.map((hash) => client!.getCompressedAccountProof({ hash }, { signal: ac.signal })));
    const accountVerdicts = await verifier.verify('account-proof', accountProofs.map((p) => p.value), { signal: ac.signal });
    const addresses = Array.from({ length: opts.accounts }, (_, i) =>
      compression.deriveAddress([new TextEncoder().encode(`demo-${Date.now()}-${i}`)], owner),
    );
    const addressProofs = await client.getMultipleNewAddressProofs(addresses, { signal: ac.signal });
    const addressVerdicts = await verifier.verify('address-proof', addressProofs, { signal: ac.signal });
    say(`compression ${hashes.length} accounts: proofs ${tally(accountVerdicts)}; ${addresses.length} new addresses: non-inclusion ${tally(addressVerdicts)}`);
    check(failures, 'account proofs', accountVerdicts, hashes.length);
    check(failures, 'address proofs', addressVerdicts, addresses.length);

    // 4. A validity proof: the devnet proves for real (Groth16 on its prover thread, keys of the
    //    cairn-devnet@1 set, made on first use and cached); it verifies under that opt-in set only.
    const validity = await client.getValidityProof({ hashes: hashes.slice(0, 1) }, { signal: ac.signal });
    const vv = await verifyValidityProof(validity.value, { keySets: [CAIRN_DEVNET_KEYS] });
    say(`validity    circuit ${vv.circuit ?? '?'}: ${vv.status}${vv.keySet ? ` under ${vv.keySet}` : ''}`);
    if (!vv.valid || vv.keySet !== CAIRN_DEVNET_KEYS.version) failures.push(`validity: expected verified under ${CAIRN_DEVNET_KEYS.version}, got ${vv.status}${vv.reason ? ` (${vv.reason})` : ''}`);

    say(failures.length ? `\nFAILED\n  ${failures.join('\n  ')}` : `\nall checks held (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
    return failures.length ? 1 : 0;
  } catch (e) {
    // A step that errored is a failed demo (1), whatever its code: the options were checked above.
    reportError('demo', e, io, false);
    return 1;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await sender?.close();
    await verifier?.close();
    await client?.close();
    await devnet?.stop();
  }
}

function tally(vs: Verdict[]): string {
  const valid = vs.filter((v) => v.valid).length;
  return `${valid}/${vs.length} valid`;
}

function check(failures: string[], what: string, vs: Verdict[], expected: number): void {
  const bad = vs.filter((v) => !v.valid);
  if (vs.length !== expected) failures.push(`${what}: ${vs.length} verdicts for ${expected} items`);
  if (bad.length) failures.push(`${what}: ${bad.map((v) => `${v.id ?? '?'}: ${v.reason}`).join('; ')}`);
}
