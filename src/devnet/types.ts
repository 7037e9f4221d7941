/**
 * Contracts between the devnet's parts: the chain (LiteSVM + slots + statuses), the HTTP server, and
 * the state modules (DAS / cNFT state, compression state) that plug JSON-RPC methods into the server.
 */

import type { Commitment } from '../solana/index.js';
export type { Commitment };

/** A signature's status as `getSignatureStatuses` reports it. */
export interface SignatureStatus {
  slot: number;
  confirmations: number | null;
  err: unknown | null;
  confirmationStatus: Commitment;
}

/** One transaction the chain executed (successfully or with an error). */
export interface ExecutedTransaction {
  signature: string;
  slot: number;
  blockTime: number;
  /** Wire bytes as submitted. */
  wire: Uint8Array;
  /** Base58 account keys of the message, in order. */
  accountKeys: string[];
  /** null on success, else the error (as JSON-RPC reports `err`). */
  err: unknown | null;
  logs: string[];
  fee: number;
  computeUnitsConsumed: number;
  preBalances: number[];
  postBalances: number[];
  /** Compute-unit price (µlamports) set by the transaction, 0 when none. */
  computeUnitPrice: number;
}

export interface LatestBlockhash {
  blockhash: string;
  lastValidBlockHeight: number;
}

/** The devnet's chain. Implemented in chain/chain.ts; used by the server and the state modules. */
export interface Chain {
  slot(): number;
  blockHeight(): number;
  latestBlockhash(): LatestBlockhash;
  /**
   * Queue signed wire bytes for execution in the next slot. A signature already seen is accepted
   * again and never executes twice (a real cluster drops the duplicate). Throws on undecodable bytes.
   */
  submit(wire: Uint8Array): { signature: string; duplicate: boolean };
  status(signature: string): SignatureStatus | null;
  transaction(signature: string): ExecutedTransaction | null;
  /** Every executed transaction in execution order (the ledger). */
  ledger(): readonly ExecutedTransaction[];
  balance(address: string): bigint;
  airdrop(address: string, lamports: bigint): string;
  /** Resolves once the chain has reached `slot` (or rejects on abort / stop). */
  waitForSlot(slot: number, signal?: AbortSignal): Promise<void>;
  /** Called after every executed transaction; returns an unsubscribe function. */
  onTransaction(cb: (tx: ExecutedTransaction) => void): () => void;
  /** A funded keypair the devnet itself signs with (mints, tree ops). 64-byte secret key. */
  authority: { address: string; secretKey: Uint8Array };
}

/** Per-request context handed to a JSON-RPC handler. */
export interface RequestContext {
  signal: AbortSignal;
  /** The host the request arrived on: base JSON-RPC, or /fast. */
  endpoint: 'rpc' | 'fast';
  /** `sendTransaction` on the JSON-RPC host: the fault injector's drop, drawn once per accepted send. */
  dropSend?: () => boolean;
}

/** A JSON-RPC method. Throw `DevnetRpcError` for JSON-RPC errors with a code. */
export type RpcHandler = (params: unknown, ctx: RequestContext) => unknown | Promise<unknown>;

/** A state module plugs methods into the server and may watch executed transactions. */
export interface DevnetModule {
  methods: Record<string, RpcHandler>;
  /** Optional REST routes, keyed "METHOD /path" with `:param` segments. */
  routes?: Record<string, (req: RestRequest) => unknown | Promise<unknown>>;
  close?(): void | Promise<void>;
}

export interface RestRequest {
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
  signal: AbortSignal;
}

// The class lives with the other errors (src/errors/devnet.ts); re-exported for the devnet's handlers.
export { DevnetRpcError } from '../errors/index.js';

/** Fault settings for one endpoint. Rates are 0..1; behaviour is deterministic under the devnet's seed. */
export interface EndpointFaults {
  /** `/fast`, and `sendTransaction` on the JSON-RPC host: accept (answer with the signature) but never execute. */
  dropRate?: number;
  /**
   * Serve the request (it is acted on: a mint mints, a webhook is made), then lose the answer: the
   * connection is cut instead of answered, as a timeout, a reset or a proxy restart looks to a client.
   */
  lostRate?: number;
  /** Answer 429 with `Retry-After: retryAfterSeconds`. */
  rateLimitRate?: number;
  retryAfterSeconds?: number;
  /** Answer 500/503. */
  serverErrorRate?: number;
  /** Which status a server error is (default: half 500, half 503, as the real host mixes them). */
  serverErrorStatus?: 500 | 503;
  /** Added latency per request, ms: exactly this, or the low end of a range with `latencyMaxMs`. */
  latencyMs?: number;
  /** With it, each request's latency is drawn uniformly from `latencyMs ?? 0` to this (ms). */
  latencyMaxMs?: number;
  /**
   * `rpc` only: the share of proof items (asset, account and new-address proofs, validity proofs)
   * answered with a self-consistent fabrication — a made-up leaf and path and the root they give
   * (faults/lies.ts) — as a lying or broken indexer would; only an anchored verifier tells.
   */
  lieRate?: number;
}

export type FaultEndpoint = 'rpc' | 'fast' | 'rest' | 'wallet';

export interface RequestLogEntry {
  at: number;
  endpoint: FaultEndpoint | 'ping';
  /** JSON-RPC method, or "GET /v1/wallet/…" for REST. */
  method: string;
  status: number;
  /** Number of items in the call, where meaningful (signatures in getSignatureStatuses). */
  items?: number;
}

/**
 * Caps that keep one request (or one websocket) from growing the devnet without bound. A request
 * over a cap is refused with a JSON-RPC error (or 413/400 on REST) before it runs.
 */
export interface DevnetLimits {
  /** Request body size, bytes (default 4 MiB): more answers 413 and is never buffered. */
  maxBodyBytes: number;
  /** Calls in one JSON-RPC batch (default 1,000): more answers -32600 before any of them runs. */
  maxBatchLength: number;
  /** One HTTP answer's size, bytes (default 8 MiB): larger answers -32603; also bounds what a
   * websocket client may leave unread before it is dropped. */
  maxResponseBytes: number;
  /** Nesting of a JSON body or websocket message (default 64): deeper answers -32600 / 400. */
  maxJsonDepth: number;
  /** Websocket subscriptions open at once, all connections together (default 100,000). */
  maxSubscriptions: number;
}
