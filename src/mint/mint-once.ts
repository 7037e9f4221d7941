/**
 * A mint intent, exactly once: `mintCompressedNft(client, params, { id, journal })`. The intent is
 * journaled before the first call and each attempt (with the slot it began at) before it is sent.
 * A failure that proves nothing was minted (the service refused: a JSON-RPC error, a 4xx, a 429 or a
 * refused connection) is journaled and reported. Any other failure — and an intent found unfinished
 * after a crash — leaves the outcome unknown, and the indexer decides: once the chain is past the
 * slot by which the attempt's transaction must have landed or expired, the owner's assets with the
 * same name, symbol, uri, creators and collection, created at or after the intent's first attempt and
 * not already attributed by the journal to another intent, are looked for. One found is this
 * intent's; none found proves nothing was minted, and only then is the mint sent again.
 */
import { sleep } from '../abort.js';
import { CairnError, ErrorCodes, InputError, isAbortError } from '../errors/index.js';
import type { CairnClient, MintCompressedNftParams } from '../rpc/index.js';
import { provesNotActedOn } from '../rpc/internal.js';
import { canonicalParams, type MintIntentView, type MintJournal } from './mint-journal.js';

export type MintOnceClient = Pick<CairnClient, 'mintCompressedNft' | 'getSlot' | 'getAssetsByOwner' | 'getSignaturesForAsset' | 'getTransaction'>;

/**
 * Slots after an attempt began by which its transaction has landed or its blockhash expired (150
 * slots of validity), plus ~30 slots (about 12 s on mainnet) for the indexer to show what landed.
 */
export const DEFAULT_LANDING_SLOTS = 180;
/** Mints sent per call at most, each only after the indexer proved the ones before minted nothing. */
export const DEFAULT_MAX_ATTEMPTS = 4;

export interface MintOnceOptions {
  /** The intent's id: the same id is minted at most once, whatever crashes or lost answers come. */
  id: string;
  journal: MintJournal;
  /** See `DEFAULT_LANDING_SLOTS`; a devnet with short slots may lower it. */
  landingSlots?: number;
  maxAttempts?: number;
  signal?: AbortSignal;
}

export interface MintOnceResult {
  signature: string;
  assetId: string;
  /** Found by the indexer after an unknown outcome rather than answered. */
  reconciled: boolean;
  /** The journal already had it minted: nothing was sent. */
  fromJournal: boolean;
}

/** Answers that prove the service did not mint: it refused (the request as sent will not mint). */
const REFUSALS = new Set<string>([
  ErrorCodes.RPC_ERROR,
  ErrorCodes.RPC_HTTP,
  ErrorCodes.RPC_UNAUTHORIZED,
  ErrorCodes.RPC_FORBIDDEN,
  ErrorCodes.RPC_INSECURE_KEY,
  ErrorCodes.INPUT_INVALID,
]);

function refused(e: unknown): boolean {
  return provesNotActedOn(e) || (e instanceof CairnError && REFUSALS.has(e.code));
}

type AssetLike = {
  id: string;
  content?: { json_uri?: string; metadata?: { name?: string; symbol?: string } };
  creators?: { address: string; share: number }[];
  grouping?: { group_key: string; group_value: string }[];
};

/** The asset shows what `p` asked for: name, symbol, uri, creators (address and share) and collection. */
function sameItem(a: AssetLike, p: MintCompressedNftParams): boolean {
  if (a.content?.metadata?.name !== p.name || a.content?.metadata?.symbol !== p.symbol) return false;
  if ((a.content?.json_uri ?? '') !== (p.uri ?? '')) return false;
  const got = (a.creators ?? []).map((c) => `${c.address}:${c.share}`).join(',');
  const want = (p.creators ?? []).map((c) => `${c.address}:${c.share}`).join(',');
  if (got !== want) return false;
  const groups = (a.grouping ?? []).filter((g) => g.group_key === 'collection').map((g) => g.group_value);
  return p.collection === undefined ? groups.length === 0 : groups.length === 1 && groups[0] === p.collection;
}

// Slots are read at `processed`: the attempt's slot must not lag behind the chain (the default,
// `finalized`, is a few slots back, and an asset of the same content minted in between would pass
// for one created after the intent).
async function waitForSlot(client: MintOnceClient, slot: number, signal?: AbortSignal): Promise<void> {
  for (let delay = 50; (await client.getSlot({ commitment: 'processed' }, { signal })) < slot; delay = Math.min(delay * 2, 1_000)) await sleep(delay, signal);
}

/** The slot and signature of the transaction that created `id` (the oldest of its history). */
async function creation(client: MintOnceClient, id: string, signal?: AbortSignal): Promise<{ slot: number; signature: string } | undefined> {
  const limit = 1000;
  let page = await client.getSignaturesForAsset({ id, limit }, { signal });
  if (page.total > limit) page = await client.getSignaturesForAsset({ id, limit, page: Math.ceil(page.total / limit) }, { signal });
  const signature = page.items.at(-1)?.[0];
  if (!signature) return undefined;
  // `confirmed`: the indexer shows what is confirmed, and at the default (finalized) a mint that
  // landed moments ago is "not found". One the node cannot show yet is newer still: after the intent.
  const tx = await client.getTransaction(signature, { commitment: 'confirmed', maxSupportedTransactionVersion: 0 }, { signal });
  if (tx === null) return { slot: Number.POSITIVE_INFINITY, signature };
  const slot = typeof tx.slot === 'number' ? tx.slot : Number(tx.slot);
  return Number.isFinite(slot) ? { slot, signature } : { slot: Number.POSITIVE_INFINITY, signature };
}

/**
 * The asset an attempt of `view` minted, if any: waits until the chain is `landingSlots` past the
 * last attempt, then asks the indexer. Undefined proves none of its attempts minted.
 */
async function findMinted(
  client: MintOnceClient,
  view: MintIntentView,
  journal: MintJournal,
  landingSlots: number,
  signal?: AbortSignal,
): Promise<{ assetId: string; signature: string } | undefined> {
  const first = view.attempts[0];
  const last = view.attempts.at(-1);
  if (!first || !last) return undefined;
  await waitForSlot(client, last.slot + landingSlots, signal);
  const taken = journal.attributed();
  const found: { assetId: string; signature: string; slot: number }[] = [];
  const limit = 1000;
  for (let page = 1; ; page++) {
    const r = await client.getAssetsByOwner({ ownerAddress: view.params.owner, page, limit }, { signal });
    for (const a of r.items as unknown as AssetLike[]) {
      if (taken.has(a.id) || !sameItem(a, view.params)) continue;
      const made = await creation(client, a.id, signal);
      if (made && made.slot >= first.slot) found.push({ assetId: a.id, signature: made.signature, slot: made.slot });
    }
    if (r.items.length < limit) break;
  }
  found.sort((x, y) => x.slot - y.slot);
  return found[0];
}

/**
 * Mint `params` under intent `id` at most once (see the module comment).
 *
 * @example
 * const r = await mintOnce(client, params, { id: 'drop-1/42', journal });
 */
export async function mintOnce(client: MintOnceClient, params: MintCompressedNftParams, o: MintOnceOptions): Promise<MintOnceResult> {
  if (typeof o.id !== 'string' || o.id.length === 0 || o.id.length > 200) throw new InputError('id', 'expected a non-empty string of at most 200 characters');
  const landingSlots = o.landingSlots ?? DEFAULT_LANDING_SLOTS;
  if (!Number.isInteger(landingSlots) || landingSlots < 1 || landingSlots > 10_000) throw new InputError('landingSlots', `expected an integer 1..10000, got ${String(o.landingSlots)}`);
  const maxAttempts = o.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new InputError('maxAttempts', `expected an integer ≥ 1, got ${String(o.maxAttempts)}`);
  const { id, journal, signal } = o;
  let view = journal.get(id);
  if (!view) {
    await journal.append({ op: 'intent', id, at: new Date().toISOString(), params });
    view = journal.get(id)!;
  } else if (canonicalParams(view.params) !== canonicalParams(params)) {
    throw new CairnError(ErrorCodes.MINT_JOURNAL, `mint journal ${journal.path} has intent ${JSON.stringify(id)} for another item (${view.params.name}); an id names one item`, { context: { path: journal.path, id } });
  }
  if (view.minted) return { ...view.minted, reconciled: view.minted.reconciled, fromJournal: true };
  const settle = async (m: { assetId: string; signature: string }, reconciled: boolean): Promise<MintOnceResult> => {
    await journal.append({ op: 'minted', id, assetId: m.assetId, signature: m.signature, ...(reconciled ? { reconciled: true } : {}) });
    return { ...m, reconciled, fromJournal: false };
  };
  // the indexer decides an unknown outcome; if it cannot be asked, the outcome stays unknown (never "failed")
  const ask = async (v: MintIntentView): Promise<{ assetId: string; signature: string } | undefined> => {
    try {
      return await findMinted(client, v, journal, landingSlots, signal);
    } catch (e) {
      if (signal?.aborted || isAbortError(e)) throw e;
      throw new CairnError(ErrorCodes.RPC_OUTCOME_UNKNOWN, `mint ${JSON.stringify(id)}: the outcome is unknown — an attempt was sent without an answer and the indexer could not be asked (${e instanceof Error ? e.message : String(e)})`, {
        context: { call: 'mintCompressedNft', attempts: v.attempts.length, findOut: `run again with the same journal (${journal.path}): it asks the indexer about intent ${JSON.stringify(id)} before minting again` },
        cause: e,
      });
    }
  };
  // an attempt whose outcome was never learned (a crash, a lost answer): the indexer decides first
  if (view.attempts.length > 0 && !view.lastRefused) {
    const m = await ask(view);
    if (m) return settle(m, true);
  }
  let lastError: unknown;
  for (let sent = 0; sent < maxAttempts; sent++) {
    const slot = await client.getSlot({ commitment: 'processed' }, { signal });
    await journal.append({ op: 'attempt', id, n: view.attempts.length + 1, slot });
    try {
      const r = await client.mintCompressedNft(params, { signal });
      if (!r.minted) {
        await journal.append({ op: 'failed', id, code: ErrorCodes.MINT_FAILED, message: 'the service answered minted: false' });
        throw new CairnError(ErrorCodes.MINT_FAILED, `the service answered minted: false for ${r.assetId}`, { context: { signature: r.signature, assetId: r.assetId } });
      }
      return settle({ assetId: r.assetId, signature: r.signature }, false);
    } catch (e) {
      if (e instanceof CairnError && e.code === ErrorCodes.MINT_FAILED) throw e;
      // an abort leaves the attempt unknown in the journal: the next run reconciles it
      if (signal?.aborted || isAbortError(e)) throw e;
      if (refused(e)) {
        const c = e as CairnError;
        await journal.append({ op: 'failed', id, code: c.code, message: c.message.slice(0, 500) });
        throw e;
      }
      lastError = e;
      const m = await ask(journal.get(id)!);
      if (m) return settle(m, true);
    }
  }
  // every attempt failed without an answer and the indexer proved none of them minted
  throw new CairnError(ErrorCodes.MINT_FAILED, `mint ${JSON.stringify(id)}: ${maxAttempts} attempt(s) failed without an answer, and the indexer shows that none of them minted; nothing was minted (the journal keeps the intent: a later run tries again)`, {
    context: { signature: '', assetId: '' },
    cause: lastError,
  });
}
