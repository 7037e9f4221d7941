/**
 * `startDevnet`: the embedded local service. It wires the chain (LiteSVM + slots), the key checker,
 * the fault injector and every module — standard Solana methods, DAS / compressed NFTs, ZK
 * compression, wallet history, legacy token metadata, webhooks — behind one loopback HTTP server,
 * and hands back a `control` object for tests and bots (faults, slot time, request log, keys,
 * webhooks, airdrops). The DAS and compression modules are loaded when their files are present, so
 * the devnet keeps working while they are being built.
 */
import { InputError } from '../errors.js';
import { createAuth, validateKey, type DevnetKey } from './auth.js';
import { createChain } from './chain.js';
import type { DevnetChain } from './devnet-chain.js';
import { resolveFastRules, type FastRules } from './fast.js';
import { airdropAndWait } from './faucet.js';
import { createFaults, validateFaults } from './faults.js';
import { resolveLimits } from './limits.js';
import { startDevnetServer } from './server.js';
import { createSolanaMethods } from './solana-methods.js';
import { createTokenMetadata } from './token-metadata.js';
import type { DevnetLimits, DevnetModule, EndpointFaults, ExecutedTransaction, FaultEndpoint, RequestLogEntry } from './types.js';
import { createWalletTransfers } from './wallet-transfers.js';
import { createWebhooks, type Webhook, type WebhookInput } from './webhooks.js';
import type { DasState, DasStateOptions } from './das-state.js';
import type { CompressionState } from './compression-state.js';

export type { DevnetKey } from './auth.js';
export type { DevnetChain } from './devnet-chain.js';
export type { Webhook, WebhookInput } from './webhooks.js';
export type { FastRules } from './fast.js';
export { DEFAULT_TIP_ACCOUNTS } from './fast.js';
export type { Chain, DevnetLimits, EndpointFaults, ExecutedTransaction, FaultEndpoint, RequestLogEntry, SignatureStatus } from './types.js';
export { DEFAULT_LIMITS } from './limits.js';

export interface DevnetOptions {
  /** 0 = ephemeral (default here); the CLI defaults to 8899. */
  port?: number;
  host?: string;
  /** Slot length, ms (default 400). */
  slotMs?: number;
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
  /** Wait for the DAS and compression modules before resolving (default false: they load in the
   * background, and a call to one of their methods waits for them). */
  waitForModules?: boolean;
  /** Load the DAS and compression modules at all (default true; false serves without them). */
  stateModules?: boolean;
  /** Pre-verify signatures on a worker thread when `/fast` traffic bursts (default true). */
  verifierThread?: boolean;
  /** Request caps (body bytes, batch length, response bytes, JSON depth, subscriptions); see `DEFAULT_LIMITS`. */
  limits?: Partial<DevnetLimits>;
}

export interface DevnetControl {
  setFaults(endpoint: FaultEndpoint, faults: EndpointFaults): void;
  setSlotMs(ms: number): void;
  requestLog(): RequestLogEntry[];
  clearRequestLog(): void;
  /** The JSON-RPC methods the devnet serves (its dispatch table), sorted. */
  methods(): string[];
  addKey(key: DevnetKey): void;
  createWebhook(input: WebhookInput): Webhook;
  webhooks(): Webhook[];
  /** Airdrop through a real transfer from the devnet's faucet; resolves once it has executed. */
  airdrop(address: string, lamports: bigint, signal?: AbortSignal): Promise<string>;
  ledger(): readonly ExecutedTransaction[];
}

export interface Devnet {
  /** One URL for all four hosts: JSON-RPC `/`, `/fast`, `/ping`, `/v0/…`, `/v1/wallet/…`. */
  url: string;
  /** Websocket endpoint (pass as `wsEndpoint` to `@solana/web3.js`' Connection). */
  wsUrl: string;
  chain: DevnetChain;
  control: DevnetControl;
  /** The DAS state (compressed NFTs) once its module has loaded (see `ready()`), else null. */
  readonly das: DasState | null;
  /** The compression state once its module has loaded, else null. */
  readonly compression: CompressionState | null;
  /** Resolves once the DAS and compression modules have loaded (or are known to be absent). */
  ready(): Promise<void>;
  stop(): Promise<void>;
}

async function loadOptional<T>(specifier: string, factory: string, args: unknown, log: (l: string) => void): Promise<T | null> {
  let mod: Record<string, unknown>;
  try {
    mod = (await import(specifier)) as Record<string, unknown>;
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === 'ERR_MODULE_NOT_FOUND' && String((e as Error).message).includes(specifier.replace('./', ''))) return null;
    throw e;
  }
  const f = mod[factory];
  if (typeof f !== 'function') {
    log(`devnet: ${specifier} has no ${factory}(); module skipped`);
    return null;
  }
  return (f as (a: unknown) => T)(args);
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
  const seed = options.seed ?? (Math.random() * 2 ** 32) >>> 0;

  const chain = createChain({
    ...(options.slotMs !== undefined ? { slotMs: options.slotMs } : {}),
    seed,
    ...(options.fundedAccounts ? { fundedAccounts: options.fundedAccounts } : {}),
    ...(options.verifierThread !== undefined ? { verifierThread: options.verifierThread } : {}),
  });
  const modules: DevnetModule[] = [];
  try {
    const auth = createAuth(keys);
    const faults = createFaults(seed, options.faults ?? {});
    modules.push(createSolanaMethods({ chain }));
    // The DAS and compression modules pull in heavy dependencies (@solana/web3.js, hashing): they load
    // in the background so that starting stays well under a second; their methods wait for them.
    let das: DasState | null = null;
    let compression: CompressionState | null = null;
    const wallet = createWalletTransfers({ chain });
    modules.push(wallet);
    modules.push(createTokenMetadata({ chain, das: () => das }));
    const defaultWallet = keys.find((k) => k.wallet)?.wallet ?? chain.authority.address;
    const webhooks = createWebhooks({ chain, defaultWallet, failureLimit: options.webhookFailureLimit ?? 5, log });
    modules.push(webhooks);

    const server = await startDevnetServer({
      chain,
      auth,
      faults,
      fastRules: resolveFastRules(options.fast),
      modules,
      ...(options.host ? { host: options.host } : {}),
      port: options.port ?? 0,
      wsPortPlusOne: options.wsPortPlusOne ?? true,
      limits,
      log,
    });

    let stopping = false;
    // A module that finishes loading after stop() is closed at once instead of mounted: stop() does
    // not wait for a slow import.
    const adopt = async <T extends DevnetModule>(m: T | null): Promise<T | null> => {
      if (!m) return null;
      if (stopping) {
        await m.close?.();
        return null;
      }
      modules.push(m);
      server.mount(m);
      return m;
    };
    const loading = (async () => {
      if (options.stateModules === false) return;
      das = await adopt(await loadOptional<DasState>('./das-state.js', 'createDasState', { chain, ...(options.dasTree ? { tree: options.dasTree } : {}) }, log));
      if (stopping) return;
      compression = await adopt(await loadOptional<CompressionState>('./compression-state.js', 'createCompressionState', { chain }, log));
    })();
    loading.catch((e: unknown) => log(`devnet: a state module failed to load: ${e instanceof Error ? e.message : String(e)}`));
    server.setPending(loading.catch(() => undefined).finally(() => server.setPending(null)));
    if (options.waitForModules) await loading;

    let stopped: Promise<void> | null = null;
    const control: DevnetControl = {
      setFaults: (endpoint, f) => faults.set(endpoint, f),
      setSlotMs: (ms) => chain.setSlotMs(ms),
      requestLog: () => server.requestLog(),
      methods: () => server.methods(),
      clearRequestLog: () => server.clearRequestLog(),
      addKey: (k) => auth.add(k),
      createWebhook: (input) => webhooks.create(input),
      webhooks: () => webhooks.list(),
      ledger: () => chain.ledger(),
      airdrop: (address, lamports, signal) => airdropAndWait(chain, address, lamports, signal),
    };
    return {
      url: server.url,
      wsUrl: server.wsUrl,
      chain,
      control,
      get das() {
        return das;
      },
      get compression() {
        return compression;
      },
      ready: () => loading.catch(() => undefined),
      stop() {
        stopped ??= (async () => {
          stopping = true;
          await server.close();
          for (const m of modules.reverse()) await m.close?.();
          await chain.stop();
        })();
        return stopped;
      },
    };
  } catch (e) {
    for (const m of modules) await m.close?.();
    await chain.stop();
    throw e;
  }
}
