/**
 * Proving keys on disk. A key is made on first use (seconds to a minute, by size) and kept in the
 * cache directory — `$CAIRN_CACHE_DIR`, else `$XDG_CACHE_HOME/cairn`, else `~/.cache/cairn` — one
 * file per key set and key name. A file starts with a header line (JSON: format, key-set version,
 * the R1CS hash, a fingerprint of mcl's memory layout, the body's length and SHA-256) and then the
 * body (proving-key.ts). A file whose header or checksum does not match is rebuilt, never used, and
 * files are written to a temporary name and renamed, so a reader never sees half of one even when
 * two processes build the same key at once.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setup } from './groth16-setup.js';
import { G1_SIZE, loadHeap } from './mcl-heap.js';
import { G1_GENERATOR, g1Into } from './points.js';
import { decodeProvingKey, encodeProvingKey, r1csHash, type ProvingKey } from './proving-key.js';
import type { R1cs } from './r1cs.js';

export { defaultCacheDir } from './key-cache-dir.js';

/** Bumped when the body's layout changes. */
export const KEY_FILE_FORMAT = 1;
const MAGIC = 'cairn-proving-key';

interface Header {
  magic: string;
  format: number;
  keySet: string;
  name: string;
  r1csHash: string;
  layout: string;
  bodyLength: number;
  bodySha256: string;
}

/** The file a key lives in. */
export function keyFile(dir: string, keySet: string, name: string): string {
  const safe = (s: string) => s.replace(/[^A-Za-z0-9_.-]/g, '_');
  return join(dir, `${safe(keySet)}.${safe(name)}.pk`);
}

let layoutFp: Promise<string> | undefined;

/** SHA-256 of the G1 generator in mcl's heap layout: changes if a new mcl stores points otherwise. */
function layoutFingerprint(): Promise<string> {
  layoutFp ??= loadHeap().then((h) => {
    const p = h.alloc(G1_SIZE);
    try {
      g1Into(h, G1_GENERATOR, p);
      return createHash('sha256').update(h.copyOut(p, G1_SIZE)).digest('hex');
    } finally {
      h.free(p);
    }
  });
  return layoutFp;
}

const sha256 = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

/** What `loadOrCreateKey` did, for logs and tests. */
export type KeySource = 'cache' | 'built' | 'rebuilt';

export interface KeyCacheOptions {
  dir: string;
  /** Key-set version recorded in the header (e.g. `cairn-devnet@1`). */
  keySet: string;
  seed: Uint8Array;
}

/**
 * The proving key of `r1cs` from the cache, or made by `setup(r1cs, seed)` and stored.
 *
 * @example
 * const { pk, source } = await loadOrCreateKey(r1cs, { dir: defaultCacheDir(), keySet: 'cairn-devnet@1', seed });
 */
export async function loadOrCreateKey(r1cs: R1cs, opts: KeyCacheOptions): Promise<{ pk: ProvingKey; source: KeySource }> {
  const file = keyFile(opts.dir, opts.keySet, r1cs.name);
  const want = { keySet: opts.keySet, name: r1cs.name, r1csHash: r1csHash(r1cs), layout: await layoutFingerprint() };
  let existed = false;
  try {
    const bytes = new Uint8Array(await readFile(file));
    existed = true;
    const pk = readKeyFile(bytes, want);
    if (pk) return { pk, source: 'cache' };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') existed = true;
  }
  const { pk } = await setup(r1cs, opts.seed);
  await writeKeyFile(file, pk, want);
  return { pk, source: existed ? 'rebuilt' : 'built' };
}

function readKeyFile(bytes: Uint8Array, want: Omit<Header, 'magic' | 'format' | 'bodyLength' | 'bodySha256'>): ProvingKey | undefined {
  const nl = bytes.indexOf(10);
  if (nl < 0 || nl > 4096) return undefined;
  let head: Header;
  try {
    head = JSON.parse(Buffer.from(bytes.subarray(0, nl)).toString('utf8')) as Header;
  } catch {
    return undefined;
  }
  const body = bytes.subarray(nl + 1);
  const ok =
    head.magic === MAGIC &&
    head.format === KEY_FILE_FORMAT &&
    head.keySet === want.keySet &&
    head.name === want.name &&
    head.r1csHash === want.r1csHash &&
    head.layout === want.layout &&
    head.bodyLength === body.length &&
    head.bodySha256 === sha256(body);
  if (!ok) return undefined;
  try {
    const pk = decodeProvingKey(body);
    return pk.r1csHash === want.r1csHash && pk.name === want.name ? pk : undefined;
  } catch {
    return undefined;
  }
}

async function writeKeyFile(file: string, pk: ProvingKey, want: Omit<Header, 'magic' | 'format' | 'bodyLength' | 'bodySha256'>): Promise<void> {
  const body = encodeProvingKey(pk);
  const head: Header = { magic: MAGIC, format: KEY_FILE_FORMAT, ...want, bodyLength: body.length, bodySha256: sha256(body) };
  const dir = join(file, '..');
  const tmp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await mkdir(dir, { recursive: true });
    await writeFile(tmp, Buffer.concat([Buffer.from(`${JSON.stringify(head)}\n`), body]));
    await rename(tmp, file);
  } catch {
    // A cache that cannot be written (read-only home, full disk) costs a rebuild next time, not a failure now.
    await rm(tmp, { force: true }).catch(() => undefined);
  }
}
