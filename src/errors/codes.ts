/** Every stable error code cairn throws, grouped by domain (`INPUT_*`, `RPC_*`, `SENDER_*`, `MINT_*`, `MERKLE_*`, `DEVNET_*`). */
export const ErrorCodes = {
  // input: caller gave something unusable; always names the field
  INPUT_INVALID: 'INPUT_INVALID',
  // input larger than the configured cap (bytes, items, nesting); context names the limit
  INPUT_TOO_LARGE: 'INPUT_TOO_LARGE',
  // rpc / transport
  RPC_HTTP: 'RPC_HTTP',
  RPC_UNAUTHORIZED: 'RPC_UNAUTHORIZED',
  RPC_FORBIDDEN: 'RPC_FORBIDDEN',
  RPC_RATE_LIMITED: 'RPC_RATE_LIMITED',
  RPC_SERVER: 'RPC_SERVER',
  RPC_NETWORK: 'RPC_NETWORK',
  RPC_TIMEOUT: 'RPC_TIMEOUT',
  RPC_ABORTED: 'RPC_ABORTED',
  RPC_BAD_RESPONSE: 'RPC_BAD_RESPONSE',
  RPC_ID_MISMATCH: 'RPC_ID_MISMATCH',
  RPC_ERROR: 'RPC_ERROR',
  RPC_RESPONSE_TOO_LARGE: 'RPC_RESPONSE_TOO_LARGE',
  RPC_SCHEMA: 'RPC_SCHEMA',
  // the per-call deadline (all attempts and waits together) passed; the cause is the last failure
  RPC_DEADLINE: 'RPC_DEADLINE',
  // plain http with an API key to a non-loopback host, without allowInsecureKey
  RPC_INSECURE_KEY: 'RPC_INSECURE_KEY',
  // a call that changes state failed after it may have been acted on; not sent again (context.findOut says how to learn the outcome)
  RPC_OUTCOME_UNKNOWN: 'RPC_OUTCOME_UNKNOWN',
  // a subscription may have missed notifications (socket reconnected, or its consumer fell behind) and nobody listened for gaps
  RPC_SUBSCRIPTION_GAP: 'RPC_SUBSCRIPTION_GAP',
  // a subscription's buffer filled up under overflow 'error': its consumer reads slower than notifications come
  RPC_SUBSCRIPTION_OVERFLOW: 'RPC_SUBSCRIPTION_OVERFLOW',
  // sender
  SENDER_INVALID_TRANSACTION: 'SENDER_INVALID_TRANSACTION',
  SENDER_MISSING_TIP: 'SENDER_MISSING_TIP',
  SENDER_MISSING_CU_PRICE: 'SENDER_MISSING_CU_PRICE',
  SENDER_REJECTED: 'SENDER_REJECTED',
  SENDER_TRANSACTION_FAILED: 'SENDER_TRANSACTION_FAILED',
  SENDER_BLOCKHASH_EXPIRED: 'SENDER_BLOCKHASH_EXPIRED',
  SENDER_JOURNAL: 'SENDER_JOURNAL',
  // another process (or sender) holds the journal's lock; context names the holder
  SENDER_JOURNAL_LOCKED: 'SENDER_JOURNAL_LOCKED',
  // the journal stopped accepting state changes after a write error (fail closed)
  SENDER_JOURNAL_FAILED: 'SENDER_JOURNAL_FAILED',
  // an intent whose outcome is not known yet: it stays in the journal and resume() finishes it
  SENDER_PENDING: 'SENDER_PENDING',
  SENDER_CLOSED: 'SENDER_CLOSED',
  // a fleet journal refused a state change: this process's claim (lease + fencing token) on the intent lapsed
  SENDER_LEASE_LOST: 'SENDER_LEASE_LOST',
  // an intent id offered again with other content (an id is an idempotency key); context names the id and the part
  SENDER_ID_CONFLICT: 'SENDER_ID_CONFLICT',
  // a bundle of which some transactions landed and others never did (a real bundle is all or none); never re-signed
  SENDER_BUNDLE_PARTIAL: 'SENDER_BUNDLE_PARTIAL',
  SENDER_ABORTED: 'SENDER_ABORTED',
  // mint
  MINT_FAILED: 'MINT_FAILED',
  MINT_VERIFY_FAILED: 'MINT_VERIFY_FAILED',
  // the mint journal cannot be used (damaged, failed write, or a different item under a journaled id)
  MINT_JOURNAL: 'MINT_JOURNAL',
  // merkle
  MERKLE_INVALID_INPUT: 'MERKLE_INVALID_INPUT',
  MERKLE_FIELD_OVERFLOW: 'MERKLE_FIELD_OVERFLOW',
  MERKLE_WORKER_CRASHED: 'MERKLE_WORKER_CRASHED',
  MERKLE_POOL_CLOSED: 'MERKLE_POOL_CLOSED',
  MERKLE_ABORTED: 'MERKLE_ABORTED',
  MERKLE_KERNEL_UNAVAILABLE: 'MERKLE_KERNEL_UNAVAILABLE',
  // devnet
  DEVNET_START_FAILED: 'DEVNET_START_FAILED',
  // an optional peer the devnet runs on (litesvm, or a part of it) is not installed; context names it
  DEVNET_DEPENDENCY_MISSING: 'DEVNET_DEPENDENCY_MISSING',
  DEVNET_INVALID_CONFIG: 'DEVNET_INVALID_CONFIG',
  DEVNET_AIRDROP_FAILED: 'DEVNET_AIRDROP_FAILED',
  // the devnet's chain was stopped: a wait for a slot can never be met
  DEVNET_STOPPED: 'DEVNET_STOPPED',
  // a broken internal invariant (a cairn bug, never the caller's input); context names the invariant
  INTERNAL: 'INTERNAL',
} as const;

export type ErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes];
