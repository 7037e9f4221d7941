/**
 * Helper process for bench/sender.ts: a devnet on its own event loop (so the sender under test does
 * not share one with the server), with the payers from FUNDED (comma-separated base58) funded at
 * genesis. Prints `url <URL>` once listening; stops on SIGTERM or when stdin closes.
 */
import { startDevnet } from '../../src/devnet/index.js';

const funded = (process.env.FUNDED ?? '').split(',').filter(Boolean);
const devnet = await startDevnet({
  port: 0,
  slotMs: Number(process.env.SLOT_MS ?? 100),
  seed: 3,
  wsPortPlusOne: true,
  fundedAccounts: funded.map((address) => ({ address, lamports: 10n ** 15n })),
});
await devnet.ready();
process.stdout.write(`url ${devnet.url} ${devnet.wsUrl}\n`);
const stop = async () => {
  await devnet.stop();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.stdin.on('close', () => void stop());
process.stdin.resume();
