/**
 * The standard Solana JSON-RPC methods a sender, bot or mint script needs (on the JSON-RPC host), plus
 * the /fast submission and /ping warm-up on the sender host. Standard methods take array params and
 * most answer `{context, value}`: these helpers unwrap `value` (and keep `context.slot` where the
 * sender needs it). One file per concept — transactions, accounts, tokens, blocks, the cluster — and
 * this one gathers them for the client (`solana.getBlock(…)`) and the package's index.
 */
export { type CommitmentParams } from './params.js';
export { MAX_SIGNATURES_PER_STATUS_CALL, getLatestBlockhash, getSignatureStatuses, getTransaction, simulateTransaction, getPriorityFeeEstimate, sendTransaction, ping, getFeeForMessage, type GetTransactionConfig, type SimulateConfig, type PriorityFeeParams } from './transactions.js';
export { getBalance, getAccountInfo, requestAirdrop, getMultipleAccounts, getProgramAccounts, getMinimumBalanceForRentExemption, type KeyedAccount, type AccountParams, type AccountFilter } from './accounts.js';
export { getTokenAccountBalance, getTokenSupply, getTokenLargestAccounts, getTokenAccountsByOwner, getTokenAccountsByDelegate, type TokenAmount } from './tokens.js';
export { getBlock, getBlockTime, getBlocks, getBlocksWithLimit, getFirstAvailableBlock, type BlockParams } from './blocks.js';
export { getBlockHeight, getSlot, getEpochSchedule, getEpochInfo, getIdentity, getSlotLeader, getClusterNodes, getTransactionCount, getVoteAccounts, getInflationReward, type EpochSchedule, type EpochInfo, type ClusterNode, type VoteAccounts, type InflationReward } from './cluster.js';
