/**
 * The types users already have, handed to cairn as they are, against the devnet: web3.js
 * `PublicKey`/`Keypair`/`Connection` and kit `Address`/`KeyPairSigner`/`Rpc` passed to the client,
 * the sender, the mint and `devnet.control`, and each transfer or mint lands and reads back. Everything on 127.0.0.1.
 */
import { Connection, Keypair, PublicKey } from '@solana/web3.js';
import { address, createSolanaRpc, generateKeyPairSigner } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { CairnError, ErrorCodes } from '../../src/errors/index.js';
import { mintCompressedNft } from '../../src/mint/index.js';
import { createClient } from '../../src/rpc/client/create-client.js';
import { createSender, transferInstruction } from '../../src/sender/index.js';

let devnet: Devnet;
let client: ReturnType<typeof createClient>;
let conn: Connection;
const SOL = 1_000_000_000n;
// Fixed fee settings keep each send to one build; the estimate and simulation paths are exercised below.
const fast = { cuPrice: 200_000, cuLimit: 1_000, pollMs: 20, rebroadcastMs: 500 } as const;

beforeAll(async () => {
  devnet = await startDevnet({ slotMs: 25, wsPortPlusOne: false });
  client = createClient({ url: devnet.url });
  // No websocket: the adapter polls, and web3.js would reconnect one forever after stop().
  conn = new Connection(devnet.url, { commitment: 'confirmed', disableRetryOnRateLimit: true });
});
afterAll(async () => {
  await client?.close();
  await devnet?.stop();
});

describe('addresses: base58, a web3.js PublicKey and a kit Address are one address', () => {
  it('devnet.control.airdrop and the client take all three, and read the same balance', async () => {
    const kp = Keypair.generate();
    const kit = address(kp.publicKey.toBase58());
    await devnet.control.airdrop(kp.publicKey, SOL);
    await devnet.control.airdrop(kit, SOL);
    expect(await client.getBalance(kp.publicKey)).toBe(Number(2n * SOL));
    expect(await client.getBalance(kit)).toBe(Number(2n * SOL));
    expect(await client.getBalance(kp.publicKey.toBase58())).toBe(Number(2n * SOL));
    const many = await client.getMultipleAccounts([kp.publicKey, kit]);
    expect(many.map((a) => a?.lamports)).toEqual([Number(2n * SOL), Number(2n * SOL)]);
  });

  it('an object that is no address is INPUT_INVALID naming the field', async () => {
    const e = await devnet.control.airdrop({} as unknown as string, 1n).then(() => null, (x: unknown) => x);
    expect(e).toBeInstanceOf(CairnError);
    expect((e as CairnError).code).toBe(ErrorCodes.INPUT_INVALID);
    expect((e as CairnError<'INPUT_INVALID'>).context.field).toBe('address');
  });
});

describe('signers and clients: web3.js and kit objects back the sender', () => {
  const sendWith = async (
    payer: Keypair | Awaited<ReturnType<typeof generateKeyPairSigner>>,
    payerAddress: string,
    sender: ReturnType<typeof createSender>,
  ): Promise<void> => {
    await devnet.control.airdrop(payerAddress, SOL);
    const to = new PublicKey(Keypair.generate().publicKey.toBytes());
    try {
      const out = await sender.send({ instructions: [transferInstruction(payerAddress, to, 1_000_000n)], payer });
      expect(out.signature).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/);
      expect(await client.getBalance(to)).toBe(1_000_000);
    } finally {
      await sender.close();
    }
  };

  it('a web3.js Keypair pays through cairn’s client', async () => {
    const kp = Keypair.generate();
    await sendWith(kp, kp.publicKey.toBase58(), createSender({ client, ...fast }));
  });

  it('a kit KeyPairSigner pays (it signs asynchronously), with the simulated CU limit and the fee estimate', async () => {
    const kit = await generateKeyPairSigner();
    await sendWith(kit, kit.address, createSender({ client, pollMs: 20, rebroadcastMs: 500 }));
  });

  it('a web3.js Connection backs the sender', async () => {
    const kp = Keypair.generate();
    await sendWith(kp, kp.publicKey.toBase58(), createSender({ client: conn, pollMs: 20, rebroadcastMs: 500 }));
  });

  it('a kit Rpc backs the sender, with a kit signer paying', async () => {
    const kit = await generateKeyPairSigner();
    await sendWith(kit, kit.address, createSender({ client: createSolanaRpc(devnet.url), pollMs: 20, rebroadcastMs: 500 }));
  });

  it('an object that is no client is INPUT_INVALID naming client and the missing methods', () => {
    let e: unknown;
    try {
      createSender({ client: { sendTransaction: async () => 'x' } });
    } catch (x) {
      e = x;
    }
    expect(e).toBeInstanceOf(CairnError);
    expect((e as CairnError).code).toBe(ErrorCodes.INPUT_INVALID);
    expect((e as CairnError<'INPUT_INVALID'>).context.field).toBe('client');
    expect((e as Error).message).toMatch(/getLatestBlockhash.*getBlockHeight/);
  });
});

describe('mint: a PublicKey owner and a kit Address creator', () => {
  it('mints, verifies, and the client finds the asset by the owner as a PublicKey', async () => {
    const owner = Keypair.generate().publicKey;
    const creator = address(Keypair.generate().publicKey.toBase58());
    const r = await mintCompressedNft(
      client,
      { name: 'Typed', symbol: 'TYP', description: '', owner, creators: [{ address: creator, share: 100 }] },
      { verify: true, logger: () => {} },
    );
    expect(r.verification?.proof.valid).toBe(true);
    const asset = await client.getAsset({ id: r.assetId });
    expect(asset.ownership?.owner).toBe(owner.toBase58());
    const page = await client.getAssetsByOwner({ ownerAddress: owner });
    expect(page.items.map((a) => a.id)).toContain(r.assetId);
    const paged: string[] = [];
    for await (const a of client.paginate.getAssetsByOwner({ ownerAddress: owner })) paged.push(a.id);
    expect(paged).toContain(r.assetId);
  });
});
