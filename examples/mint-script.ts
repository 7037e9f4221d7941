/**
 * A mint script: mint a list of compressed NFTs through the (deprecated) `mintCompressedNft` method,
 * verify each one offline after minting, and report per item — a bad entry is reported with the field
 * it got wrong and does not stop the others.
 *
 *   npx tsx examples/mint-script.ts                   # starts its own devnet, mints a built-in list
 *   CAIRN_URL=http://127.0.0.1:8899 npx tsx examples/mint-script.ts items.json
 *
 * items.json: [{ "name": "...", "symbol": "...", "owner": "<base58>", "uri": "...", ... }, ...]
 */
import { readFileSync } from 'node:fs';
import { startDevnet, type Devnet } from '../src/devnet/index.js';
import { createClient } from '../src/rpc/client/create-client.js';
import { mintCompressedNft, type MintCompressedNftParams } from '../src/mint/mint-compressed-nft.js';
import { generateSigner } from '../src/sender/index.js';
import { CairnError } from '../src/errors/index.js';

let devnet: Devnet | undefined;
let url = process.env.CAIRN_URL;
if (!url) {
  devnet = await startDevnet({ port: 0, slotMs: 100 });
  url = devnet.url;
  console.log(`started a devnet at ${url}`);
}

const owner = generateSigner().address;
const items: MintCompressedNftParams[] = process.argv[2]
  ? (JSON.parse(readFileSync(process.argv[2], 'utf8')) as MintCompressedNftParams[])
  : [
      { name: 'Cairn Stone #1', symbol: 'CAIRN', description: 'first stone', owner, sellerFeeBasisPoints: 500, creators: [{ address: owner, share: 100 }] },
      { name: 'Cairn Stone #2', symbol: 'CAIRN', description: 'second stone', owner, attributes: [{ trait_type: 'colour', value: 'granite' }] },
      // deliberately bad: the symbol is longer than Bubblegum's 10 bytes; reported, nothing sent
      { name: 'Cairn Stone #3', symbol: 'WAY-TOO-LONG', description: 'rejected before sending', owner },
    ];

const client = createClient({ url });
const ac = new AbortController();
process.once('SIGINT', () => ac.abort(new Error('interrupted')));
let minted = 0;
try {
  for (const [i, item] of items.entries()) {
    try {
      // verify: fetch the asset and its proof, recompute the leaf, walk the proof, compare the content
      const r = await mintCompressedNft(client, { ...item, confirmTransaction: true }, { verify: true, signal: ac.signal });
      minted++;
      console.log(`#${i + 1} ${item.name}: ${r.assetId} (leaf ${r.verification?.leaf.status ?? 'ok'}, proof valid)`);
    } catch (e) {
      if (e instanceof CairnError && e.code === 'INPUT_INVALID') console.log(`#${i + 1} ${item.name}: refused, ${e.message}`);
      else if (e instanceof CairnError) console.log(`#${i + 1} ${item.name}: failed [${e.code}] ${e.message}`);
      else throw e;
    }
  }
  console.log(`\n${minted}/${items.length} minted and verified`);
} finally {
  await client.close();
  await devnet?.stop();
}
