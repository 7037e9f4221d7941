/**
 * The cluster methods a one-node test validator answers and the devnet used to refuse (issue 34
 * item 6), answered from the devnet's own state as Agave's rpc.rs computes them: the leader
 * schedule and block production (the identity leads and produces every slot), supply and largest
 * accounts (every account LiteSVM holds, found owner by owner), the inflation schedule (genesis
 * default `Inflation`), the stake program's minimum delegation (asked of LiteSVM's stake program),
 * the node's vote account (vote-account.ts), performance samples (taken every 60 s, as
 * Agave's sampler does) and the node's contact info.
 */
import type { DevnetChain } from '../chain/contract.js';
import { compileMessage, signMessageParts, signerFromSecretKey } from '../../solana/index.js';
import { SLOTS_PER_EPOCH, DEVNET_FEATURE_SET, DEVNET_VERSION } from './cluster.js';
import { readVoteState } from '../encoding/parsed/vote-account.js';
import { addressParam, arr, cfg, commitmentOf } from '../params/solana.js';
import { bad, badAgave } from '../params/invalid.js';
import { optionalU64 } from '../params/u64.js';
import { DevnetRpcError, type RpcHandler } from '../types.js';
import { writeNodeVoteAccount } from './vote-account.js';
import { lamportsJson } from '../encoding/account.js';

/** Agave answers at most this many accounts from getLargestAccounts. */
const NUM_LARGEST_ACCOUNTS = 20;
/** Agave's sampler period and the most samples it answers. */
const SAMPLE_PERIOD_SECS = 60;
const MAX_PERFORMANCE_SAMPLES = 720;
/** A vote account whose last vote is this far behind is delinquent (Agave's DELINQUENT_VALIDATOR_SLOT_DISTANCE). */
const NATIVE_LOADER = 'NativeLoader1111111111111111111111111111111';
const SYSVAR_OWNER = 'Sysvar1111111111111111111111111111111111111';

/** solana-inflation's defaults, what a test validator's genesis holds. */
const INFLATION = { initial: 0.08, terminal: 0.015, taper: 0.15, foundation: 0.05, foundationTerm: 7 };
/** Slots in a year at 400 ms a slot (solana `years_as_slots`), the inflation's year. */
const SLOTS_PER_YEAR = (365.242_199 * 24 * 60 * 60 * 1000) / 400;

const inflationTotal = (year: number) => Math.max(INFLATION.initial * (1 - INFLATION.taper) ** year, INFLATION.terminal);
const inflationFoundation = (year: number) => (year < INFLATION.foundationTerm ? INFLATION.foundation * inflationTotal(year) : 0);

export interface OneNodeEndpoints {
  /** host:port of the JSON-RPC and websocket servers, once they listen. */
  rpc: string | null;
  pubsub: string | null;
}

export function oneNodeMethods(chain: DevnetChain, endpoints: () => OneNodeEndpoints): { methods: Record<string, RpcHandler>; close(): void } {
  const identity = chain.authority.address;
  const voteAccount = writeNodeVoteAccount(chain.svm, chain.authority);
  const ctx = (slot = chain.slot()) => ({ slot, apiVersion: DEVNET_VERSION });
  const epochOf = (slot: number) => Math.floor(slot / SLOTS_PER_EPOCH);

  // Performance samples, newest first, one per 60 s as Agave's SamplePerformanceService takes them.
  const samples: Record<string, number>[] = [];
  let last = { slot: chain.slot(), txs: chain.ledger().length };
  const sampler = setInterval(() => {
    const now = { slot: chain.slot(), txs: chain.ledger().length };
    const numTransactions = now.txs - last.txs;
    samples.unshift({
      slot: now.slot,
      numTransactions,
      numSlots: now.slot - last.slot,
      samplePeriodSecs: SAMPLE_PERIOD_SECS,
      numNonVoteTransactions: numTransactions,
    });
    if (samples.length > MAX_PERFORMANCE_SAMPLES) samples.pop();
    last = now;
  }, SAMPLE_PERIOD_SECS * 1000);
  sampler.unref();

  /** Every account LiteSVM holds: the native programs and sysvars, then, owner by owner, what each program owns. */
  const allAccounts = () => {
    const out = new Map<string, bigint>();
    const owners = [NATIVE_LOADER, SYSVAR_OWNER];
    const seen = new Set(owners);
    for (let i = 0; i < owners.length; i++) {
      for (const a of chain.svm.getProgramAccounts(owners[i] as never)) {
        out.set(a.address, BigInt(a.lamports));
        if (a.executable && !seen.has(a.address)) {
          seen.add(a.address);
          owners.push(a.address);
        }
      }
    }
    return out;
  };

  const methods: Record<string, RpcHandler> = {
    getLeaderSchedule: (params) => {
      const p = arr(params, 'getLeaderSchedule', 0);
      // the slot may be left out, null, or replaced by the config object
      const slotGiven = p[0] !== undefined && p[0] !== null && typeof p[0] !== 'object';
      const configFirst = p[0] !== null && typeof p[0] === 'object';
      const c = cfg(configFirst ? p[0] : p[1], configFirst ? 'params[0]' : 'params[1]');
      const slot = BigInt(chain.slotAt(commitmentOf(c)));
      const at = slotGiven ? optionalU64(p[0], 'params[0] (slot)')! : slot;
      if (c.identity !== undefined) addressParam(c.identity, 'params.identity');
      const epoch = at / BigInt(SLOTS_PER_EPOCH);
      // the node knows the schedule up to the epoch after its own
      if (epoch > slot / BigInt(SLOTS_PER_EPOCH) + 1n) return null;
      if (c.identity !== undefined && c.identity !== identity) return {};
      return { [identity]: Array.from({ length: SLOTS_PER_EPOCH }, (_, i) => i) };
    },
    getBlockProduction: (params) => {
      const c = cfg(arr(params, 'getBlockProduction', 0)[0], 'params[0]');
      const slot = chain.slotAt(commitmentOf(c));
      const range = c.range === undefined || c.range === null ? {} : cfg(c.range, 'params[0].range');
      const first = optionalU64(range.firstSlot, 'params[0].range.firstSlot') ?? BigInt(epochOf(slot) * SLOTS_PER_EPOCH);
      const lastSlot = optionalU64(range.lastSlot, 'params[0].range.lastSlot') ?? BigInt(slot);
      if (lastSlot < first) throw badAgave(`lastSlot, ${lastSlot}, cannot be less than firstSlot, ${first}`);
      if (c.identity !== undefined) addressParam(c.identity, 'params[0].identity');
      const top = lastSlot < BigInt(slot) ? lastSlot : BigInt(slot);
      // every slot in the range up to the node's is one it led and made a block in
      const n = top >= first ? Number(top - first + 1n) : 0;
      const byIdentity = c.identity !== undefined && c.identity !== identity ? {} : { [identity]: [n, n] };
      return { context: ctx(slot), value: { byIdentity, range: { firstSlot: Number(first), lastSlot: Number(lastSlot) } } };
    },
    getSupply: (params) => {
      const c = cfg(arr(params, 'getSupply', 0)[0], 'params[0]');
      commitmentOf(c);
      let total = 0n;
      for (const l of allAccounts().values()) total += l;
      // no mainnet non-circulating list applies to a local cluster
      return { context: ctx(), value: { total: lamportsJson(total), circulating: lamportsJson(total), nonCirculating: 0, nonCirculatingAccounts: [] } };
    },
    getLargestAccounts: (params) => {
      const c = cfg(arr(params, 'getLargestAccounts', 0)[0], 'params[0]');
      commitmentOf(c);
      if (c.filter !== undefined && c.filter !== 'circulating' && c.filter !== 'nonCirculating') throw bad(`params[0].filter must be circulating or nonCirculating, got ${JSON.stringify(c.filter)}`);
      if (c.filter === 'nonCirculating') return { context: ctx(), value: [] };
      const all = [...allAccounts()].sort((a, b) => (b[1] > a[1] ? 1 : b[1] < a[1] ? -1 : 0));
      return { context: ctx(), value: all.slice(0, NUM_LARGEST_ACCOUNTS).map(([address, lamports]) => ({ address, lamports: lamportsJson(lamports) })) };
    },
    getInflationGovernor: (params) => (commitmentOf(cfg(arr(params, 'getInflationGovernor', 0)[0], 'params[0]')), { ...INFLATION }),
    getInflationRate: () => {
      const epoch = epochOf(chain.slot());
      const year = (epoch * SLOTS_PER_EPOCH) / SLOTS_PER_YEAR;
      const total = inflationTotal(year);
      const foundation = inflationFoundation(year);
      return { total, validator: total - foundation, foundation, epoch };
    },
    getStakeMinimumDelegation: (params) => {
      commitmentOf(cfg(arr(params, 'getStakeMinimumDelegation', 0)[0], 'params[0]'));
      // asked of the stake program itself: GetMinimumDelegation (13) sets it as return data
      const signer = signerFromSecretKey(chain.authority.secretKey);
      const parts = compileMessage({ payer: identity, instructions: [{ programId: 'Stake11111111111111111111111111111111111111', keys: [], data: Uint8Array.from([13, 0, 0, 0]) }], recentBlockhash: chain.latestBlockhash().blockhash });
      const sim = chain.simulate(signMessageParts(parts, [signer]).wire);
      const rd = sim.meta?.returnData;
      if (sim.err !== null || !rd) throw new DevnetRpcError(-32603, `Internal error: the stake program did not answer its minimum delegation (${JSON.stringify(sim.err)})`);
      return { context: ctx(), value: Number(Buffer.from(rd.data[0], 'base64').readBigUInt64LE(0)) };
    },
    getVoteAccounts: (params) => {
      const c = cfg(arr(params, 'getVoteAccounts', 0)[0], 'params[0]');
      commitmentOf(c);
      if (c.votePubkey !== undefined) addressParam(c.votePubkey, 'params[0].votePubkey');
      const a = chain.account(voteAccount);
      const s = a ? readVoteState(a.data, voteAccount) : null;
      if (!s || (c.votePubkey !== undefined && c.votePubkey !== voteAccount)) return { current: [], delinquent: [] };
      return {
        current: [
          {
            votePubkey: voteAccount,
            nodePubkey: s.nodePubkey,
            // no stake account delegates to it on the devnet
            activatedStake: 0,
            epochVoteAccount: false,
            commission: s.commission,
            // the one node confirms every block it makes: its vote is the newest block, its root the finalized one
            lastVote: chain.slot(),
            rootSlot: chain.slotAt('finalized'),
            epochCredits: s.epochCredits.map((e) => [Number(e.epoch), Number(e.credits), Number(e.previousCredits)]),
          },
        ],
        delinquent: [],
      };
    },
    getRecentPerformanceSamples: (params) => {
      const p = arr(params, 'getRecentPerformanceSamples', 0);
      const limit = optionalU64(p[0], 'params[0] (limit)') ?? BigInt(MAX_PERFORMANCE_SAMPLES);
      if (limit > BigInt(MAX_PERFORMANCE_SAMPLES)) throw badAgave(`Invalid limit; max ${MAX_PERFORMANCE_SAMPLES}`);
      return samples.slice(0, Number(limit)).map((s) => ({ ...s }));
    },
    getClusterNodes: () => {
      const e = endpoints();
      return [
        {
          pubkey: identity,
          // the devnet takes transactions over JSON-RPC only: it has no gossip, TPU, TVU or repair socket
          gossip: null,
          tvu: null,
          tpu: null,
          tpuQuic: null,
          tpuForwards: null,
          tpuForwardsQuic: null,
          tpuVote: null,
          serveRepair: null,
          rpc: e.rpc,
          pubsub: e.pubsub,
          version: DEVNET_VERSION,
          featureSet: DEVNET_FEATURE_SET,
          shredVersion: 0,
        },
      ];
    },
  };
  return { methods, close: () => clearInterval(sampler) };
}
