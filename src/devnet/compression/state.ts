/**
 * The devnet's ZK-compression module: the store of compressed accounts and addresses
 * (store.ts), the nine JSON-RPC methods of the spec over it (methods.ts),
 * and the control functions through which state enters (ops.ts) — each a real
 * authority-signed transaction whose change is applied when it has executed.
 */
import { compressionMethods } from './methods.js';
import type { Bytesish } from './inputs.js';
import {
  createAddress,
  createCompressedAccount,
  deriveAddress,
  mintCompressedTokens,
  transferCompressedTokens,
  type AddressInput,
  type CompressionOpResult,
  type CompressionOps,
  type CreateCompressedAccountInput,
  type MintCompressedTokensInput,
  type TransferCompressedTokensInput,
} from './ops.js';
import { createCompressionStore, type CompressionStore, type TreeVersion } from './store.js';
import { createAuthorityTxSender } from '../chain/authority-tx.js';
import type { Chain, DevnetModule } from '../types.js';
import type { ProverWorker } from '../../prover/index.js';

export interface CompressionState extends DevnetModule {
  readonly store: CompressionStore;
  createCompressedAccount(
    input: CreateCompressedAccountInput,
    opts?: { signal?: AbortSignal },
  ): Promise<CompressionOpResult & { account: Record<string, unknown> }>;
  createAddress(input: AddressInput, opts?: { signal?: AbortSignal }): Promise<{ signature: string; address: string }>;
  mintCompressedTokens(input: MintCompressedTokensInput, opts?: { signal?: AbortSignal }): Promise<CompressionOpResult>;
  transferCompressedTokens(input: TransferCompressedTokensInput, opts?: { signal?: AbortSignal }): Promise<CompressionOpResult>;
  /** Derive the address `seeds` + `programId` give in the devnet's address tree of `version` (v1 by default). */
  deriveAddress(seeds: Uint8Array[], programId: Bytesish, version?: TreeVersion): string;
}

/**
 * Create the compression module for a devnet chain.
 *
 * @example
 * const zk = createCompressionState({ chain });
 * await zk.mintCompressedTokens({ mint, recipients: [{ owner, amount: 100n }] });
 * // then: getCompressedTokenAccountsByOwner { owner } → one item of amount 100
 */
export function createCompressionState(opts: { chain: Chain; prover?: ProverWorker }): CompressionState {
  const { chain, prover } = opts;
  const store = createCompressionStore();
  const sender = createAuthorityTxSender(chain);
  // Accounts and addresses claimed by operations submitted but not executed yet.
  const ops: CompressionOps = { store, sender, reservedHashes: new Set(), reservedAddresses: new Set() };
  return {
    methods: compressionMethods(chain, store, prover),
    store,
    createCompressedAccount: (input, o) => createCompressedAccount(ops, input, o),
    createAddress: (input, o) => createAddress(ops, input, o),
    mintCompressedTokens: (input, o) => mintCompressedTokens(ops, input, o),
    transferCompressedTokens: (input, o) => transferCompressedTokens(ops, input, o),
    deriveAddress: (seeds, programId, version) => deriveAddress(store, seeds, programId, version),
    async close() {
      sender.close();
      await prover?.close();
    },
  };
}
