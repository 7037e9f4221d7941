/**
 * What `cairn verify validity-proof` adds to the other kinds: the flags that choose the verifying
 * keys (`--vk FILE`, Light's verifying-key JSON; `--key-set NAME`, a shipped set by name — the only
 * way to try an opt-in set such as cairn's devnet keys) and the files to cross-check against
 * (`--accounts FILE`, `--addresses FILE`). With any of them the input is wrapped in one bundle
 * (`{ getValidityProof, keySets, accounts, addressProofs }`, kinds/validity-proof.ts) that hands each
 * answer in it the same keys and files; without, the file's bytes go to the verifier like any other
 * kind's.
 */
import { basename } from 'node:path';
import { CairnError, keySetByName, keySetFromJson, keySetNames, parseJsonLossless, type PackedKeySet, type Verdict } from '../merkle/index.js';
import { readFileBounded } from './read-bounded.js';

/** The validity-proof flags as parsed. */
export interface ValidityFlags {
  vk: string[];
  keySets: string[];
  accounts?: string;
  addresses?: string;
}

/** The flags from parseArgs' values; `any` is true when one of them was given. */
export function validityFlags(values: Record<string, unknown>): ValidityFlags & { any: boolean } {
  const list = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : typeof v === 'string' ? [v] : []);
  const f: ValidityFlags = { vk: list(values.vk), keySets: list(values['key-set']) };
  if (typeof values.accounts === 'string') f.accounts = values.accounts;
  if (typeof values.addresses === 'string') f.addresses = values.addresses;
  return { ...f, any: f.vk.length > 0 || f.keySets.length > 0 || f.accounts !== undefined || f.addresses !== undefined };
}

function unusable(field: string, message: string, cause?: unknown): CairnError {
  return new CairnError('INPUT_INVALID', message, { context: { field }, ...(cause === undefined ? {} : { cause }) });
}

async function readJson(file: string, flag: string, maxBytes: number): Promise<unknown> {
  let text: string;
  try {
    text = Buffer.from(await readFileBounded(file, maxBytes)).toString('utf8');
  } catch (e) {
    throw unusable(flag, `--${flag}: cannot read ${file}: ${(e as Error).message}`, e);
  }
  try {
    return parseJsonLossless(text);
  } catch (e) {
    throw unusable(flag, `--${flag}: ${file} is not JSON: ${(e as Error).message}`, e);
  }
}

/**
 * The input as one bundle (kinds/validity-proof.ts) carrying the flags' key sets and cross-check
 * files: the verifier hands each answer in it the same key sets and files.
 *
 * @example
 * const input = await validityBundle(bytes, validityFlags(values), DEFAULT_MAX_BYTES);
 */
export async function validityBundle(bytes: Uint8Array, flags: ValidityFlags, maxBytes: number): Promise<Record<string, unknown>> {
  const keySets: Array<string | PackedKeySet> = [];
  for (const file of flags.vk) {
    const json = await readJson(file, 'vk', maxBytes);
    try {
      // a bare key (Light's layout or snarkjs's verification_key.json) is named by its file: v1_inclusion_26_1.json
      keySets.push(keySetFromJson(json, `vk:${basename(file)}`, basename(file).replace(/\.json$/i, '')).packed);
    } catch (e) {
      throw unusable('vk', `--vk ${file}: ${(e as Error).message}`, e);
    }
  }
  for (const name of flags.keySets) {
    if (!keySetByName(name)) throw unusable('key-set', `--key-set: unknown key set "${name}"; expected one of ${keySetNames().join(', ')}`);
    keySets.push(name);
  }
  let parsed: unknown;
  try {
    parsed = parseJsonLossless(Buffer.from(bytes).toString('utf8'));
  } catch (e) {
    throw unusable('file', `the input is not JSON: ${(e as Error).message}`, e);
  }
  const bundle: Record<string, unknown> = { getValidityProof: parsed };
  if (keySets.length > 0) bundle.keySets = keySets;
  if (flags.accounts !== undefined) bundle.accounts = await readJson(flags.accounts, 'accounts', maxBytes);
  if (flags.addresses !== undefined) bundle.addressProofs = await readJson(flags.addresses, 'addresses', maxBytes);
  return bundle;
}

/** A validity verdict's details for an output line: `[status] circuit, key set …`. */
export function validityDetails(v: Verdict): string {
  const x = v as Verdict & { circuit?: string; keySet?: string };
  const parts = [x.circuit, x.keySet === undefined ? undefined : `key set ${x.keySet}`].filter((p) => p !== undefined);
  return parts.length ? ` ${parts.join(', ')}` : '';
}
