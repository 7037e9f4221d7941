/**
 * The prover's worker thread: proves one job at a time (a proof is seconds of synchronous wasm),
 * so the devnet's event loop stays free. A job names a circuit shape and carries the circuit
 * inputs read from the trees at request time; the worker builds the system and the witness,
 * loads (or makes) the proving key, proves, and answers with the compressed bytes. Keys stay
 * resident in the worker's heap between jobs. Errors travel as `{ code, message, context }`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { CairnError } from '../errors/index.js';
import { circuitFor, witnessFor } from './circuits/index.js';
import { devnetProvingKey } from './devnet-keys.js';
import { loadHeap } from '../crypto/index.js';
import { proveSync, releaseKey } from './groth16-prove.js';
import type { ProverJob, ProverReply } from './prover-worker.js';
import type { ProvingKey } from './proving-key.js';

const keys = new Map<string, Promise<ProvingKey>>();
const cacheDir = (workerData as { cacheDir: string }).cacheDir;
/** Keys kept in memory (a key is 6–46 MB on the JS side and as much again in mcl's heap). */
const MAX_KEYS = 4;

async function run(job: ProverJob): Promise<ProverReply> {
  try {
    const h = await loadHeap();
    const r1cs = circuitFor(job.shape);
    let pk = keys.get(r1cs.name);
    if (pk) keys.delete(r1cs.name); // re-inserted below: the map's order is least recently used first
    else {
      pk = devnetProvingKey(job.shape, cacheDir).then((k) => k.pk);
      pk.catch(() => keys.delete(r1cs.name));
    }
    keys.set(r1cs.name, pk);
    while (keys.size > MAX_KEYS) {
      const [name, old] = keys.entries().next().value!;
      keys.delete(name);
      void old.then((k) => releaseKey(h, k), () => undefined);
    }
    const witness = witnessFor(job.shape, job.inputs);
    const proof = proveSync(h, await pk, r1cs, witness);
    return { id: job.id, proof };
  } catch (e) {
    const err = e instanceof CairnError ? e.toJSON() : { code: 'INTERNAL', message: e instanceof Error ? e.message : String(e), context: {} };
    return { id: job.id, error: err };
  }
}

// One job at a time, in arrival order (the client sends the next only after an answer).
parentPort!.on('message', (job: ProverJob) => {
  void run(job).then((reply) => parentPort!.postMessage(reply));
});
parentPort!.postMessage({ ready: true });
