/**
 * Minting a compressed NFT through the service's deprecated `mintCompressedNft` method, done
 * carefully: the params are checked against Bubblegum's limits before anything is sent (a bad name
 * would otherwise cost a round trip and a vague server error), the deprecation is announced once per
 * process with what replaces it, and with `verify` the freshly minted asset and its proof are fetched
 * and checked offline — the leaf recomputed from the asset, the proof walked to its root, and the
 * asset compared with what was asked for. Any disagreement is a `MINT_VERIFY_FAILED` error. With
 * `{ id, journal }` the mint happens at most once per id, whatever answers are lost or processes
 * killed (mint-once.ts).
 */
import { base58Bytes, addressInputs, type AddressInput } from '../solana/index.js';
import { isPlainObject } from '../assert.js';
import { CairnError, ErrorCodes, InputError, RpcError, isAbortError } from '../errors/index.js';
import { MINT_DEPRECATION_CODE, MINT_DEPRECATION_MESSAGE, type CairnClient, type MintCompressedNftParams } from '../rpc/index.js';
import { sleep } from '../abort.js';
import { warnDeprecatedOnce } from '../rpc/internal.js';
import { verifyAssetLeaf, verifyAssetProofJson, type Verdict } from '../merkle/index.js';
import { bad, ok } from '../merkle/internal.js';
import type { MintJournal } from './mint-journal.js';
import { mintOnce, type MintOnceClient } from './mint-once.js';

export type { MintCompressedNftParams } from '../rpc/index.js';

/** Bubblegum / Token Metadata limits (mpl-bubblegum `MAX_NAME_LENGTH` etc.). */
export const MINT_LIMITS = { nameBytes: 32, symbolBytes: 10, uriBytes: 200, maxCreators: 5, maxSellerFeeBasisPoints: 10_000 } as const;

export { MINT_DEPRECATION_CODE as DEPRECATION_CODE, MINT_DEPRECATION_MESSAGE as DEPRECATION_MESSAGE } from '../rpc/index.js';

export interface MintOptions {
  /** Fetch the asset and its proof after minting and verify both offline (implies confirmTransaction). */
  verify?: boolean;
  signal?: AbortSignal;
  /** Receives the one-time deprecation notice; by default it is one `cairn: …` line on stderr. */
  logger?: (line: string) => void;
  /** false: say no deprecation notice (for the client's call either); default true. */
  deprecationWarnings?: boolean;
  /** How long `verify` waits for the indexer to show the asset (default 30 s). */
  verifyTimeoutMs?: number;
  /** The intent's id in `journal`: with both, this item is minted at most once (see mint-once.ts). */
  id?: string;
  /** A journal from `openMintJournal(path)`. */
  journal?: MintJournal;
  /** With a journal: slots after an attempt by which it has landed or expired and is indexed (default 180). */
  landingSlots?: number;
  /** With a journal: mints sent per call at most, each after the indexer proved the last minted nothing (default 4). */
  maxAttempts?: number;
}

export interface MintVerification {
  /** The leaf recomputed from the asset (id PDA, creator hash, data hash) equals `asset_hash`. */
  leaf: Verdict;
  /** The proof walks from the leaf to its root. */
  proof: Verdict;
  /** The asset shows what was minted (owner, name, symbol, uri, royalty, creators, collection). */
  content: Verdict;
}

export interface MintResult {
  signature: string;
  minted: boolean;
  assetId: string;
  /** Present when `verify` was set; every verdict is valid (otherwise the call throws). */
  verification?: MintVerification;
  /** With a journal: found through the indexer after an answer was lost (or a crash), not answered. */
  reconciled?: boolean;
  /** With a journal: it was minted by an earlier call or run; nothing was sent now. */
  fromJournal?: boolean;
}

type MintClient = Pick<CairnClient, 'mintCompressedNft' | 'getAsset' | 'getAssetProofBatch'>;

/**
 * Mint params as a caller may give them: `owner`, `delegate`, `collection` and each creator's
 * `address` as base58 text, a kit `Address` or a web3.js `PublicKey`.
 */
export type MintInput = Omit<MintCompressedNftParams, 'owner' | 'delegate' | 'collection' | 'creators'> & {
  owner: AddressInput;
  delegate?: AddressInput | undefined;
  collection?: AddressInput | undefined;
  creators?: { address: AddressInput; share: number }[] | undefined;
};

const utf8Bytes = (s: string) => Buffer.byteLength(s, 'utf8');

function address(field: string, v: unknown): void {
  if (typeof v !== 'string') {
    throw new InputError(field, `expected a base58 address (a string, a kit Address or a web3.js PublicKey), got ${v === null ? 'null' : typeof v}`);
  }
  let b: Uint8Array;
  try {
    b = base58Bytes(v);
  } catch {
    throw new InputError(field, `not valid base58: ${JSON.stringify(v.slice(0, 60))}`, { expected: 'base58', got: v.slice(0, 60) });
  }
  if (b.length !== 32) throw new InputError(field, `expected 32 bytes of base58, got ${b.length}`, { expected: '32 bytes', got: b.length });
}

function text(field: string, v: unknown, maxBytes?: number, required = false): void {
  if (v === undefined && !required) return;
  if (typeof v !== 'string') throw new InputError(field, `expected a string, got ${v === null ? 'null' : typeof v}`);
  if (maxBytes !== undefined && utf8Bytes(v) > maxBytes) {
    throw new InputError(field, `at most ${maxBytes} bytes (UTF-8), got ${utf8Bytes(v)}`, { expected: `≤ ${maxBytes} bytes`, got: utf8Bytes(v) });
  }
}

/**
 * Check mint params against the spec and Bubblegum's limits. Throws `InputError` naming the field.
 *
 * @example
 * validateMintInput({ name: 'x'.repeat(33), symbol: 'X', description: '', owner }); // throws: "name": at most 32 bytes
 */
export function validateMintInput(p: MintCompressedNftParams): void {
  if (!isPlainObject(p)) throw new InputError('params', 'expected an object');
  text('name', p.name, MINT_LIMITS.nameBytes, true);
  if (p.name.length === 0) throw new InputError('name', 'must not be empty');
  text('symbol', p.symbol, MINT_LIMITS.symbolBytes, true);
  text('description', p.description, undefined, true);
  address('owner', p.owner);
  if (p.delegate !== undefined) address('delegate', p.delegate);
  if (p.collection !== undefined) address('collection', p.collection);
  text('uri', p.uri, MINT_LIMITS.uriBytes);
  text('imageUrl', p.imageUrl);
  text('externalUrl', p.externalUrl);
  if (p.sellerFeeBasisPoints !== undefined) {
    const v = p.sellerFeeBasisPoints;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > MINT_LIMITS.maxSellerFeeBasisPoints) {
      throw new InputError('sellerFeeBasisPoints', `expected an integer 0..10000 (basis points, 100 = 1%), got ${String(v)}`);
    }
  }
  if (p.confirmTransaction !== undefined && typeof p.confirmTransaction !== 'boolean') {
    throw new InputError('confirmTransaction', `expected a boolean, got ${typeof p.confirmTransaction}`);
  }
  if (p.attributes !== undefined) {
    if (!Array.isArray(p.attributes)) throw new InputError('attributes', 'expected an array of {trait_type, value}');
    p.attributes.forEach((a, i) => {
      if (a === null || typeof a !== 'object') throw new InputError(`attributes[${i}]`, 'expected an object {trait_type, value}');
      text(`attributes[${i}].trait_type`, a.trait_type, undefined, true);
      text(`attributes[${i}].value`, a.value, undefined, true);
    });
  }
  if (p.creators !== undefined) {
    if (!Array.isArray(p.creators)) throw new InputError('creators', 'expected an array of {address, share}');
    if (p.creators.length > MINT_LIMITS.maxCreators) throw new InputError('creators', `at most ${MINT_LIMITS.maxCreators} creators, got ${p.creators.length}`);
    const seen = new Set<string>();
    let sum = 0;
    p.creators.forEach((c, i) => {
      if (c === null || typeof c !== 'object') throw new InputError(`creators[${i}]`, 'expected an object {address, share}');
      address(`creators[${i}].address`, c.address);
      if (seen.has(c.address)) throw new InputError(`creators[${i}].address`, `duplicate creator ${c.address}`);
      seen.add(c.address);
      if (typeof c.share !== 'number' || !Number.isInteger(c.share) || c.share < 0 || c.share > 100) {
        throw new InputError(`creators[${i}].share`, `expected an integer 0..100, got ${String(c.share)}`);
      }
      sum += c.share;
    });
    if (p.creators.length > 0 && sum !== 100) throw new InputError('creators', `shares must sum to 100, got ${sum}`, { expected: '100', got: sum });
  }
}

/** The asset, waiting for the indexer when it does not show it yet ("not found" answers). */
async function fetchAsset(client: MintClient, id: string, timeoutMs: number, signal?: AbortSignal) {
  const deadline = Date.now() + timeoutMs;
  for (let delay = 100; ; delay = Math.min(delay * 2, 2_000)) {
    try {
      return await client.getAsset({ id }, { signal });
    } catch (e) {
      const notFound = e instanceof RpcError && (e.rpcCode === -32000 || /not found/i.test(e.message));
      if (!notFound || isAbortError(e) || Date.now() + delay > deadline) throw e;
    }
    await sleep(delay, signal);
  }
}

/** The fields of a DAS asset that the verdict reads; a response may lack any of them. */
interface AssetFields {
  ownership?: { owner?: unknown };
  content?: { metadata?: { name?: unknown; symbol?: unknown }; json_uri?: unknown };
  royalty?: { basis_points?: unknown };
  creators?: { address: string; share: number }[];
  grouping?: { group_key: string; group_value: string }[];
  compression?: { compressed?: unknown };
}

/** Compare what the asset shows with what was asked for. */
function contentVerdict(p: MintCompressedNftParams, asset: AssetFields, id: string): Verdict {
  const problems: string[] = [];
  const want = (what: string, got: unknown, expected: unknown) => {
    if (JSON.stringify(got) !== JSON.stringify(expected)) problems.push(`${what} is ${JSON.stringify(got)}, expected ${JSON.stringify(expected)}`);
  };
  want('ownership.owner', asset.ownership?.owner, p.owner);
  want('content.metadata.name', asset.content?.metadata?.name, p.name);
  want('content.metadata.symbol', asset.content?.metadata?.symbol, p.symbol);
  if (p.uri !== undefined) want('content.json_uri', asset.content?.json_uri, p.uri);
  if (p.sellerFeeBasisPoints !== undefined) want('royalty.basis_points', asset.royalty?.basis_points, p.sellerFeeBasisPoints);
  if (p.creators !== undefined) {
    const got = (asset.creators ?? []).map((c: { address: string; share: number }) => [c.address, c.share]);
    want('creators', got, p.creators.map((c) => [c.address, c.share]));
  }
  if (p.collection !== undefined) {
    const groups = (asset.grouping ?? []).filter((g: { group_key: string }) => g.group_key === 'collection').map((g: { group_value: string }) => g.group_value);
    want('grouping.collection', groups, [p.collection]);
  }
  if (asset.compression?.compressed !== true) problems.push('compression.compressed is not true');
  return problems.length ? bad(problems.join('; '), id, { status: 'mismatch' }) : ok(id);
}

/**
 * Mint a compressed NFT with the typed client; optionally verify it offline.
 *
 * @deprecated The service deprecates `mintCompressedNft`; the zero-knowledge compression methods replace it.
 * @example
 * const client = createClient({ url: devnet.url });
 * const r = await mintCompressedNft(client, { name: 'Ticket #1', symbol: 'TIX', description: '', owner }, { verify: true });
 * r.verification?.proof.valid; // true
 */
export async function mintCompressedNft(client: MintClient, input: MintInput, opts: MintOptions = {}): Promise<MintResult> {
  // Keys (web3.js PublicKey) become base58 first, so the checks and the request see text.
  const params = addressInputs<MintCompressedNftParams>(input as MintCompressedNftParams);
  validateMintInput(params);
  if (opts.signal?.aborted) throw new CairnError(ErrorCodes.RPC_ABORTED, 'mintCompressedNft aborted before sending', { cause: opts.signal.reason });
  // One notice per process, shared with the client's own call (same code), so a process sees one
  // in all; a logger, when given, receives it instead of stderr.
  warnDeprecatedOnce(MINT_DEPRECATION_CODE, MINT_DEPRECATION_MESSAGE, opts.logger, opts.deprecationWarnings !== false);
  // Verifying needs the asset on chain: ask the service to answer only once it has landed.
  const sent: MintCompressedNftParams = opts.verify ? { ...params, confirmTransaction: true } : params;
  let r: { signature: string; minted: boolean; assetId: string };
  let once: { reconciled: boolean; fromJournal: boolean } | undefined;
  if (opts.journal !== undefined || opts.id !== undefined) {
    if (opts.journal === undefined) throw new InputError('journal', 'an id needs a journal (openMintJournal) to be minted once');
    if (opts.id === undefined) throw new InputError('id', 'a journal needs the intent\'s id');
    const m = await mintOnce(client as unknown as MintOnceClient, sent, {
      id: opts.id,
      journal: opts.journal,
      ...(opts.landingSlots !== undefined ? { landingSlots: opts.landingSlots } : {}),
      ...(opts.maxAttempts !== undefined ? { maxAttempts: opts.maxAttempts } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    r = { signature: m.signature, minted: true, assetId: m.assetId };
    once = { reconciled: m.reconciled, fromJournal: m.fromJournal };
  } else {
    r = await client.mintCompressedNft(sent, { signal: opts.signal });
  }
  if (!opts.verify) return { signature: r.signature, minted: r.minted, assetId: r.assetId, ...once };
  if (!r.minted) {
    throw new CairnError(ErrorCodes.MINT_FAILED, `the service answered minted: false for ${r.assetId}`, { context: { signature: r.signature, assetId: r.assetId } });
  }
  const asset = (await fetchAsset(client, r.assetId, opts.verifyTimeoutMs ?? 30_000, opts.signal)) as unknown as AssetFields;
  const proofs = await client.getAssetProofBatch({ ids: [r.assetId] }, { signal: opts.signal });
  const proofJson = proofs[r.assetId];
  let verification: MintVerification;
  if (!proofJson) {
    const none = bad('the service returned no proof for the asset', r.assetId);
    verification = { leaf: none, proof: none, content: contentVerdict(params, asset, r.assetId) };
  } else {
    let proof: Verdict;
    let leaf: Verdict;
    try {
      proof = verifyAssetProofJson(proofJson, { label: r.assetId });
    } catch (e) {
      proof = bad(`the proof is malformed: ${(e as Error).message}`, r.assetId);
    }
    try {
      leaf = verifyAssetLeaf(asset, proofJson);
    } catch (e) {
      leaf = bad(`the asset is malformed: ${(e as Error).message}`, r.assetId);
    }
    verification = { leaf, proof, content: contentVerdict(params, asset, r.assetId) };
  }
  const failed = (Object.entries(verification) as [string, Verdict][]).filter(([, v]) => !v.valid);
  if (failed.length) {
    throw new CairnError(ErrorCodes.MINT_VERIFY_FAILED, `minted ${r.assetId} but it does not verify: ${failed.map(([k, v]) => `${k}: ${v.reason}`).join(' | ')}`, {
      context: { signature: r.signature, assetId: r.assetId, verification },
    });
  }
  return { signature: r.signature, minted: r.minted, assetId: r.assetId, verification, ...once };
}
