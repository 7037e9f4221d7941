/**
 * Vote accounts as Agave 3's parse_vote.rs writes them (program "vote"): VoteStateV4 (bincode tag
 * 3, SIMD-0185, what LiteSVM's vote program writes), and V3 / 1.14.11 (tags 2 and 1) converted as
 * Agave converts them (collectors the vote and node keys, commission in basis points). `readVoteState`
 * also serves getVoteAccounts.
 */
import { encodeBase58 } from '../../../solana/index.js';
import { BytesReader, u64Json } from './bytes-reader.js';

const DEFAULT_PUBKEY = '11111111111111111111111111111111';

export interface VoteState {
  nodePubkey: string;
  authorizedWithdrawer: string;
  commission: number;
  inflationRewardsCollector: string;
  blockRevenueCollector: string;
  inflationRewardsCommissionBps: number;
  blockRevenueCommissionBps: number;
  pendingDelegatorRewards: bigint;
  blsPubkeyCompressed: string | null;
  votes: { slot: bigint; confirmationCount: number; latency: number }[];
  rootSlot: bigint | null;
  authorizedVoters: { epoch: bigint; authorizedVoter: string }[];
  priorVoters: { authorizedPubkey: string; epochOfLastAuthorizedSwitch: bigint; targetEpoch: bigint }[];
  epochCredits: { epoch: bigint; credits: bigint; previousCredits: bigint }[];
  lastTimestamp: { slot: bigint; timestamp: bigint };
}

export function readVoteState(data: Uint8Array, address: string): VoteState | null {
  const r = new BytesReader(data);
  const version = r.u32();
  if (version < 1 || version > 3) return null;
  const nodePubkey = r.pubkey(), authorizedWithdrawer = r.pubkey();
  let inflationRewardsCollector = address, blockRevenueCollector = nodePubkey, inflationRewardsCommissionBps: number, blockRevenueCommissionBps = 10_000;
  let pendingDelegatorRewards = 0n;
  let blsPubkeyCompressed: string | null = null;
  if (version === 3) {
    inflationRewardsCollector = r.pubkey();
    blockRevenueCollector = r.pubkey();
    inflationRewardsCommissionBps = r.u16();
    blockRevenueCommissionBps = r.u16();
    pendingDelegatorRewards = r.u64();
    if (r.u8() === 1) blsPubkeyCompressed = encodeBase58(r.bytesN(48));
  } else inflationRewardsCommissionBps = r.u8() * 100;
  const votes: VoteState['votes'] = [];
  for (let i = 0, n = Number(r.u64()); i < n; i++) {
    const latency = version === 1 ? 0 : r.u8();
    votes.push({ slot: r.u64(), confirmationCount: r.u32(), latency });
  }
  const rootSlot = r.u8() === 1 ? r.u64() : null;
  const authorizedVoters: VoteState['authorizedVoters'] = [];
  for (let i = 0, n = Number(r.u64()); i < n; i++) authorizedVoters.push({ epoch: r.u64(), authorizedVoter: r.pubkey() });
  const priorVoters: VoteState['priorVoters'] = [];
  if (version !== 3) {
    for (let i = 0; i < 32; i++) {
      const authorizedPubkey = r.pubkey(), epochOfLastAuthorizedSwitch = r.u64(), targetEpoch = r.u64();
      if (authorizedPubkey !== DEFAULT_PUBKEY) priorVoters.push({ authorizedPubkey, epochOfLastAuthorizedSwitch, targetEpoch });
    }
    r.u64(); // circular buffer index
    r.bool(); // is_empty
  }
  const epochCredits: VoteState['epochCredits'] = [];
  for (let i = 0, n = Number(r.u64()); i < n; i++) epochCredits.push({ epoch: r.u64(), credits: r.u64(), previousCredits: r.u64() });
  const lastTimestamp = { slot: r.u64(), timestamp: r.i64() };
  const commission = Math.min(255, Math.floor(inflationRewardsCommissionBps / 100));
  return {
    nodePubkey, authorizedWithdrawer, commission, inflationRewardsCollector, blockRevenueCollector, inflationRewardsCommissionBps, blockRevenueCommissionBps,
    pendingDelegatorRewards, blsPubkeyCompressed, votes, rootSlot, authorizedVoters, priorVoters, epochCredits, lastTimestamp,
  };
}

export function parseVoteAccount(address: string, data: Uint8Array): Record<string, unknown> | null {
  const s = readVoteState(data, address);
  if (!s) return null;
  return {
    type: 'vote',
    info: {
      nodePubkey: s.nodePubkey,
      authorizedWithdrawer: s.authorizedWithdrawer,
      commission: s.commission,
      votes: s.votes.map((v) => ({ slot: u64Json(v.slot), confirmationCount: v.confirmationCount, latency: v.latency })),
      rootSlot: s.rootSlot === null ? null : u64Json(s.rootSlot),
      authorizedVoters: s.authorizedVoters.map((v) => ({ epoch: u64Json(v.epoch), authorizedVoter: v.authorizedVoter })),
      priorVoters: s.priorVoters.map((v) => ({
        authorizedPubkey: v.authorizedPubkey,
        epochOfLastAuthorizedSwitch: u64Json(v.epochOfLastAuthorizedSwitch),
        targetEpoch: u64Json(v.targetEpoch),
      })),
      epochCredits: s.epochCredits.map((c) => ({ epoch: u64Json(c.epoch), credits: c.credits.toString(), previousCredits: c.previousCredits.toString() })),
      lastTimestamp: { slot: u64Json(s.lastTimestamp.slot), timestamp: Number(s.lastTimestamp.timestamp) },
      inflationRewardsCollector: s.inflationRewardsCollector,
      blockRevenueCollector: s.blockRevenueCollector,
      inflationRewardsCommissionBps: s.inflationRewardsCommissionBps,
      blockRevenueCommissionBps: s.blockRevenueCommissionBps,
      pendingDelegatorRewards: s.pendingDelegatorRewards.toString(),
      blsPubkeyCompressed: s.blsPubkeyCompressed,
    },
  };
}
