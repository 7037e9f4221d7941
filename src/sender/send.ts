/**
 * `createSender(config)`: the entry point. It checks the config and hands it to the kind of sender
 * its journal calls for — both built on one core (core.ts): the single-process sender (single.ts) on
 * the file journal or none, or, with a PostgreSQL journal, the fleet sender (fleet/sender.ts), one of
 * a fleet of processes sharing the journal's intents, which adds `enqueue` / `work` / `status` /
 * `outcomes`.
 */
import { InputError } from '../errors/index.js';
import { resolveSenderConfig } from './config.js';
import type { Sender, SenderConfig } from './core.js';
import { createFleetSender, type FleetSender, type FleetSenderConfig } from './fleet/sender.js';
import { createSingleSender } from './single.js';

/**
 * Create a sender.
 *
 * @example
 * const client = createClient({ url: 'http://127.0.0.1:8899' });
 * const sender = createSender({ client, cuPrice: 200_000, cuLimit: 1_000, journal: 'sends.jsonl' });
 * const out = await sender.send({ instructions: [transferInstruction(payer.address, to, 5000n)], payer });
 * console.log(out.signature, out.slot);
 * await sender.close();
 */
export function createSender(config: FleetSenderConfig): FleetSender;
export function createSender(config: SenderConfig): Sender;
export function createSender(config: SenderConfig): Sender | FleetSender {
  if (!config || typeof config !== 'object') throw new InputError('config', 'expected an object');
  // Validate everything first: nothing (no client, no ping) is started for a sender that fails here.
  const cfg = resolveSenderConfig(config);
  return cfg.postgres ? createFleetSender(config, cfg) : createSingleSender(config, cfg);
}
