// The README's snippets as a consumer of the published package writes them (imports by package name,
// the free variables the README leaves to the reader bound to a devnet). pack.test.ts type-checks
// this file under strict node16, bundler and exactOptionalPropertyTypes, then runs it.
import { CairnError, createClient, createSender, generateSigner, isCairnError, transferInstruction } from 'cairn-solana';
import { createVerifier } from 'cairn-solana/merkle';
import { startDevnet } from 'cairn-solana/devnet';
import { mintCompressedNft } from 'cairn-solana/mint';

const devnet = await startDevnet({ port: 0, slotMs: 50 });
try {
  // ## Sending transactions
  const client = createClient({ url: devnet.url });
  const sender = createSender({ client, cuPrice: 200_000, cuLimit: 1_000, pollMs: 100 });
  const payer = generateSigner();
  await devnet.control.airdrop(payer.address, 10n ** 9n);
  const to = generateSigner().address;
  const out = await sender.send({ instructions: [transferInstruction(payer.address, to, 5_000_000n)], payer });
  console.log('send', typeof out.signature, out.attempts >= 1);
  const inputs = [1, 2].map((i) => ({ instructions: [transferInstruction(payer.address, to, 1_000_000n + BigInt(i))], payer }));
  let landed = 0;
  for await (const r of sender.sendMany(inputs, { concurrency: 256 })) {
    if (r.ok) landed++;
    else console.error(r.index, r.error instanceof CairnError ? r.error.code : '', r.error.message);
  }
  console.log('sendMany', landed);
  await sender.close();

  // ## Minting compressed NFTs, ## Verifying proofs offline
  const owner = generateSigner().address;
  const minted = await mintCompressedNft(client, { name: 'Stone #1', symbol: 'CAIRN', description: '', owner }, { verify: true });
  const verifier = createVerifier({ threads: 1 });
  try {
    const id = minted.assetId;
    const proofs = await client.getAssetProofBatch({ ids: [id] });
    let valid = 0;
    for (const v of await verifier.verify('asset-proof', proofs)) if (v.valid) valid++;
    console.log('verify', valid);
  } finally {
    await verifier.close();
  }

  // ## The typed client: errors
  try {
    await client.getAsset({ id: 'not-an-address' });
  } catch (e) {
    if (isCairnError(e, 'INPUT_INVALID')) console.log('error', e.code, typeof e.context.field);
    else throw e;
  }
  await client.close();
} finally {
  await devnet.stop();
}
