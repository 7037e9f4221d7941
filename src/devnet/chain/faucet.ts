/**
 * The faucet: airdrops are real System transfers from the devnet's funded faucet key, compiled and
 * signed by the same code as the sender's transfers, so they execute, cost a fee and show in the
 * ledger like any other transaction. `airdropAndWait` is what `control.airdrop` offers bots.
 */
import { CairnError, InputError } from '../../errors/index.js';
import { transferInstruction, compileMessage, signMessageParts } from '../../solana/index.js';
import { decodeAddress } from './decode-address.js';
import type { DevnetChain } from './contract.js';
import type { DevnetKeypair } from './keypair.js';

/** What the faucet holds at genesis, and what the authority holds. */
export const FAUCET_LAMPORTS = 10n ** 18n;
export const AUTHORITY_LAMPORTS = 10n ** 15n;

/** The signed airdrop of `lamports` to `address` from `faucet`, on `blockhash`. */
export function airdropWire(faucet: DevnetKeypair, address: string, lamports: bigint, blockhash: Uint8Array): Uint8Array {
  if (typeof lamports !== 'bigint' || lamports <= 0n) throw new InputError('lamports', `expected a bigint > 0, got ${String(lamports)}`);
  const to = decodeAddress(address, 'address');
  const parts = compileMessage({ payer: faucet.publicKey, instructions: [transferInstruction(faucet.publicKey, to, lamports)], recentBlockhash: blockhash });
  return signMessageParts(parts, [faucet]).wire;
}

/** Airdrop through the chain and resolve once the transfer has executed; rejects if it is dropped. */
export async function airdropAndWait(chain: DevnetChain, address: string, lamports: bigint, signal?: AbortSignal): Promise<string> {
  const signature = chain.airdrop(address, lamports);
  let dropped: string | null = null;
  const off = chain.onDropped((d) => {
    if (d.signature === signature) dropped = d.reason;
  });
  try {
    while (!chain.status(signature)) {
      if (dropped) throw new CairnError('DEVNET_AIRDROP_FAILED', `airdrop ${signature} did not land: ${dropped}`, { context: { signature } });
      await chain.waitForSlot(chain.slot() + 1, signal);
    }
  } finally {
    off();
  }
  return signature;
}
