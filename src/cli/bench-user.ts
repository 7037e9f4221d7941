/**
 * The user families of `cairn bench`, shipped in the package (src/bench/): `verify` and `sign` measure
 * this machine and need nothing; `rpc` and `landing` measure an endpoint — `--url`, or a devnet
 * embedded in the process when none is given (`--devnet`; it needs the optional litesvm). Flags are
 * read and checked here, every one of them before the first request; the spending cap of `landing` is
 * checked before any request too (src/bench/spend-cap.ts).
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { resolveEndpoints } from '../config.js';
import { CairnError, InputError } from '../errors/index.js';
import { createClient } from '../rpc/index.js';
import { generateSigner, type Signer, addressText, toU64 } from '../solana/index.js';
import { DEFAULT_MIN_TIP_LAMPORTS } from '../tips.js';
import {
  BENCH_KINDS,
  type BenchKind,
  verifyFamily,
  signFamily,
  rpcFamily,
  RPC_METHODS,
  landingFamily,
  checkCap,
  parseSol,
  LAMPORTS_PER_SOL,
  type FamilyContext,
  type FamilyResult,
} from '../bench/index.js';
import { intFlag, str, type FlagValues } from './args.js';
import { readKeypairFile } from './send.js';

export const USER_FAMILIES = ['verify', 'sign', 'rpc', 'landing'] as const;
export type UserFamily = (typeof USER_FAMILIES)[number];

const isLoopback = (url: string): boolean => {
  const h = new URL(url).hostname;
  return h === '127.0.0.1' || h === 'localhost' || h === '::1' || h === '[::1]';
};

const list = (values: FlagValues, name: string): string[] | undefined => {
  const v = str(values, name);
  if (v === undefined) return undefined;
  const items = v.split(',').map((s) => s.trim()).filter(Boolean);
  if (items.length === 0) throw new InputError(`--${name}`, 'expected a comma-separated list');
  return items;
};

function u64Flag(values: FlagValues, name: string): bigint | undefined {
  const v = str(values, name);
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v)) throw new InputError(`--${name}`, `expected a non-negative integer, got ${JSON.stringify(v)}`);
  return toU64(BigInt(v), `--${name}`);
}

function secondsFlag(values: FlagValues, name: string, dflt: number, max: number): number {
  const v = str(values, name);
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!/^\d+(\.\d+)?$/.test(v) || !(n > 0) || n > max) throw new InputError(`--${name}`, `expected seconds, more than 0 and at most ${max}, got ${JSON.stringify(v)}`);
  return n;
}

/** Everything the chosen families need, checked before anything runs. */
export interface UserBenchPlan {
  families: UserFamily[];
  run: (family: UserFamily, ctx: FamilyContext) => Promise<FamilyResult>;
  /** Stop what the plan started (an embedded devnet). */
  close(): Promise<void>;
}

/** Read the user families' flags; throws InputError naming the flag. Makes no request. */
export function planUserBench(families: UserFamily[], values: FlagValues, env: NodeJS.ProcessEnv): UserBenchPlan {
  const seconds = secondsFlag(values, 'seconds', 2, 600);
  const threads = (list(values, 'threads') ?? defaultThreads().map(String)).map((t) => {
    if (!/^\d+$/.test(t) || Number(t) < 1 || Number(t) > 256) throw new InputError('--threads', `expected thread counts 1–256, got ${JSON.stringify(t)}`);
    return Number(t);
  });
  const kinds = list(values, 'kinds') ?? [...BENCH_KINDS];
  for (const k of kinds) if (!(BENCH_KINDS as readonly string[]).includes(k)) throw new InputError('--kinds', `unknown kind ${JSON.stringify(k)}; kinds: ${BENCH_KINDS.join(', ')}`);
  const methods = list(values, 'methods');
  for (const m of methods ?? []) if (!(m in RPC_METHODS)) throw new InputError('--methods', `${JSON.stringify(m)} is not a read-only method here: ${Object.keys(RPC_METHODS).join(', ')}`);
  const requests = intFlag(values, 'requests', 1, 100_000) ?? 50;
  const items = intFlag(values, 'items', 1, 1_000_000);
  const transfers = intFlag(values, 'transfers', 1, 10_000) ?? 20;
  const concurrency = intFlag(values, 'concurrency', 1, 256) ?? 4;
  const timeLimitS = secondsFlag(values, 'time-limit', 300, 3_600);
  const swqosOnly = values['swqos-only'] === true;
  const floor = swqosOnly ? DEFAULT_MIN_TIP_LAMPORTS.swqosOnly : DEFAULT_MIN_TIP_LAMPORTS.dual;
  const tip = u64Flag(values, 'tip') ?? floor;
  if (tip < floor) throw new InputError('--tip', `${tip} lamports is below the routing mode's minimum of ${floor}`);
  const cuPrice = u64Flag(values, 'cu-price') ?? 10_000n;
  const cuLimit = intFlag(values, 'cu-limit', 1, 1_400_000) ?? 1_000;
  const lamports = u64Flag(values, 'lamports') ?? 1_000n;
  if (lamports === 0n) throw new InputError('--lamports', 'expected more than 0');
  const toArg = str(values, 'to');
  const to = toArg === undefined ? undefined : addressText(toArg, '--to');
  const capText = str(values, 'max-spend');
  const cap = capText === undefined ? undefined : parseSol(capText, '--max-spend');

  // The endpoint: --url (and friends) or an embedded devnet.
  const url = str(values, 'url');
  const rpcUrl = str(values, 'rpc-url');
  const senderUrl = str(values, 'sender-url');
  const wantsEndpoint = families.includes('rpc') || families.includes('landing');
  const cluster = str(values, 'cluster');
  const apiKey = str(values, 'api-key') ?? env.CAIRN_API_KEY;
  // an endpoint is given by a URL, a cluster, or (as createClient reads it) an API key alone: mainnet
  const given = url !== undefined || rpcUrl !== undefined || cluster !== undefined || ['CAIRN_URL', 'CAIRN_RPC_URL', 'CAIRN_CLUSTER'].some((k) => env[k] !== undefined) || apiKey !== undefined;
  if (values.devnet === true && (url !== undefined || rpcUrl !== undefined || cluster !== undefined)) throw new InputError('--devnet', 'not with --url / --rpc-url / --cluster: one endpoint at a time');
  const embedded = wantsEndpoint && (values.devnet === true || !given);
  let endpoints: ReturnType<typeof resolveEndpoints> | undefined;
  if (wantsEndpoint && !embedded) {
    const keyFlag = str(values, 'api-key');
    try {
      endpoints = resolveEndpoints({ ...(url ? { url } : {}), ...(rpcUrl ? { baseUrl: rpcUrl } : {}), ...(senderUrl ? { senderUrl } : {}), ...(keyFlag ? { apiKey: keyFlag } : {}), ...(cluster ? { cluster: cluster as 'mainnet' } : {}) }, env);
    } catch (e) {
      // the resolver names its own fields; the user typed flags
      const field = (e as { context?: { field?: string } }).context?.field;
      const flag = ({ cluster: '--cluster', url: '--url', baseUrl: '--rpc-url', senderUrl: '--sender-url', apiKey: '--api-key' } as Record<string, string>)[field ?? ''];
      throw flag && e instanceof InputError ? new InputError(flag, e.message.replace(/^"[^"]*": /, ''), { cause: e }) : e;
    }
  }
  // The payer: read now (a file, no request); a real endpoint needs one and a cap.
  let keypair = str(values, 'keypair');
  if (keypair === undefined && env.CAIRN_KEYPAIR) keypair = env.CAIRN_KEYPAIR;
  const home = env.HOME ?? env.USERPROFILE;
  const solanaDefault = home ? join(home, '.config', 'solana', 'id.json') : undefined;
  if (keypair === undefined && !embedded && solanaDefault && existsSync(solanaDefault)) keypair = solanaDefault;
  const payerFromFile: Signer | undefined = families.includes('landing') && keypair !== undefined ? readKeypairFile(keypair) : undefined;
  const real = endpoints !== undefined && !isLoopback(endpoints.baseUrl);
  if (families.includes('landing')) {
    // refused here, before the first request of any family: no cap (a real endpoint) or too small a one
    const amountOut = to !== undefined && to !== payerFromFile?.address ? lamports : 0n;
    checkCap(transfers, { tip, cuPrice, cuLimit, amountOut }, cap, real);
    if (!payerFromFile && real) throw new InputError('--keypair', `required against ${new URL(endpoints!.baseUrl).origin}: the payer's keypair file (--keypair or CAIRN_KEYPAIR)`);
  }
  let devnet: { url: string; control: { airdrop(a: string, l: bigint, s?: AbortSignal): Promise<string> }; stop(): Promise<void> } | undefined;

  const endpointOf = async (ctx: FamilyContext) => {
    if (endpoints) return { baseUrl: endpoints.baseUrl, senderUrl: endpoints.senderUrl, apiKey: endpoints.apiKey };
    if (!devnet) {
      let mod: typeof import('../devnet/index.js');
      try {
        mod = await import('../devnet/index.js');
      } catch (e) {
        throw new CairnError('INPUT_INVALID', `the embedded devnet needs the optional litesvm package (npm install litesvm@1.4.1), or pass --url: ${(e as Error).message.split('\n')[0]}`, { context: { field: '--devnet' }, cause: e });
      }
      ctx.say('starting an embedded devnet (100 ms slots)');
      devnet = (await mod.startDevnet({ slotMs: 100, validityProofs: 'fake' })) as never;
    }
    return { baseUrl: devnet!.url, senderUrl: devnet!.url, apiKey: undefined };
  };

  const run = async (family: UserFamily, ctx: FamilyContext): Promise<FamilyResult> => {
    if (family === 'verify') return verifyFamily({ kinds: kinds as BenchKind[], threads, seconds, ...(items !== undefined ? { items } : {}) }, ctx);
    if (family === 'sign') return signFamily({ seconds }, ctx);
    const ep = await endpointOf(ctx);
    const key = ep.apiKey ? { apiKey: ep.apiKey } : {};
    const insecure = values['allow-insecure-key'] === true ? { allowInsecureKey: true } : {};
    if (family === 'rpc') return rpcFamily({ url: ep.baseUrl, ...key, ...insecure, ...(methods ? { methods } : {}), requests, concurrency: intFlag(values, 'concurrency', 1, 256) ?? 1, seconds: Math.max(seconds, 10) }, ctx);
    // landing: the cap is checked (inside landingFamily) before the payer is funded or anything is asked
    let payer = payerFromFile;
    const price = {
      transfers,
      concurrency,
      lamports,
      swqosOnly,
      tip,
      cuPrice,
      cuLimit,
      ...(to ? { to } : {}),
      ...(cap !== undefined ? { cap } : {}),
      capRequired: real,
      timeLimitS,
    };
    const fund = payer === undefined;
    payer ??= generateSigner();
    return landingFamily(
      {
        baseUrl: ep.baseUrl,
        senderUrl: ep.senderUrl,
        ...key,
        ...insecure,
        payer,
        ...price,
        ...(fund ? { fund: (need: bigint) => airdrop(ep.baseUrl, payer!.address, need, ctx) } : {}),
      },
      ctx,
    );
  };

  /** Fund a fresh payer on a loopback endpoint: the devnet's control, or requestAirdrop. */
  const airdrop = async (baseUrl: string, address: string, need: bigint, ctx: FamilyContext): Promise<void> => {
    const lamports = need + LAMPORTS_PER_SOL / 10n;
    ctx.say(`funding a fresh payer ${address} with ${lamports} lamports by airdrop`);
    if (devnet) {
      await devnet.control.airdrop(address, lamports, ctx.signal);
      return;
    }
    const client = createClient({ baseUrl });
    try {
      await client.requestAirdrop(address, lamports, undefined, { signal: ctx.signal });
      for (let i = 0; ; i++) {
        if (BigInt(await client.getBalance(address, { commitment: 'confirmed' }, { signal: ctx.signal })) >= lamports) return;
        if (i > 200) throw new CairnError('SENDER_REJECTED', 'the airdrop did not arrive within 20 s');
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      await client.close();
    }
  };

  return {
    families,
    run,
    async close() {
      await devnet?.stop();
    },
  };
}

/** The thread counts `verify` measures by default on this machine: 1 and every core. */
const defaultThreads = (): number[] => [...new Set([1, availableParallelism()])];
