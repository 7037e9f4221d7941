/**
 * A backend that does not trust the service: it lists every compressed NFT of an owner page by page,
 * fetches their proofs in batches (as raw bytes, which the worker pool parses itself), and verifies
 * each proof before using the data; compressed token accounts the same way (hash recomputed, proof walked).
 * The proofs are anchored: each root must be in its tree's root history on chain, read with
 * getMultipleAccounts (from CAIRN_ANCHOR_URL, a node of your own, or else the service itself), so an
 * indexer's self-consistent fabrication is caught (`unknown-root`). Anything that does not verify is
 * reported with the reason and left out.
 *
 *   npx tsx examples/verify-backend.ts               # starts its own devnet and fills it
 *   CAIRN_URL=https://… CAIRN_API_KEY=… [CAIRN_ANCHOR_URL=https://…] npx tsx examples/verify-backend.ts <owner>
 */
import { startDevnet, type Devnet } from '../src/devnet/index.js';
import { createClient } from '../src/rpc/client/create-client.js';
import { createVerifier } from '../src/merkle/verifier/create-verifier.js';
import { mintCompressedNft } from '../src/mint/mint-compressed-nft.js';
import { generateSigner } from '../src/sender/index.js';

let devnet: Devnet | undefined;
let url = process.env.CAIRN_URL;
let owner = process.argv[2];
if (!url) {
  devnet = await startDevnet({ port: 0, slotMs: 100, waitForModules: true });
  url = devnet.url;
  owner = generateSigner().address;
  const seedClient = createClient({ url });
  for (let i = 0; i < 12; i++) {
    await mintCompressedNft(seedClient, { name: `stone ${i}`, symbol: 'CAIRN', description: '', owner }, { logger: () => {} });
  }
  const mint = generateSigner().address;
  await devnet.compression!.mintCompressedTokens({ mint, recipients: Array.from({ length: 5 }, (_, i) => ({ owner, amount: 1_000n * BigInt(i + 1) })) });
  await seedClient.close();
  console.log(`started a devnet at ${url} with 12 cNFTs and 5 compressed token accounts for ${owner}`);
}
if (!owner) throw new Error('usage: verify-backend.ts <owner address> (with CAIRN_URL set)');

const client = createClient({ url, apiKey: process.env.CAIRN_API_KEY });
// The chain is the authority on roots: read the tree accounts from a node of your own when you have one.
const anchorUrl = process.env.CAIRN_ANCHOR_URL;
const verifier = createVerifier({ threads: 2, anchor: { rpc: anchorUrl ?? client, commitment: 'confirmed' } });
try {
  // 1. Compressed NFTs: every page of the owner's assets, proofs fetched 100 ids at a time.
  const ids: string[] = [];
  for await (const asset of client.paginate.getAssetsByOwner({ ownerAddress: owner, limit: 5 })) {
    if (asset.compression?.compressed) ids.push(asset.id);
  }
  let trusted = 0;
  for (let i = 0; i < ids.length; i += 100) {
    // The response body as received: this thread only scans it, the workers parse and verify the
    // proofs. A table answers with counts and the invalid items (named by the ids the response is
    // keyed by), without a verdict object per proof: the cheapest answer for a large batch.
    const body = await client.callRaw('getAssetProofBatch', { ids: ids.slice(i, i + 100) });
    const table = await verifier.verifyTable('asset-proof', body);
    trusted += table.validCount;
    for (const v of table.invalid()) console.log(`asset ${v.id}: NOT trusted, ${v.reason}`);
  }
  console.log(`assets: ${trusted}/${ids.length} proofs verified and anchored (roots found on chain)`);

  // 2. Compressed token accounts: every page (cursor-based), each account hash recomputed and its proof walked.
  const accounts: { hash: string }[] = [];
  for await (const item of client.paginate.getCompressedTokenAccountsByOwner({ owner, limit: 2 })) {
    accounts.push(item.account as { hash: string });
  }
  const hashVerdicts = await verifier.verify('account-hash', accounts);
  const proofs = await Promise.all(
    accounts.map((a) => client.getCompressedAccountProof({ hash: a.hash }).then((r) => r.value)),
  );
  const proofVerdicts = await verifier.verify('account-proof', proofs);
  const ok = proofVerdicts.filter((v, i) => v.valid && hashVerdicts[i]!.valid).length;
  const anchored = proofVerdicts.filter((v) => v.anchored).length;
  console.log(`compressed token accounts: ${ok}/${accounts.length} hashes and proofs verified, ${anchored} proofs anchored`);
} finally {
  await verifier.close();
  await client.close();
  await devnet?.stop();
}
