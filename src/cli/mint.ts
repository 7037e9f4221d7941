/**
 * `cairn mint`: mint one compressed NFT through the deprecated `mintCompressedNft` method (or many,
 * from `--file items.json`) and, unless `--no-verify`, fetch each asset and its proof and verify both
 * offline before reporting success. Like every command it talks to the embedded devnet's default
 * address unless told otherwise (`--url`, or the CAIRN_* environment variables; the key only from
 * CAIRN_API_KEY or --api-key). Every item is checked before the first is sent, and errors name the
 * flag (`--seller-fee-bps`), not the API's field (`sellerFeeBasisPoints`). With `--journal FILE`
 * each item is minted at most once (its id: the item's `id`, or its position in the file), whatever
 * answers are lost or runs killed: run the same command again and it finishes what is left.
 */
import { readFileSync, statSync } from 'node:fs';
import { CairnError, describeError, InputError, InputTooLargeError } from '../errors/index.js';
import { createClient, type MintCompressedNftParams } from '../rpc/index.js';
import { mintCompressedNft, validateMintInput, type MintResult, openMintJournal, type MintJournal } from '../mint/index.js';
import { exitCodeOf, reportError, runCommand, str, type CliWriter, type FlagValues } from './args.js';
import { createProgress } from './progress.js';
import { JSON_FLAG, QUIET_FLAG, type CommandSpec } from './usage.js';

export const SPEC: CommandSpec = {
  name: 'mint',
  summary: 'Mint a compressed NFT (or many from --file) and verify each offline: leaf, proof and content.',
  synopsis: '--name NAME --symbol SYM --owner ADDR [options] | --file items.json [options]',
  flags: {
    name: { type: 'string', value: 'NAME', describe: 'the NFT name (at most 32 bytes)' },
    symbol: { type: 'string', value: 'SYM', describe: 'its symbol (at most 10 bytes)' },
    owner: { type: 'string', value: 'ADDR', describe: 'who receives it' },
    description: { type: 'string', value: 'TEXT', describe: '(default: empty)' },
    uri: { type: 'string', value: 'URI', describe: 'off-chain metadata URI' },
    'image-url': { type: 'string', value: 'URL', describe: 'image URL' },
    'external-url': { type: 'string', value: 'URL', describe: 'external URL' },
    'seller-fee-bps': { type: 'string', value: 'N', describe: 'royalty in basis points, 0–10000 (100 = 1%)' },
    creator: { type: 'string', value: 'ADDR:SHARE', multiple: true, describe: 'repeatable; shares must sum to 100' },
    attribute: { type: 'string', value: 'TRAIT=VALUE', multiple: true, describe: 'repeatable' },
    collection: { type: 'string', value: 'ADDR', describe: 'collection address' },
    delegate: { type: 'string', value: 'ADDR', describe: 'delegate address' },
    file: { type: 'string', value: 'FILE', describe: 'mint many: a JSON array of mintCompressedNft params (API field names); all checked first' },
    'no-verify': { type: 'boolean', describe: 'do not fetch and verify the minted asset and proof' },
    journal: { type: 'string', value: 'FILE', describe: 'mint each item at most once: intents journaled in FILE; run again to finish after a crash' },
    'landing-slots': { type: 'string', value: 'N', describe: 'with --journal: slots after an unanswered mint before the indexer decides (default 180)' },
    json: JSON_FLAG,
    quiet: QUIET_FLAG,
    url: { type: 'string', short: 'u', value: 'URL', describe: 'one host for everything (default http://127.0.0.1:8899, the devnet)' },
    'api-key': { type: 'string', value: 'KEY', describe: 'the API key (prefer CAIRN_API_KEY: arguments are visible to other users)' },
    'allow-insecure-key': { type: 'boolean', describe: 'send the key over plain http to a host that is not loopback (refused otherwise)' },
  },
  notes: `environment: CAIRN_URL, CAIRN_API_KEY
--file:      [{"name":"A","symbol":"S","description":"","owner":"ADDR","sellerFeeBasisPoints":500}, …]
             a line per item (--json: one object with every result); progress on stderr on a terminal
--journal:   an item's id is its "id" field (a string), else its position (0, 1, …); an answer lost
             after the service minted is found through the indexer, never minted twice`,
  exits: [
    [0, 'minted (and verified, unless --no-verify); with --file, every item'],
    [1, 'a mint or its verification failed, an outcome is still unknown (--journal: run again), or nothing answers at the URL'],
    [2, 'usage or unusable input (a bad flag or item, an API key refused for plain http); nothing was sent'],
  ],
};

/** Where the command writes; tests hand in buffers. */
export interface MintIo {
  stdout: CliWriter;
  stderr: CliWriter;
}

/** The API's field → the flag that sets it, so an error names what the user typed. */
const FLAG_OF: Record<string, string> = {
  name: '--name',
  symbol: '--symbol',
  owner: '--owner',
  description: '--description',
  uri: '--uri',
  imageUrl: '--image-url',
  externalUrl: '--external-url',
  sellerFeeBasisPoints: '--seller-fee-bps',
  creators: '--creator',
  attributes: '--attribute',
  collection: '--collection',
  delegate: '--delegate',
};

/** The same error, its field named as the flag (`creators[1].share` → `--creator #2`). */
function asFlag(e: unknown): unknown {
  if (!(e instanceof InputError)) return e;
  const field = e.context.field;
  const m = /^(creators|attributes)\[(\d+)\](?:\.\w+)?$/.exec(field);
  const flag = m ? `${FLAG_OF[m[1]!]} #${Number(m[2]) + 1}` : FLAG_OF[field];
  if (!flag) return e;
  return new InputError(flag, e.message.replace(/^"[^"]*": /, ''), { cause: e });
}

/** Params from the flags (a single mint), checked as the API checks them. */
function paramsFromFlags(values: FlagValues): MintCompressedNftParams {
  for (const f of ['name', 'symbol', 'owner'] as const) {
    if (str(values, f) === undefined) throw new InputError(`--${f}`, 'required (or --file for many)');
  }
  const params: MintCompressedNftParams = {
    name: str(values, 'name')!,
    symbol: str(values, 'symbol')!,
    owner: str(values, 'owner')!,
    description: str(values, 'description') ?? '',
  };
  const opt = (flag: string, key: 'uri' | 'imageUrl' | 'externalUrl' | 'collection' | 'delegate'): void => {
    const v = str(values, flag);
    if (v) params[key] = v;
  };
  opt('uri', 'uri');
  opt('image-url', 'imageUrl');
  opt('external-url', 'externalUrl');
  opt('collection', 'collection');
  opt('delegate', 'delegate');
  const bps = str(values, 'seller-fee-bps');
  if (bps !== undefined) {
    if (!/^[0-9]+$/.test(bps)) throw new InputError('--seller-fee-bps', `expected an integer 0–10000 (basis points, 100 = 1%), got ${JSON.stringify(bps)}`);
    params.sellerFeeBasisPoints = Number(bps);
  }
  const creators = values.creator as string[] | undefined;
  if (creators) {
    params.creators = creators.map((c, i) => {
      const [address, share] = c.split(':');
      if (!address || !share || !/^[0-9]+$/.test(share)) throw new InputError(`--creator #${i + 1}`, `expected ADDR:SHARE, got ${JSON.stringify(c)}`);
      return { address, share: Number(share) };
    });
  }
  const attributes = values.attribute as string[] | undefined;
  if (attributes) {
    params.attributes = attributes.map((a, i) => {
      const eq = a.indexOf('=');
      if (eq <= 0) throw new InputError(`--attribute #${i + 1}`, `expected TRAIT=VALUE, got ${JSON.stringify(a)}`);
      return { trait_type: a.slice(0, eq), value: a.slice(eq + 1) };
    });
  }
  try {
    validateMintInput(params);
  } catch (e) {
    throw asFlag(e);
  }
  return params;
}

/** The largest --file read: a mint list is small; a wrong file (a ledger, a log) is refused unread. */
const MAX_FILE_BYTES = 16 << 20;

/** An item of `--file`: its params and its intent id (its `id` field, else its position). */
interface FileItem {
  id: string;
  params: MintCompressedNftParams;
}

/** Params from `--file` (many mints): a JSON array, every item checked before any is sent. */
function paramsFromFile(path: string): FileItem[] {
  let items: unknown;
  try {
    const size = statSync(path).size;
    if (size > MAX_FILE_BYTES) throw new InputTooLargeError('--file', MAX_FILE_BYTES, size, 'split the list into several files');
    items = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    if (e instanceof CairnError) throw e;
    throw new InputError('--file', `cannot read ${path} as JSON: ${(e as Error).message}`, { cause: e });
  }
  if (!Array.isArray(items) || items.length === 0) throw new InputError('--file', `expected a non-empty JSON array of mint params in ${path}`);
  const ids = new Set<string>();
  return items.map((raw, i) => {
    const { id, ...p } = (raw !== null && typeof raw === 'object' ? raw : {}) as { id?: unknown } & Record<string, unknown>;
    if (id !== undefined && (typeof id !== 'string' || id.length === 0 || id.length > 200)) throw new InputError('--file', `item ${i}: "id" must be a non-empty string of at most 200 characters`);
    const key = (id as string | undefined) ?? String(i);
    if (ids.has(key)) throw new InputError('--file', `item ${i}: id ${JSON.stringify(key)} is used twice (an id names one item)`);
    ids.add(key);
    try {
      validateMintInput((raw !== null && typeof raw === 'object' ? p : raw) as unknown as MintCompressedNftParams);
    } catch (e) {
      const d = describeError(e);
      throw new InputError(`--file`, `item ${i}: ${d.message}`, { cause: e });
    }
    return { id: key, params: p as unknown as MintCompressedNftParams };
  });
}

export async function run(argv: string[], io: MintIo = { stdout: process.stdout, stderr: process.stderr }): Promise<number> {
  return runCommand(SPEC, argv, io, async ({ values, json }) => {
    const file = str(values, 'file');
    if (file !== undefined) {
      const single = ['name', 'symbol', 'owner', 'description', 'uri', 'image-url', 'external-url', 'seller-fee-bps', 'creator', 'attribute', 'collection', 'delegate'].find((f) => values[f] !== undefined);
      if (single) throw new InputError(`--${single}`, 'not with --file (each item of the file carries its own)');
    }
    // Everything is checked before the client exists: a bad item sends nothing.
    const fileItems = file !== undefined ? paramsFromFile(file) : undefined;
    const items = fileItems ? fileItems.map((x) => x.params) : [paramsFromFlags(values)];
    const journalPath = str(values, 'journal');
    if (journalPath !== undefined && file === undefined) throw new InputError('--journal', 'goes with --file (each item of the file is an intent)');
    const landingText = str(values, 'landing-slots');
    if (landingText !== undefined && journalPath === undefined) throw new InputError('--landing-slots', 'goes with --journal');
    if (landingText !== undefined && (!/^[0-9]+$/.test(landingText) || Number(landingText) < 1 || Number(landingText) > 10_000)) {
      throw new InputError('--landing-slots', `expected an integer 1–10000, got ${JSON.stringify(landingText)}`);
    }
    let journal: MintJournal | undefined;
    const once = (i: number) => (journal ? { id: fileItems![i]!.id, journal, ...(landingText ? { landingSlots: Number(landingText) } : {}) } : {});
    const url = str(values, 'url');
    const apiKey = str(values, 'api-key');
    const client = createClient({
      ...(url ? { url } : {}),
      ...(apiKey ? { apiKey } : {}),
      ...(values['allow-insecure-key'] ? { allowInsecureKey: true } : {}),
    });
    const ac = new AbortController();
    const onSignal = (): void => ac.abort(new Error('interrupted'));
    process.once('SIGINT', onSignal);
    const verify = !values['no-verify'];
    const hint = (e: unknown): string | undefined =>
      (e instanceof CairnError && e.code === 'RPC_NETWORK' && !url && !process.env.CAIRN_URL
        ? '  (nothing answers at the default devnet address: start one with `npx cairn devnet`, or pass --url)'
        : undefined);
    // the deprecation, once, in cairn's words on this command's stderr; --quiet says nothing
    const notice = { deprecationWarnings: values.quiet !== true, logger: (line: string) => void io.stderr.write(`${line}\n`) };
    try {
      // taken here, inside the try, so the finally below always releases its lock
      if (journalPath !== undefined) journal = await openMintJournal(journalPath);
      if (file === undefined) {
        const result = await mintCompressedNft(client, items[0]!, { verify, signal: ac.signal, ...notice });
        io.stdout.write(json ? `${JSON.stringify(result)}\n` : describe(result));
        return 0;
      }
      const progress = createProgress(io.stderr, { label: 'mint: cNFTs', total: items.length, quiet: values.quiet === true });
      const results: ({ index: number } & (MintResult | { error: ReturnType<typeof describeError>; outcome?: 'unknown' }))[] = [];
      let failed = 0;
      let unknown = 0;
      for (let i = 0; i < items.length; i++) {
        try {
          const r = await mintCompressedNft(client, items[i]!, { verify, signal: ac.signal, ...notice, ...once(i) });
          results.push({ index: i, ...r });
          if (!json) io.stdout.write(`#${i} ${describe(r)}`);
        } catch (e) {
          if (ac.signal.aborted) throw e;
          failed++;
          const d = describeError(e);
          // with a journal, an outcome the indexer could not settle is not a failure: the next run settles it
          const unknownOutcome = e instanceof CairnError && e.code === 'RPC_OUTCOME_UNKNOWN';
          if (unknownOutcome) unknown++;
          results.push({ index: i, error: d, ...(unknownOutcome ? { outcome: 'unknown' as const } : {}) });
          if (!json) io.stdout.write(`#${i} ${unknownOutcome ? 'OUTCOME UNKNOWN' : 'FAILED'} [${d.code}] ${d.message}\n`);
          // nothing listens: every other item would fail the same way
          if (e instanceof CairnError && e.code === 'RPC_NETWORK') {
            progress.done();
            reportError('mint', e, io, false, hint(e));
            if (json) io.stdout.write(`${JSON.stringify({ total: items.length, minted: i - failed + 1, failed: items.length - (i - failed + 1), items: results })}\n`);
            return 1;
          }
        }
        progress.tick();
      }
      progress.done();
      if (json) io.stdout.write(`${JSON.stringify({ total: items.length, minted: items.length - failed, failed: failed - unknown, unknown, items: results })}\n`);
      else {
        const rest = unknown ? `; ${unknown} outcome(s) unknown: run the same command again, the journal settles them` : '';
        io.stdout.write(`${items.length - failed}/${items.length} minted${verify ? ' and verified' : ''}${rest}\n`);
      }
      return failed ? 1 : 0;
    } catch (e) {
      reportError('mint', e, io, json, hint(e));
      return exitCodeOf(e);
    } finally {
      process.off('SIGINT', onSignal);
      await client.close();
      await journal?.close();
    }
  });
}

function describe(result: MintResult): string {
  const how = result.fromJournal ? ' (already minted: journal)' : result.reconciled ? ' (its answer was lost: found through the indexer)' : '';
  let s = `minted ${result.assetId}${how}\n  signature ${result.signature}\n`;
  if (result.verification) {
    for (const [k, v] of Object.entries(result.verification)) s += `  ${k.padEnd(8)} ${v.valid ? 'valid' : `INVALID: ${v.reason}`}\n`;
  }
  return s;
}
