/**
 * Proving keys on disk. A key is made on first use (seconds to a minute, by size) and kept in the
 * cache directory — `$CAIRN_CACHE_DIR`, else `$XDG_CACHE_HOME/cairn`, else `~/.cache/cairn` — one
 * file per key set and key name. A file starts with a header line (JSON: format, key-set version,
 * the R1CS hash, a fingerprint of mcl's memory layout, the body's length and SHA-256) and then the
 * body (proving-key.ts). A file whose header or checksum does not match is rebuilt, never used, and
 * files are written to a temporary name and renamed, so a reader never sees half of one. While one
 * process builds a key it holds `<file>.lock`; others wait for its file instead of building too (a
 * lock older than ten minutes is a dead builder's and is taken over).
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setup } from './groth16-setup.js';
import { G1_SIZE, loadHeap } from '../crypto/index.js';
import { G1_GENERATOR, g1Into } from './points.js';
import { decodeProvingKey, encodeProvingKey, r1csHash, type ProvingKey } from './proving-key.js';
import type { R1cs } from './r1cs.js';

export { defaultCacheDir } from './key-cache-dir.js';

/** Bumped when the body's layout changes. */
const KEY_FILE_FORMAT = 1;
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
  const first = await tryRead(file, want);
  if (first.pk) return { pk: first.pk, source: 'cache' };
  // One builder per key at a time, across processes (test files, devnets started side by side): the
  // others wait for its file rather than spend the same seconds of CPU.
  const lock = `${file}.lock`;
  const held = await acquire(lock);
  if (held === 'other') {
    const pk = await waitFor(file, want, lock);
    if (pk) return { pk, source: 'cache' };
  }
  try {
    // A builder that finished between our first read and our lock has left its file: read again
    // under the lock before spending the seconds of a build.
    if (held === 'mine') {
      const again = await tryRead(file, want);
      if (again.pk) return { pk: again.pk, source: 'cache' };
    }
    const { pk } = await setup(r1cs, opts.seed);
    await writeKeyFile(file, pk, want);
    return { pk, source: first.existed ? 'rebuilt' : 'built' };
  } finally {
    if (held === 'mine') await rm(lock, { force: true }).catch(() => undefined);
  }
}

type Want = Omit<Header, 'magic' | 'format' | 'bodyLength' | 'bodySha256'>;

async function tryRead(file: string, want: Want): Promise<{ pk?: ProvingKey; existed: boolean }> {
  try {
    const pk = readKeyFile(new Uint8Array(await readFile(file)), want);
    return pk ? { pk, existed: true } : { existed: true };
  } catch (e) {
    return { existed: (e as NodeJS.ErrnoException).code !== 'ENOENT' };
  }
}

/** A lock older than this was left by a builder that died: taken over. */
const STALE_LOCK_MS = 10 * 60_000;
const POLL_MS = 250;

/** 'mine' (created it), 'other' (a live builder holds it), 'none' (cannot lock here: build anyway). */
async function acquire(lock: string): Promise<'mine' | 'other' | 'none'> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await mkdir(join(lock, '..'), { recursive: true });
      await writeFile(lock, String(process.pid), { flag: 'wx' });
      return 'mine';
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') return 'none';
      const age = await stat(lock).then((s) => Date.now() - s.mtimeMs, () => 0);
      if (age < STALE_LOCK_MS) return 'other';
      await rm(lock, { force: true }).catch(() => undefined);
    }
  }
  return 'none';
}

/** Wait while another builder holds `lock`, then read its file (undefined: it left none usable). */
async function waitFor(file: string, want: Want, lock: string): Promise<ProvingKey | undefined> {
  for (;;) {
    // null: the lock is gone. (A lock written this very millisecond can show an mtime a fraction
    // ahead of Date.now(): a negative age is a live lock, not a missing one.)
    const age = await stat(lock).then((s) => Date.now() - s.mtimeMs, () => null);
    if (age === null || age >= STALE_LOCK_MS) return (await tryRead(file, want)).pk;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

function readKeyFile(bytes: Uint8Array, want: Want): ProvingKey | undefined {
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

async function writeKeyFile(file: string, pk: ProvingKey, want: Want): Promise<void> {
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
