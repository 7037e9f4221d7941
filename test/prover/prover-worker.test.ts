/**
 * The prover thread's queue: jobs run one at a time in order; an aborted queued job is dropped and
 * its promise rejects with the signal's reason; an InputError from the witness crosses the thread
 * with its code; close() rejects what is pending and ends the thread (the process exits on its own).
 */
import { describe, expect, it } from 'vitest';
import { defaultCacheDir } from '../../src/prover/key-cache-dir.js';
import { createProverWorker } from '../../src/prover/prover-worker.js';
import { initGroth16, verifyGroth16 } from '../../src/merkle/groth16/verify.js';
import { unpackKeySet } from '../../src/merkle/groth16/keys/key-set.js';
import { CAIRN_DEVNET_1 } from '../../src/merkle/groth16/keys/cairn-devnet-1.js';
import type { CircuitShape } from '../../src/prover/circuits/index.js';
import { buildFixture, cloneInputs } from './circuits-fixture.js';

const shape: CircuitShape = { kind: 'inclusion', height: 26, accounts: 1, addresses: 0 };

describe('prover thread', () => {
  it('proves in order, drops an aborted job, carries InputError codes, and close() settles the rest', async () => {
    await initGroth16();
    const prover = createProverWorker({ cacheDir: defaultCacheDir(), slot: () => 0 });
    const { inputs } = buildFixture(shape);
    const bad = cloneInputs(inputs);
    bad.inclusion[0]!.leaf ^= 1n;
    const ac = new AbortController();
    const first = prover.prove(shape, inputs);
    const dropped = prover.prove(shape, inputs, { signal: ac.signal });
    const refused = prover.prove(shape, bad);
    const pending = prover.prove(shape, inputs);
    expect(prover.pending).toBe(4);
    ac.abort(new Error('not needed'));
    await expect(dropped).rejects.toThrow('not needed');
    const proof = await first;
    const vk = unpackKeySet(CAIRN_DEVNET_1).get('v1_inclusion_26_1')!;
    expect(verifyGroth16(proof, [inputs.inclusion[0]!.root, inputs.inclusion[0]!.leaf], vk)).toBe(true);
    await expect(refused).rejects.toMatchObject({ code: 'INPUT_INVALID' });
    const closing = prover.close();
    await expect(pending).rejects.toMatchObject({ code: 'DEVNET_STOPPED' });
    await closing;
    await expect(prover.prove(shape, inputs)).rejects.toMatchObject({ code: 'DEVNET_STOPPED' });
  }, 120_000);
});
