/** `emptyNode` against the concurrent-merkle-tree empty-node table (moved here from asset.test.ts with the function). */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import bs58 from 'bs58';
import { emptyNode } from '../../src/merkle/cnft/empty-node.js';

const emptyTable: string[] = JSON.parse(readFileSync(new URL('../vectors/light_hash_vectors.json', import.meta.url), 'utf8')).keccak_cmt_empty_nodes_0_to_31_base58;

describe('emptyNode', () => {
  it('matches the concurrent-merkle-tree empty-node table', () => {
    emptyTable.forEach((want, level) => expect(bs58.encode(emptyNode(level))).toBe(want));
  });
});
