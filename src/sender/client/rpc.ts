/**
 * The slice of the typed client (`createClient` in src/rpc/client/create-client.ts) the sender calls: the same
 * methods, argument order and answer types. The client validates every answer against its shape
 * (src/rpc/solana/index.ts, shapes.ts), so the sender reads them as typed values; what the client leaves
 * open (an absent or negative fee estimate, a transaction's log list) is checked where it is read.
 * `ping` and `close` are optional: a client without them is not warmed, and not closed; nor are the
 * account reads, which only durable-nonce intents need, nor `call` (any method on the JSON-RPC host),
 * through which a submit `/fast` refused with 429 goes at once (`rateLimited`, src/sender/config.ts).
 */
import type { CairnClient, Commitment, SignatureStatus } from '../../rpc/index.js';

export type { Commitment };

/** One signature's status as the client answers it. */
export type StatusLike = SignatureStatus;

export type SenderRpc = Pick<
  CairnClient,
  'getLatestBlockhash' | 'getBlockHeight' | 'getSignatureStatuses' | 'getTransaction' | 'simulateTransaction' | 'getPriorityFeeEstimate' | 'sendTransaction'
> &
  // Durable-nonce intents read their nonce accounts (a client without these cannot send them); a
  // client without `call` has no second route for a rate-limited submit (it waits).
  Partial<Pick<CairnClient, 'ping' | 'close' | 'getAccountInfo' | 'getMultipleAccounts' | 'call'>>;
