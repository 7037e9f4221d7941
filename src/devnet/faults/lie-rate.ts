/**
 * The `lieRate` fault at work: the proof-bearing methods of the DAS and compression modules are
 * wrapped so that each proof item they answer is, with probability `lieRate`, replaced by a
 * self-consistent fabrication (lies.ts) — a made-up leaf and path and their root on the real tree, or
 * for a validity proof made-up roots with a real proof over them. The devnet's trees on chain are
 * untouched, so an anchored verifier (or `cairn proxy`) tells every lie; an unanchored one passes it.
 */
import { fabricateAccountProof, fabricateAddressProof, fabricateAssetProof, fabricateValidityProof } from './lies.js';
import type { CompressionStore } from '../compression/store.js';
import type { Faults } from './endpoints.js';
import type { ProverWorker } from '../../prover/index.js';
import type { RpcHandler } from '../types.js';

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/** How each method's answer holds its proof items. */
const ITEMS: Record<string, { at: 'result' | 'value' | 'value[]' | 'keyed'; fab: 'asset' | 'account' | 'address' | 'validity' }> = {
  getAssetProof: { at: 'result', fab: 'asset' },
  getAssetProofBatch: { at: 'keyed', fab: 'asset' },
  getCompressedAccountProof: { at: 'value', fab: 'account' },
  getCompressedAccountProofV2: { at: 'value', fab: 'account' },
  getMultipleCompressedAccountProofs: { at: 'value[]', fab: 'account' },
  getMultipleCompressedAccountProofsV2: { at: 'value[]', fab: 'account' },
  getMultipleNewAddressProofs: { at: 'value[]', fab: 'address' },
  getMultipleNewAddressProofsV2: { at: 'value[]', fab: 'address' },
  getValidityProof: { at: 'value', fab: 'validity' },
  getValidityProofV2: { at: 'value', fab: 'validity' },
};

/**
 * Wrap the proof methods in `methods` (in place) so they lie at the fault's rate.
 *
 * @example
 * installLies(das.methods, faults, null);
 * installLies(compression.methods, faults, compression.store, prover);
 */
export function installLies(methods: Record<string, RpcHandler>, faults: Faults, store: CompressionStore | null, prover?: ProverWorker): void {
  for (const [name, how] of Object.entries(ITEMS)) {
    const real = methods[name];
    if (!real) continue;
    methods[name] = async (params, ctx) => {
      const answer = await real(params, ctx);
      const one = async (item: unknown): Promise<unknown> => {
        if (!isObj(item) || !faults.lie()) return item;
        const draw = faults.lieBytes;
        if (how.fab === 'asset') return fabricateAssetProof(item, draw);
        if (how.fab === 'account') return item.proveByIndex === true ? item : fabricateAccountProof(item, draw);
        if (how.fab === 'address') return fabricateAddressProof(item, draw);
        if (!store) return item;
        if (prover) return fabricateValidityProof(item, store, prover, draw, ctx.signal);
        // Stand-in proofs never verify anyway: the lie is in the roots alone.
        const lie = await fabricateValidityProofRoots(item, store, draw);
        return lie;
      };
      if (how.at === 'result') return one(answer);
      if (!isObj(answer)) return answer;
      if (how.at === 'keyed') {
        const out: Json = {};
        for (const [k, v] of Object.entries(answer)) out[k] = await one(v);
        return out;
      }
      if (how.at === 'value') return { ...answer, value: await one(answer.value) };
      if (Array.isArray(answer.value)) {
        const items: unknown[] = [];
        for (const v of answer.value) items.push(await one(v));
        return { ...answer, value: items };
      }
      return answer;
    };
  }
}

/** A validity answer's roots made up (no prover: the devnet answers stand-in proof bytes). */
async function fabricateValidityProofRoots(item: Json, store: CompressionStore, draw: () => number): Promise<Json> {
  const noProver: ProverWorker = {
    prove: async () => ({ a: new Uint8Array(32), b: new Uint8Array(64), c: new Uint8Array(32) }),
  } as unknown as ProverWorker;
  const out = await fabricateValidityProof(item, store, noProver, draw);
  return { ...out, compressedProof: item.compressedProof };
}
