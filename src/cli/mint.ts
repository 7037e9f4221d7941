/**
 * `cairn mint`: mint one compressed NFT through the deprecated `mintCompressedNft` method and, unless
 * `--no-verify`, fetch the asset and its proof and verify both offline before reporting success.
 * Like every command it talks to the embedded devnet's default address unless told otherwise
 * (`--url`, or the CAIRN_* environment variables; the key only from CAIRN_API_KEY or --api-key).
 */
import { parseArgs } from 'node:util';
import { CairnError } from '../errors.js';
import { createClient } from '../rpc/client.js';
import { mintCompressedNft, type MintCompressedNftParams } from '../mint/mint-compressed-nft.js';

const USAGE = `usage: cairn mint --name NAME --symbol SYM --owner ADDR [options]
  --description TEXT        (default: empty)
  --uri URI                 off-chain metadata URI
  --image-url URL  --external-url URL
  --seller-fee-bps N        royalty in basis points (100 = 1%)
  --creator ADDR:SHARE      repeatable; shares must sum to 100
  --attribute TRAIT=VALUE   repeatable
  --collection ADDR  --delegate ADDR
  --no-verify               do not fetch and verify the minted asset and proof
  --json                    print the result as JSON
  --url URL                 one host for everything (default http://127.0.0.1:8899, the devnet)
  --api-key KEY             (prefer CAIRN_API_KEY: arguments are visible to other users)
  --allow-insecure-key      send the key over plain http to a host that is not loopback (refused otherwise)
`;

/** Where the command writes; tests hand in buffers. */
export interface MintIo {
  stdout: { write(s: string): unknown };
  stderr: { write(s: string): unknown };
}

export async function run(argv: string[], io: MintIo = { stdout: process.stdout, stderr: process.stderr }): Promise<number> {
  let values: Record<string, string | boolean | string[] | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      options: {
        name: { type: 'string' },
        symbol: { type: 'string' },
        owner: { type: 'string' },
        description: { type: 'string' },
        uri: { type: 'string' },
        'image-url': { type: 'string' },
        'external-url': { type: 'string' },
        'seller-fee-bps': { type: 'string' },
        creator: { type: 'string', multiple: true },
        attribute: { type: 'string', multiple: true },
        collection: { type: 'string' },
        delegate: { type: 'string' },
        'no-verify': { type: 'boolean' },
        json: { type: 'boolean' },
        url: { type: 'string' },
        'api-key': { type: 'string' },
        'allow-insecure-key': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (e) {
    io.stderr.write(`cairn mint: ${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    io.stdout.write(USAGE);
    return 0;
  }
  for (const f of ['name', 'symbol', 'owner'] as const) {
    if (typeof values[f] !== 'string') {
      io.stderr.write(`cairn mint: --${f} is required\n${USAGE}`);
      return 2;
    }
  }
  const params: MintCompressedNftParams = {
    name: values.name as string,
    symbol: values.symbol as string,
    owner: values.owner as string,
    description: (values.description as string | undefined) ?? '',
  };
  if (values.uri) params.uri = values.uri as string;
  if (values['image-url']) params.imageUrl = values['image-url'] as string;
  if (values['external-url']) params.externalUrl = values['external-url'] as string;
  if (values.collection) params.collection = values.collection as string;
  if (values.delegate) params.delegate = values.delegate as string;
  if (values['seller-fee-bps'] !== undefined) {
    const n = Number(values['seller-fee-bps']);
    if (!Number.isInteger(n)) {
      io.stderr.write(`cairn mint: --seller-fee-bps: expected an integer, got ${values['seller-fee-bps']}\n`);
      return 2;
    }
    params.sellerFeeBasisPoints = n;
  }
  // the two throws below are caught here: printed as a usage line with exit 2, never thrown out of the command
  try {
    params.creators = (values.creator as string[] | undefined)?.map((c, i) => {
      const [address, share] = c.split(':');
      const n = Number(share);
      if (!address || !share || !Number.isInteger(n)) throw new Error(`--creator #${i + 1}: expected ADDR:SHARE, got ${c}`);
      return { address, share: n };
    });
    params.attributes = (values.attribute as string[] | undefined)?.map((a, i) => {
      const eq = a.indexOf('=');
      if (eq <= 0) throw new Error(`--attribute #${i + 1}: expected TRAIT=VALUE, got ${a}`);
      return { trait_type: a.slice(0, eq), value: a.slice(eq + 1) };
    });
  } catch (e) {
    io.stderr.write(`cairn mint: ${(e as Error).message}\n`);
    return 2;
  }
  if (!params.creators) delete params.creators;
  if (!params.attributes) delete params.attributes;

  let client: ReturnType<typeof createClient>;
  try {
    client = createClient({
      ...(values.url ? { url: values.url as string } : {}),
      ...(values['api-key'] ? { apiKey: values['api-key'] as string } : {}),
      ...(values['allow-insecure-key'] ? { allowInsecureKey: true } : {}),
    });
  } catch (e) {
    const err = e as Error & { code?: string };
    io.stderr.write(`cairn mint: ${err.code ? `[${err.code}] ` : ''}${err.message}\n`);
    return 2;
  }
  const ac = new AbortController();
  const onSignal = () => ac.abort(new Error('interrupted'));
  process.once('SIGINT', onSignal);
  try {
    const verify = !values['no-verify'];
    const result = await mintCompressedNft(client, params, { verify, signal: ac.signal });
    if (values.json) {
      io.stdout.write(`${JSON.stringify(result)}\n`);
    } else {
      io.stdout.write(`minted ${result.assetId}\n  signature ${result.signature}\n`);
      if (result.verification) {
        for (const [k, v] of Object.entries(result.verification)) {
          io.stdout.write(`  ${k.padEnd(8)} ${v.valid ? 'valid' : `INVALID: ${v.reason}`}\n`);
        }
      }
    }
    return 0;
  } catch (e) {
    const code = e instanceof CairnError ? ` [${e.code}]` : '';
    const hint = e instanceof CairnError && e.code === 'RPC_NETWORK' && !values.url && !process.env.CAIRN_URL
      ? '\n  (nothing answers at the default devnet address: start one with `npx cairn devnet`, or pass --url)'
      : '';
    io.stderr.write(`cairn mint: ${(e as Error).message}${code}${hint}\n`);
    return e instanceof CairnError && e.code === 'INPUT_INVALID' ? 2 : 1;
  } finally {
    process.off('SIGINT', onSignal);
    await client.close();
  }
}
