/**
 * Child process for the bundle crash tests: a journaled sender (a file journal, or a fleet's
 * PostgreSQL table) that sends one bundle or works the table, and prints where it is — `submitting`
 * as a bundle is handed to /fast, `sent <id> <signatures>` once /fast answered, `done <id>` per
 * bundle confirmed. The parent SIGKILLs it at the line it waits for; nothing here is graceful.
 * Environment:
 * - DEVNET_URL, PAYER (secret key hex), TO, AMOUNTS (comma-separated lamports: one transfer each);
 * - JOURNAL (a file path) or PG (a postgres:// URL) with TABLE and LEASE_MS;
 * - ACTION: `send` (sendBundle of the AMOUNTS under ID) or `work` (a fleet worker, CONCURRENCY
 *   intents at once, until the table is drained), starting once the file GO exists when GO is set;
 * - HOLD=1: /fast never receives a bundle (the call hangs): killed after signing, before sending;
 * - BLIND=1: no status is ever read and no websocket is used: sent, and never seen landing.
 */
import { existsSync } from 'node:fs';
import { createClient, type CairnClient } from '../../../src/rpc/client/create-client.js';
import { createSender, signerFromSecretKey, transferInstruction, type FleetSender, type Sender } from '../../../src/sender/index.js';

const env = process.env;
const payer = signerFromSecretKey(new Uint8Array(Buffer.from(env.PAYER!, 'hex')));
const real = createClient({ url: env.DEVNET_URL! });
const never = (signal?: AbortSignal): Promise<never> =>
  new Promise((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason as Error), { once: true }));
const client = new Proxy(real, {
  get(target, prop, recv) {
    if (prop === 'sendBundle') {
      return (wires: Uint8Array[], o?: { signal?: AbortSignal }) => {
        process.stdout.write('submitting\n');
        return env.HOLD === '1' ? never(o?.signal) : target.sendBundle(wires, o);
      };
    }
    if (env.BLIND === '1' && prop === 'subscribe') return undefined;
    if (env.BLIND === '1' && prop === 'getSignatureStatuses') return (_s: unknown, _o: unknown, r?: { signal?: AbortSignal }) => never(r?.signal);
    return Reflect.get(target, prop, recv) as unknown;
  },
}) as CairnClient;

const common = { client, cuPrice: 200_000, cuLimit: 1_000, pollMs: 30, rebroadcastMs: 300, onExpired: 'resign' as const, signers: [payer] };
const legs = (env.AMOUNTS ?? '').split(',').filter(Boolean).map((a) => ({ instructions: [transferInstruction(payer.address, env.TO!, BigInt(a))], payer }));

const sender: Sender = env.PG
  ? createSender({ ...common, journal: { postgres: env.PG, table: env.TABLE!, leaseMs: Number(env.LEASE_MS ?? 1_000), poolSize: 2 } })
  : createSender({ ...common, journal: env.JOURNAL! });
sender.on('sent', (e) => process.stdout.write(`sent ${e.id} ${(e.signatures ?? [e.signature]).join(',')}\n`));
sender.on('confirmed', (e) => process.stdout.write(`done ${e.id}\n`));
process.stdout.write('start\n');
// Workers that must share the table start together: each waits for GO (a file) once it is ready.
if (env.GO) while (!existsSync(env.GO)) await new Promise((r) => setTimeout(r, 10));
if (env.ACTION === 'work') await (sender as FleetSender).work({ drain: true, idleMs: 50, concurrency: Number(env.CONCURRENCY ?? 2) });
else await sender.sendBundle(legs, { id: env.ID! });
await sender.close();
await real.close();
process.stdout.write('finished\n');
