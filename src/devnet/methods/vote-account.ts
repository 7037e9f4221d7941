/**
 * The node's own vote account, as a test validator's genesis holds one: VoteStateV4 bytes (the
 * layout LiteSVM's vote program writes) with the devnet's authority as node, voter and withdrawer,
 * written at start like a genesis account (no transaction, nothing in the ledger). Its address is
 * derived from the authority, so it is the same across restarts of one ledger.
 */
import { createHash } from 'node:crypto';
import type { LiteSVM } from 'litesvm';
import { decodeBase58 } from '../../solana/index.js';
import { writeDevnetAccount } from '../chain/account-file.js';
import { keypairFromSeed } from '../chain/keypair.js';

const VOTE_PROGRAM = 'Vote111111111111111111111111111111111111111';
/** VoteStateV3/V4's allocated size. */
const VOTE_STATE_SIZE = 3762;
/** The test validator's genesis vote account takes 100% commission. */
const NODE_COMMISSION_BPS = 10_000;

/** The vote account's address for a node `authority` (64-byte secret key). */
function nodeVoteAddress(authoritySecret: Uint8Array): string {
  return keypairFromSeed(new Uint8Array(createHash('sha256').update('cairn-devnet vote account').update(authoritySecret.subarray(0, 32)).digest())).address;
}

function voteStateV4(vote: string, node: string): Uint8Array {
  const data = new Uint8Array(VOTE_STATE_SIZE);
  const v = new DataView(data.buffer);
  let at = 0;
  v.setUint32(at, 3, true); at += 4; // VoteStateVersions::V4
  for (const k of [node, node, vote, node]) { data.set(decodeBase58(k, 32, 'key'), at); at += 32; } // node, withdrawer, collectors
  v.setUint16(at, NODE_COMMISSION_BPS, true); at += 2; // inflation rewards commission
  v.setUint16(at, 10_000, true); at += 2; // block revenue commission
  at += 8; // pending delegator rewards
  at += 1; // no BLS key
  at += 8; // no votes
  at += 1; // no root
  v.setBigUint64(at, 1n, true); at += 8; // one authorized voter: epoch 0 → node
  at += 8;
  data.set(decodeBase58(node, 32, 'node'), at);
  // no epoch credits, last timestamp (0, 0): zeros
  return data;
}

/** Write the vote account into LiteSVM (idempotent); returns its address. */
export function writeNodeVoteAccount(svm: LiteSVM, authority: { address: string; secretKey: Uint8Array }): string {
  const address = nodeVoteAddress(authority.secretKey);
  const lamports = svm.minimumBalanceForRentExemption(BigInt(VOTE_STATE_SIZE));
  writeDevnetAccount(svm, { address, lamports: BigInt(lamports), data: voteStateV4(address, authority.address), owner: VOTE_PROGRAM, executable: false }, 'voteAccount');
  return address;
}
