/**
 * Shared set-up for the sender's devnet tests: a devnet, a funded payer, the real client, and a
 * thin recording wrapper around that client (it forwards every call and notes method, arguments
 * and result, so a test can check the ORDER of what the tracker asked — not a mock).
 */
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { createClient, type CairnClient } from '../../src/rpc/client/create-client.js';
import { generateSigner, type Signer } from '../../src/sender/index.js';
import type { SenderRpc } from '../../src/sender/client/rpc.js';
import { parseTransaction } from '../../src/solana/index.js';

export interface Env {
  devnet: Devnet;
  client: CairnClient;
  payer: Signer & { secretKey(): Uint8Array };
  stop(): Promise<void>;
}

export async function setup(slotMs = 50, seed = 7): Promise<Env> {
  const devnet = await startDevnet({ port: 0, slotMs, seed, wsPortPlusOne: false });
  const payer = generateSigner();
  await devnet.control.airdrop(payer.address, 1_000n * 10n ** 9n);
  const client = createClient({ url: devnet.url });
  return {
    devnet,
    client,
    payer,
    async stop() {
      await client.close();
      await devnet.stop();
    },
  };
}

export interface Call {
  at: number;
  method: string;
  args: unknown[];
  result?: unknown;
}

export function recording(rpc: SenderRpc): { rpc: SenderRpc; calls: Call[] } {
  const calls: Call[] = [];
  const wrapped = new Proxy(rpc, {
    get(target, prop, recv) {
      const v = Reflect.get(target, prop, recv) as unknown;
      if (typeof v !== 'function' || prop === 'close') return v;
      return async (...args: unknown[]) => {
        const c: Call = { at: performance.now(), method: String(prop), args };
        calls.push(c);
        const r = await (v as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        c.result = r;
        return r;
      };
    },
  });
  return { rpc: wrapped, calls };
}

/** Lamports of the first System transfer of executed wire bytes that goes to `to` (or undefined). */
export function transferTo(wire: Uint8Array, to: Uint8Array): bigint | undefined {
  const { parts } = parseTransaction(wire);
  for (const ix of parts.instructions) {
    const program = parts.staticKeys[ix.programIdIndex];
    if (!program.every((b) => b === 0) || ix.data.length !== 12 || ix.data[0] !== 2) continue;
    const dest = parts.staticKeys[ix.accounts[1]];
    if (dest && Buffer.compare(dest, to) === 0) return new DataView(ix.data.buffer, ix.data.byteOffset, 12).getBigUint64(4, true);
  }
  return undefined;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
