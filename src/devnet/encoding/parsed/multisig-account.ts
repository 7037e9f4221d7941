/** SPL Token multisig accounts (355 bytes) as Agave's parse_token.rs writes them. */
import { BytesReader } from './bytes-reader.js';

const MULTISIG_LEN = 355;

export function parseMultisig(data: Uint8Array): Record<string, unknown> | null {
  if (data.length !== MULTISIG_LEN) return null;
  const r = new BytesReader(data);
  const numRequiredSigners = r.u8(), numValidSigners = r.u8(), isInitialized = r.bool();
  if (!isInitialized) return null;
  const signers: string[] = [];
  for (let i = 0; i < 11; i++) {
    const k = r.pubkey();
    if (i < numValidSigners) signers.push(k);
  }
  return { type: 'multisig', info: { numRequiredSigners, numValidSigners, isInitialized, signers } };
}
