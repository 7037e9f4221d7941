/** Shared test data: valid-looking base58 ids and the public DAS/photon vectors under test/vectors. */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** A distinct 44-character base58 string per `i` (shape of an address or hash). */
export function addr(i: number): string {
  let s = '';
  let n = i + 1;
  while (s.length < 44) {
    s += ALPHABET[n % 58];
    n = Math.floor(n / 58) + (s.length * 7) % 13;
  }
  return s;
}

/** A distinct 88-character base58 string per `i` (shape of a signature). */
export function sig(i: number): string {
  return (addr(i) + addr(i + 1_000_000)).slice(0, 88);
}

const VECTORS = join(import.meta.dirname, '..', 'vectors');

export function readVector(...parts: string[]): any {
  return JSON.parse(readFileSync(join(VECTORS, ...parts), 'utf8'));
}

/** Every getAsset result among the public vectors (DAS indexer snapshots + bubblegum tests). */
export function dasAssets(): { name: string; asset: any }[] {
  const out: { name: string; asset: any }[] = [];
  for (const f of readdirSync(join(VECTORS, 'das')).filter((x) => x.endsWith('.json')).sort()) {
    const v = readVector('das', f);
    // one snapshot is a whole page (getAssetsByOwner): take its items
    if (Array.isArray(v.items)) v.items.forEach((a: any, i: number) => out.push({ name: `das/${f}#${i}`, asset: a }));
    else out.push({ name: `das/${f}`, asset: v });
  }
  for (const f of readdirSync(join(VECTORS, 'bubblegum')).filter((x) => x.startsWith('mpl_bubblegum_dasApi'))) {
    out.push({ name: `bubblegum/${f}`, asset: readVector('bubblegum', f).getAsset });
  }
  return out;
}

/** The paged DAS snapshot (a real getAssetsBy* result). */
export function dasPage(): any {
  return readVector('das', 'cnft_tests__cnft_owners_table-with_different_owner.json');
}

export function photonFiles(suffix: string): { name: string; body: any }[] {
  return readdirSync(join(VECTORS, 'photon'))
    .filter((f) => f.endsWith(suffix))
    .sort()
    .map((f) => ({ name: f, body: readVector('photon', f) }));
}

export const API_KEY = 'k3y-SECRET-9f8e7d6c5b4a';
