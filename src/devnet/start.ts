/**
 * `startDevnet`: the embedded local service. It wires the chain (LiteSVM + slots), the key checker,
 * the fault injector and every module — standard Solana methods, DAS / compressed NFTs, ZK
 * compression, wallet history, legacy token metadata, webhooks — behind one loopback HTTP server,
 * and hands back a `control` object for tests and bots (faults, slot time, request log, keys,
 * webhooks, airdrops).
 */
import { InputError } from '../errors/index.js';
import { writeDevnetAccount } from './chain/account-file.js';
import { createAuth, validateKey, type DevnetKey } from './http/auth.js';
import { createChain } from './chain/chain.js';
import type { DevnetChain } from './chain/contract.js';
import { resolveFastRules, type FastRules } from './http/fast.js';
import { isPublicKeyLike, toAddress, type AddressInput, encodeAddress } from '../solana/index.js';
import { airdropAndWait } from './chain/faucet.js';
import { createFaults, validateFaults } from './faults/endpoints.js';
import { resolveLimits } from './http/limits.js';
import { startDevnetServer } from './http/server.js';
import { createSolanaMethods } from './methods/solana.js';
import { createTokenMetadata } from './methods/rest/token-metadata.js';
import type { DevnetLimits, DevnetModule, EndpointFaults, ExecutedTransaction, FaultEndpoint, RequestLogEntry } from './types.js';
import { createWalletTransfers } from './methods/rest/wallet-transfers.js';
import { createWebhooks, type Webhook, type WebhookInput } from './methods/rest/webhooks.js';
import { createDasState, type DasState, type DasStateOptions } from './das/state.js';
import { createCompressionState, type CompressionState } from './compression/state.js';
import { defaultCacheDir, createProverWorker } from '../prover/index.js';
import type { LiteSVM } from 'litesvm';
import type { GenesisAccount, GenesisProgram } from './chain/genesis.js';
import { createTreeAccountSync } from './trees/accounts.js';
import { installLies } from './faults/lie-rate.js';
import { createLedgerWriter, programBytes, readLedger, resetLedger, snapshotAccounts, touchedAddresses, type LedgerState, type LedgerWriter } from './ledger/file.js';

/** An account to load at genesis (what `cairn devnet --account ADDR FILE` reads; see `readAccountFile`). */
export type DevnetAccount = GenesisAccount;
/** A BPF program to deploy at genesis: its ELF as a file path or as bytes (`--bpf-program ADDR FILE`). */
export type DevnetProgram = GenesisProgram;

export interface DevnetOptions {
  /** 0 = ephemeral (default here); the CLI defaults to 8899. */
  port?: number;
  host?: string;
  /** Slot length, ms (default 400). */
  slotMs?: number;
  /**
   * How many slots `finalized` lags the newest slot (default 3, so tests and bots wait little; a real
   * cluster roots about 32 slots back: set 32 to meet its finalized lag). `confirmed` lags one slot.
   */
  finalizeSlots?: number;
  /** Makes keys, blockhashes and fault decisions reproducible. */
  seed?: number;
  /** API keys; none = every request is answered. */
  keys?: DevnetKey[];
  faults?: Partial<Record<FaultEndpoint, EndpointFaults>>;
  log?: (line: string) => void;
  fundedAccounts?: { address: string; lamports: bigint }[];
  /** `/fast` tip accounts and minima (defaults: the provider's latest known values). */
  fast?: FastRules;
  /** DAS tree shape for minted cNFTs. */
  dasTree?: DasStateOptions['tree'];
  /** Consecutive failed deliveries before a webhook is disabled (default 5). */
  webhookFailureLimit?: number;
  /** Also serve websockets on port + 1, where `@solana/web3.js` looks by default (default true). */
  wsPortPlusOne?: boolean;
  /** Has no effect any more: the DAS and compression modules are mounted before `startDevnet`
   * resolves. Accepted so that callers written when they loaded in the background keep working. */
  waitForModules?: boolean;
  /** Serve the DAS and compression modules at all (default true; false serves without them). */
  stateModules?: boolean;
  /** Pre-verify signatures on a worker thread when `/fast` traffic bursts (default true). */
  verifierThread?: boolean;
  /** Request caps (body bytes, batch length, response bytes, JSON depth, subscriptions); see `DEFAULT_LIMITS`. */
  limits?: Partial<DevnetLimits>;
  /**
   * A directory to keep the devnet's state in (`DIR/ledger.json`): loaded at start when present,
   * saved shortly after each executed transaction and on `stop()`. It holds the accounts the devnet
   * touched, the programs it was given, the signatures and their statuses, the slot, the seed, the
   * DAS assets and trees and the compression state. A corrupt or other-version file is refused
   * (`INPUT_INVALID` on `ledger`, naming it); `reset: true` starts again from genesis.
   */
  ledger?: string;
  /** Start from genesis: remove `ledger`'s saved state first (no effect without `ledger`). */
  reset?: boolean;
  /** BPF programs to deploy at genesis (after a ledger's state, so these win). */
  programs?: DevnetProgram[];
  /** Accounts to write at genesis (after a ledger's state, so these win). */
  accounts?: DevnetAccount[];
  /**
   * What `getValidityProof` and `getValidityProofV2` answer (v1 and v2 trees): `'real'` (default)
   * Groth16 proofs under the `cairn-devnet@1` keys, made on a worker thread (proving keys built on
   * first use and cached, see `proverCacheDir`); `'fake'` well-formed proof bytes that never verify,
   * at once (tests that do not look at the proof).
   */
  validityProofs?: 'fake' | 'real';
  /** Where proving keys are cached (default `$CAIRN_CACHE_DIR`, `$XDG_CACHE_HOME/cairn` or `~/.cache/cairn`). */
  proverCacheDir?: string;
}

export interface DevnetControl {
  setFaults(endpoint: FaultEndpoint, faults: EndpointFaults): void;
  setSlotMs(ms: number): void;
  requestLog(): RequestLogEntry[];
  clearRequestLog(): void;
  /** The JSON-RPC methods the devnet serves (its dispatch table), sorted. */
  methods(): string[];
  addKey(key: DevnetKey): void;
  /** `accountAddresses` as base58 text, web3.js PublicKeys or kit Addresses. */
  createWebhook(input: Omit<WebhookInput, 'accountAddresses'> & { accountAddresses: AddressInput[] }): Webhook;
  webhooks(): Webhook[];
  /**
   * Airdrop through a real transfer from the devnet's faucet; resolves once it has executed. `to` is
   * an address (text, PublicKey, kit Address) or anything that has one: a cairn or kit signer
   * (`.address`), a web3.js Keypair (`.publicKey`).
   */
  airdrop(
    to: AddressInput | { readonly address: string } | { readonly publicKey: AddressInput },
    lamports: bigint | number,
    signal?: AbortSignal,
  ): Promise<string>;
  ledger(): readonly ExecutedTransaction[];
  /** Write an account (lamports, data, owner) now; with `ledger` it is saved with the others. */
  setAccount(account: DevnetAccount): void;
  /** Save the `ledger` directory now (resolves at once without one). */
  saveLedger(): Promise<void>;
}

export interface Devnet {
  /** One URL for all four hosts: JSON-RPC `/`, `/fast`, `/ping`, `/v0/…`, `/v1/wallet/…`. */
  url: string;
  /** Websocket endpoint (pass as `wsEndpoint` to `@solana/web3.js`' Connection). */
  wsUrl: string;
  chain: DevnetChain;
  /**
   * The LiteSVM instance that executes the devnet's transactions, for what the JSON-RPC surface does
   * not offer (warp the clock, read raw accounts, load a program late). Transactions sent straight to
   * it bypass the devnet's slots, statuses and modules; accounts written through it are saved by
   * `ledger` only once a transaction touches them (`control.setAccount` saves them at once).
   */
  readonly svm: LiteSVM;
  control: DevnetControl;
  /** The DAS state (compressed NFTs); null with `stateModules: false`. */
  readonly das: DasState | null;
  /** The compression state; null with `stateModules: false`. */
  readonly compression: CompressionState | null;
  /** Resolves at once: the modules are mounted before `startDevnet` resolves (kept for callers
   * written when they loaded in the background). */
  ready(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Start the devnet on loopback. Starting takes well under a second; `stop()` leaves nothing running.
 *
 * @example
 * const devnet = await startDevnet({ slotMs: 100 });
 * const conn = new Connection(devnet.url, { wsEndpoint: devnet.wsUrl, commitment: 'confirmed' });
 * await devnet.control.airdrop(payer, 10n ** 9n);
 * await devnet.stop();
 */
export async function startDevnet(options: DevnetOptions = {}): Promise<Devnet> {
  const log = options.log ?? (() => {});
  if (options.port !== undefined && (!Number.isInteger(options.port) || options.port < 0 || options.port > 65535)) {
    throw new InputError('port', `expected an integer in 0..65535, got ${options.port}`);
  }
  if (options.seed !== undefined && !Number.isInteger(options.seed)) throw new InputError('seed', `expected an integer, got ${options.seed}`);
  const keys = (options.keys ?? []).map((k, i) => validateKey(k, `keys[${i}]`));
  for (const [e, f] of Object.entries(options.faults ?? {})) if (f) validateFaults(e, f);
  const limits = resolveLimits(options.limits);
  const seed0 = options.seed ?? (Math.random() * 2 ** 32) >>> 0;
  // Resolved (and checked) before the chain exists: custom tip accounts are created at genesis, as
  // the default ones are, so a tip to one of them is a transfer to an account that is there.
  const fastRules = resolveFastRules(options.fast);

  if (options.ledger !== undefined && (typeof options.ledger !== 'string' || options.ledger === '')) {
    throw new InputError('ledger', `expected a directory path, got ${JSON.stringify(options.ledger)}`);
  }
  if (options.ledger !== undefined && options.reset) resetLedger(options.ledger);
  // Read (and checked) whole before anything is built: a bad file never half-loads.
  const saved: LedgerState | null = options.ledger !== undefined ? readLedger(options.ledger) : null;
  if (saved && options.seed !== undefined && options.seed !== saved.seed) log(`devnet: seed ${options.seed} ignored: the ledger was started with seed ${saved.seed}`);
  const seed = saved ? saved.seed : seed0;
  const programs = programBytes(options.programs ?? []);
  const userAccounts = options.accounts ?? [];
  const extraAddresses = new Set<string>([
    ...fastRules.tipAccounts,
    ...(options.fundedAccounts ?? []).map((f) => f.address),
    ...userAccounts.map((a) => a.address),
    ...(saved?.accounts ?? []).map((a) => a.address),
  ]);
  // The ledger's programs first, then the caller's (a program given again replaces the saved one).
  const allPrograms = [...(saved?.programs ?? []).filter((p) => !programs.some((q) => q.address === p.address)), ...programs];

  const chain = createChain({
    ...(options.slotMs !== undefined ? { slotMs: options.slotMs } : {}),
    ...(options.finalizeSlots !== undefined ? { finalizeSlots: checkFinalizeSlots(options.finalizeSlots) } : {}),
    seed,
    ...(options.fundedAccounts ? { fundedAccounts: options.fundedAccounts } : {}),
    ...(options.verifierThread !== undefined ? { verifierThread: options.verifierThread } : {}),
    tipAccounts: [...fastRules.tipAccounts],
    accounts: [...(saved?.accounts ?? []), ...userAccounts],
    programs: allPrograms,
    ...(saved ? { resume: { slot: saved.slot, transactions: saved.transactions } } : {}),
  });
  const modules: DevnetModule[] = [];
  let writer: LedgerWriter | null = null;
  try {
    const auth = createAuth(keys);
    const faults = createFaults(seed, options.faults ?? {});
    // the node's contact info names the servers once they listen (getClusterNodes)
    let listening: { rpc: string; pubsub: string } | null = null;
    modules.push(createSolanaMethods({ chain, endpoints: () => listening ?? { rpc: null, pubsub: null } }));
    const das = options.stateModules === false ? null : createDasState({ chain, ...(options.dasTree ? { tree: options.dasTree } : {}) });
    // The prover thread starts on the first getValidityProof(V2), not here; compression.close() ends it.
    const prover = options.validityProofs === 'fake' ? {} : { prover: createProverWorker({ cacheDir: options.proverCacheDir ?? defaultCacheDir(), slot: () => chain.slot() }) };
    const compression = options.stateModules === false ? null : createCompressionState({ chain, ...prover });
    const wallet = createWalletTransfers({ chain });
    modules.push(wallet);
    modules.push(createTokenMetadata({ chain, das: () => das }));
    const defaultWallet = keys.find((k) => k.wallet)?.wallet ?? chain.authority.address;
    const webhooks = createWebhooks({ chain, defaultWallet, failureLimit: options.webhookFailureLimit ?? 5, log, onChange: () => writer?.touch() });
    modules.push(webhooks);
    // Last, as when they loaded in the background: their methods and routes are mounted after the others'.
    if (das) modules.push(das);
    if (compression) modules.push(compression);
    if (saved) {
      try {
        if (saved.das && das) das.importState(saved.das);
        if (saved.compression && compression) compression.store.importOps(saved.compression);
        if (saved.webhooks) webhooks.restore(saved.webhooks);
      } catch (e) {
        throw new InputError('ledger', `${options.ledger}: its state does not load (${(e as Error).message}); start with --reset (reset: true) to begin again from genesis`, { got: options.ledger, cause: e });
      }
    }
    // After the modules (and a ledger's state): their trees go on chain now and after each
    // transaction, the listener running after theirs.
    const trees = das || compression ? createTreeAccountSync(chain, das, compression) : null;
    // The `lieRate` fault: proof methods answer a share of items with fabrications (faults/lie-rate.ts).
    if (das) installLies(das.methods, faults, null);
    if (compression) installLies(compression.methods, faults, compression.store, 'prover' in prover ? prover.prover : undefined);
    if (trees) modules.push({ methods: {}, close: () => trees.close() });
    if (options.ledger !== undefined) {
      const dir = options.ledger;
      writer = createLedgerWriter(
        dir,
        () => ({
          seed,
          slot: chain.slot(),
          // Tree accounts are rebuilt from the DAS and compression state: not saved twice (megabytes each).
          accounts: snapshotAccounts(chain, touchedAddresses(chain, [...extraAddresses]).filter((a) => !trees?.written.has(a))),
          programs: allPrograms,
          transactions: [...chain.ledger()],
          das: das ? das.exportState() : saved?.das ?? null,
          compression: compression ? [...compression.store.exportOps()] : saved?.compression ?? null,
          webhooks: webhooks.list(),
        }),
        log,
      );
      const w = writer;
      // The DAS and compression modules apply their change when the transaction executes, in the
      // same listener round: a save a debounce later sees both.
      chain.onTransaction(() => w.touch());
    }

    const server = await startDevnetServer({
      chain,
      auth,
      faults,
      fastRules,
      modules,
      ...(options.host ? { host: options.host } : {}),
      port: options.port ?? 0,
      wsPortPlusOne: options.wsPortPlusOne ?? true,
      limits,
      log,
    });
    listening = { rpc: new URL(server.url).host, pubsub: new URL(server.wsUrl).host };

    let stopped: Promise<void> | null = null;
    const control: DevnetControl = {
      setFaults: (endpoint, f) => faults.set(endpoint, f),
      setSlotMs: (ms) => chain.setSlotMs(ms),
      requestLog: () => server.requestLog(),
      methods: () => server.methods(),
      clearRequestLog: () => server.clearRequestLog(),
      addKey: (k) => auth.add(k),
      // Addresses in any form users have (solana/inputs.ts) become base58 here, at the entry.
      createWebhook: (input) =>
        webhooks.create(
          input && Array.isArray(input.accountAddresses)
            ? { ...input, accountAddresses: input.accountAddresses.map((a, i) => toAddress(a, `accountAddresses[${i}]`)) }
            : (input as WebhookInput),
        ),
      webhooks: () => webhooks.list(),
      ledger: () => chain.ledger(),
      airdrop: async (to, lamports, signal) => airdropAndWait(chain, airdropTarget(to), airdropLamports(lamports), signal),
      setAccount(account) {
        writeDevnetAccount(chain.svm, account);
        extraAddresses.add(account.address);
        writer?.touch();
      },
      saveLedger: () => writer?.flush() ?? Promise.resolve(),
    };
    return {
      url: server.url,
      wsUrl: server.wsUrl,
      chain,
      svm: chain.svm,
      control,
      das,
      compression,
      ready: () => Promise.resolve(),
      stop() {
        stopped ??= (async () => {
          await server.close();
          for (const m of modules.reverse()) await m.close?.();
          await chain.stop();
          // After the chain stopped: the last slot's transactions are in the final save.
          await writer?.close();
        })();
        return stopped;
      },
    };
  } catch (e) {
    for (const m of modules) await m.close?.();
    await chain.stop();
    // Nothing saved over a ledger that failed to load or a devnet that never served.
    throw e;
  }
}

/** `finalizeSlots` is a whole number of slots from 1 to 512 (the SlotHashes the chain keeps). */
function checkFinalizeSlots(n: unknown): number {
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > 512) {
    throw new InputError('finalizeSlots', `expected an integer in 1..512, got ${String(n)}`);
  }
  return n;
}

/** The address an airdrop goes to: an address, or the one a signer or Keypair carries. */
function airdropTarget(to: unknown): string {
  if (to !== null && typeof to === 'object' && !isPublicKeyLike(to)) {
    if (typeof (to as { address?: unknown }).address === 'string') return toAddress((to as { address: string }).address, 'address.address');
    if ('publicKey' in to) return toAddress(toPublicKeyInput((to as { publicKey: unknown }).publicKey), 'address.publicKey');
  }
  // errors name the parameter as the control API has always called it
  return toAddress(to, 'address');
}

/** A Keypair's `publicKey` (a PublicKey) as is; cairn's signers keep 32 bytes there, given as base58. */
function toPublicKeyInput(k: unknown): unknown {
  return k instanceof Uint8Array && k.length === 32 ? encodeAddress(k) : k;
}

/** Whole lamports as a bigint; a number is taken when it is a safe non-negative integer. */
function airdropLamports(l: bigint | number): bigint {
  if (typeof l === 'bigint' && l > 0n) return l;
  if (typeof l === 'number' && Number.isSafeInteger(l) && l > 0) return BigInt(l);
  throw new InputError('lamports', `expected a positive whole number of lamports (bigint or safe integer), got ${typeof l === 'bigint' ? `${l}n` : String(l)}`, { got: String(l) });
}
