// The real @lightprotocol/stateless.js 0.23 against the devnet, in its default (V2) mode and in V1
// mode: every compression method and helper it offers for the spec's operations, each answer
// passing stateless.js's own superstruct schemas (a wrong shape throws inside the library), the
// signature lists and the getSignaturesFor{Address,Owner}Interface helpers over them included.
// stateless.js 0.23 is built with version "V2"; its `featureFlags.version` is read on every call,
// so V1 mode is that field set to 'V1' (LIGHT_PROTOCOL_VERSION only matters when built from source).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import bs58 from 'bs58';
import { PublicKey } from '@solana/web3.js';
import { bn, createRpc, featureFlags, type Rpc } from '@lightprotocol/stateless.js';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { ADDRESS_TREE_V1, ADDRESS_TREE_V2, STATE_TREE_V1, STATE_TREE_V2 } from '../../src/devnet/compression/store.js';
import { signatureCursor } from '../../src/rpc/compression/signatures.js';
import { newAddress } from '../support/devnet.js';

let devnet: Devnet;
let rpc: Rpc;
const enc = new TextEncoder();
const key = (s: string) => new PublicKey(s);
const b254 = (s: string) => bn(bs58.decode(s));
const b58 = (x: { toArray(e: 'be', n: number): number[] }) => bs58.encode(Uint8Array.from(x.toArray('be', 32)));

interface World {
  owner: string;
  program: string;
  mint: string;
  holder: string;
  delegate: string;
  account: Record<string, any>;
  mintSig: string;
}

/** Accounts, token accounts and a transfer in the trees of one generation. */
async function world(version: 1 | 2): Promise<World> {
  const zk = devnet.compression!;
  const w = { owner: newAddress(), program: newAddress(), mint: newAddress(), holder: newAddress(), delegate: newAddress() };
  const account = (
    await zk.createCompressedAccount({ owner: w.owner, lamports: 1_000n, seeds: [enc.encode(`acc-${version}`)], programId: w.program, version, data: { discriminator: 7n, data: Uint8Array.from([1, 2, 3, 4]) } })
  ).account;
  await zk.createCompressedAccount({ owner: w.owner, lamports: 5n, version });
  const minted = await zk.mintCompressedTokens({
    mint: w.mint,
    version,
    recipients: [
      { owner: w.holder, amount: 100n },
      { owner: w.holder, amount: 40n, delegate: w.delegate },
      { owner: w.owner, amount: 1n },
    ],
  });
  await zk.transferCompressedTokens({ owner: w.holder, mint: w.mint, to: w.owner, amount: 30n, version });
  return { ...w, account, mintSig: minted.signature };
}

let v1: World;
let v2: World;

beforeAll(async () => {
  // Stand-in proofs: stateless.js only decodes them, and real ones (v1 and v2) add ~10 s to this file.
  devnet = await startDevnet({ slotMs: 20, seed: 5, validityProofs: 'fake' });
  await devnet.ready();
  rpc = createRpc(devnet.url, devnet.url, devnet.url);
  v1 = await world(1);
  v2 = await world(2);
}, 60_000);
afterEach(() => {
  featureFlags.version = '"V2"' as typeof featureFlags.version;
});
afterAll(async () => {
  await devnet?.stop();
});

/** Every method and helper for the spec's operations, with what the answers must say. */
async function exercise(w: World, stateTree: string, addressTree: string): Promise<void> {
  const hash = b254(w.account.hash);
  const owner = key(w.owner);

  // getCompressedAccount, by hash and by address
  const acc = await rpc.getCompressedAccount(undefined, hash);
  expect(acc).not.toBeNull();
  expect(acc!.treeInfo.tree.toBase58()).toBe(stateTree);
  expect(acc!.lamports.toNumber()).toBe(1_000);
  expect(acc!.proveByIndex).toBe(false);
  const byAddr = await rpc.getCompressedAccount(b254(w.account.address));
  expect(b58(byAddr!.hash)).toBe(w.account.hash);
  expect(await rpc.getCompressedAccount(undefined, b254(bs58.encode(new Uint8Array(32).fill(9))))).toBeNull();

  // balances
  expect((await rpc.getCompressedBalance(undefined, hash)).toNumber()).toBe(1_000);
  expect((await rpc.getCompressedBalanceByOwner(owner)).toNumber()).toBe(1_005);

  // proofs
  const proofs = await rpc.getMultipleCompressedAccountProofs([hash]);
  expect(b58(proofs[0].hash)).toBe(w.account.hash);
  expect(proofs[0].treeInfo.tree.toBase58()).toBe(stateTree);
  expect(proofs[0].merkleProof).toHaveLength(stateTree === STATE_TREE_V2 ? 32 : 26);
  if (featureFlags.isV2()) {
    const proof = await rpc.getCompressedAccountProof(hash);
    expect(b58(proof.hash)).toBe(w.account.hash);
    expect(proof.treeInfo.tree.toBase58()).toBe(stateTree);
    expect(b58(proofs[0].root)).toBe(b58(proof.root));
  } else {
    // stateless.js 0.23's V1 getCompressedAccountProof validates the indexer's `merkleTree` and then
    // reads `tree`, which the V1 proof does not have: it fails on the real indexer's answer too, so
    // the devnet keeps the indexer's shape rather than add a field for it.
    await expect(rpc.getCompressedAccountProof(hash)).rejects.toThrow(TypeError);
  }

  // lists
  const many = await rpc.getMultipleCompressedAccounts([hash]);
  expect(many.map((a) => b58(a.hash))).toEqual([w.account.hash]);
  const p1 = await rpc.getCompressedAccountsByOwner(owner, { limit: bn(1) });
  expect(p1.items).toHaveLength(1);
  expect(p1.cursor).not.toBeNull();
  const p2 = await rpc.getCompressedAccountsByOwner(owner, { limit: bn(1), cursor: p1.cursor! });
  expect(p2.cursor).toBeNull();
  const filtered = await rpc.getCompressedAccountsByOwner(owner, { filters: [{ memcmp: { offset: 1, bytes: bs58.encode(Uint8Array.from([2, 3])) } }] });
  expect(filtered.items.map((a) => b58(a.hash))).toEqual([w.account.hash]);

  // tokens
  const toks = await rpc.getCompressedTokenAccountsByOwner(key(w.holder), { mint: key(w.mint) });
  expect(toks.items.map((t) => t.parsed.amount.toNumber()).sort((a, b) => a - b)).toEqual([40, 70]);
  expect(toks.items[0].compressedAccount.treeInfo.tree.toBase58()).toBe(stateTree);
  const page = await rpc.getCompressedTokenAccountsByOwner(key(w.holder), { limit: bn(1) });
  expect(page.items).toHaveLength(1);
  expect(page.cursor).not.toBeNull();
  const del = await rpc.getCompressedTokenAccountsByDelegate(key(w.delegate));
  expect(del.items.map((t) => t.parsed.amount.toNumber())).toEqual([40]);
  expect((await rpc.getCompressedTokenAccountBalance(toks.items[0].compressedAccount.hash)).amount.toNumber()).toBe(toks.items[0].parsed.amount.toNumber());
  const bal = await rpc.getCompressedTokenBalancesByOwner(key(w.holder));
  expect(bal.items.map((b) => [b.mint.toBase58(), b.balance.toNumber()])).toEqual([[w.mint, 110]]);
  const bal2 = await rpc.getCompressedTokenBalancesByOwnerV2(key(w.holder), { mint: key(w.mint) });
  expect(bal2.value.items[0].balance.toNumber()).toBe(110);
  const holders = await rpc.getCompressedMintTokenHolders(key(w.mint));
  expect(holders.value.items.map((h) => [h.owner.toBase58(), h.balance.toNumber()])).toEqual([
    [w.holder, 110],
    [w.owner, 31],
  ]);

  // signatures and transactions
  const latest = await rpc.getLatestCompressionSignatures(undefined, 50);
  expect(latest.value.items.map((s) => s.signature)).toContain(w.mintSig);
  const forOwner = await rpc.getCompressionSignaturesForTokenOwner(key(w.holder));
  expect(forOwner.items.map((s) => s.signature)).toContain(w.mintSig);
  const tx = await rpc.getTransactionWithCompressionInfo(w.mintSig);
  expect(tx!.compressionInfo.openedAccounts).toHaveLength(3);
  expect(tx!.compressionInfo.openedAccounts[0].maybeTokenData!.mint.toBase58()).toBe(w.mint);
  const transfer = forOwner.items[0].signature;
  const spent = await rpc.getTransactionWithCompressionInfo(transfer);
  expect(spent!.compressionInfo.closedAccounts.length).toBeGreaterThan(0);

  // the other signature lists: by account hash (unpaged), by address, by account owner, and the
  // latest non-vote ones, each item with error; pages by Photon's cursor
  const forAccount = await rpc.getCompressionSignaturesForAccount(hash);
  expect(forAccount).toHaveLength(1);
  const forAddress = await rpc.getCompressionSignaturesForAddress(key(w.account.address));
  expect(forAddress.items.map((s) => s.signature)).toEqual(forAccount.map((s) => s.signature));
  expect(forAddress.cursor).toBeNull();
  const o1 = await rpc.getCompressionSignaturesForOwner(owner, { limit: bn(1) });
  expect(o1.items).toHaveLength(1);
  expect(o1.cursor).not.toBeNull();
  const o2 = await rpc.getCompressionSignaturesForOwner(owner, { limit: bn(1), cursor: o1.cursor! });
  expect(o2.items[0].signature).toBe(forAccount[0].signature);
  expect(o2.cursor).toBeNull();
  const l1 = await rpc.getLatestCompressionSignatures(undefined, 2);
  const l2 = await rpc.getLatestCompressionSignatures(l1.value.cursor!, 2);
  expect(l2.value.items[0].slot).toBeLessThanOrEqual(l1.value.items[1].slot);
  expect(l2.value.items.map((s) => s.signature)).not.toContain(l1.value.items[1].signature);
  const nv = await rpc.getLatestNonVotingSignatures(3);
  expect(nv.value.items).toHaveLength(3);
  for (const s of nv.value.items) expect(s.error).toBeNull();
  const nv2 = await rpc.getLatestNonVotingSignatures(3, signatureCursor(nv.value.items[2]));
  expect(nv2.value.items[0].slot).toBeLessThanOrEqual(nv.value.items[2].slot);
  expect(nv2.value.items.map((s) => s.signature)).not.toContain(nv.value.items[2].signature);
  // the helpers that merge the chain's getSignaturesForAddress with the indexer's lists (V2 only)
  if (featureFlags.isV2()) {
    const byAddress = await rpc.getSignaturesForAddressInterface(key(w.account.address));
    expect(byAddress.compressed.map((s) => s.signature)).toEqual(forAccount.map((s) => s.signature));
    expect(byAddress.signatures.find((s) => s.signature === forAccount[0].signature)?.sources).toContain('compressed');
    const byOwner = await rpc.getSignaturesForOwnerInterface(owner);
    expect(byOwner.compressed.map((s) => s.signature)).toEqual([o1.items[0].signature, o2.items[0].signature]);
  } else {
    await expect(rpc.getSignaturesForOwnerInterface(owner)).rejects.toThrow();
  }

  // the indexer itself
  expect(await rpc.getIndexerHealth()).toBe('ok');
  expect(await rpc.getIndexerSlot()).toBeGreaterThanOrEqual(0);

  // new addresses and validity proofs
  const fresh = devnet.compression!.deriveAddress([enc.encode(`fresh-${stateTree}`)], w.program, addressTree === ADDRESS_TREE_V2 ? 2 : 1);
  const na = await rpc.getMultipleNewAddressProofs([b254(devnet.compression!.deriveAddress([enc.encode('na')], w.program))]);
  expect(na[0].treeInfo.tree.toBase58()).toBe(ADDRESS_TREE_V1);
  const vp = await rpc.getValidityProof([hash]);
  expect(vp.compressedProof).not.toBeNull();
  expect(vp.treeInfos.map((t) => t.tree.toBase58())).toEqual([stateTree]);
  expect(b58(vp.leaves[0])).toBe(w.account.hash);
  const vp0 = await rpc.getValidityProofV0(
    [{ hash, tree: key(stateTree), queue: acc!.treeInfo.queue }],
    [{ address: b254(fresh), tree: key(addressTree), queue: key(addressTree) }],
  );
  expect(vp0.leaves.map(b58)).toEqual([w.account.hash, fresh]);
  expect(vp0.rootIndices).toHaveLength(2);
}

describe('stateless.js 0.23 against the devnet', () => {
  it('V2 mode (the default): every compression method and helper, on accounts of the v2 trees', async () => {
    expect(featureFlags.isV2()).toBe(true);
    await exercise(v2, STATE_TREE_V2, ADDRESS_TREE_V2);
  }, 60_000);

  it('V2 mode reads accounts of the v1 trees too', async () => {
    expect(featureFlags.isV2()).toBe(true);
    await exercise(v1, STATE_TREE_V1, ADDRESS_TREE_V1);
  }, 60_000);

  it('V1 mode: the V1 methods, on accounts of the v1 trees', async () => {
    featureFlags.version = 'V1' as typeof featureFlags.version;
    expect(featureFlags.isV2()).toBe(false);
    await exercise(v1, STATE_TREE_V1, ADDRESS_TREE_V1);
  }, 60_000);

  it("its Rpc (a web3.js Connection) reads the mint's transaction jsonParsed and the one-node methods (issue 34)", async () => {
    const tx = await rpc.getParsedTransaction(v2.mintSig, { commitment: 'confirmed', maxSupportedTransactionVersion: 0 });
    expect(tx!.transaction.message.accountKeys[0]).toMatchObject({ signer: true, writable: true, source: 'transaction' });
    expect(tx!.transaction.message.instructions.length).toBeGreaterThan(0);
    const identity = (await rpc.getSlotLeader()).toString();
    expect((await rpc.getVoteAccounts()).current.map((v) => v.nodePubkey)).toEqual([identity]);
    expect((await rpc.getSupply()).value.total).toBeGreaterThan(0);
  });
});
