/**
 * The devnet's own keys (the faucet, the authority that mints and runs trees): keypairs from a
 * 32-byte seed, made by the solana layer's signer so they sign exactly as the sender signs.
 */
import { InputError } from '../../errors/index.js';
import { signerFromSecretKey } from '../../solana/index.js';

export interface DevnetKeypair {
  address: string;
  publicKey: Uint8Array;
  /** 64 bytes: seed ‖ public key (the Solana CLI layout). */
  secretKey: Uint8Array;
  sign(message: Uint8Array): Uint8Array;
}

/** A keypair from a 32-byte seed, made by the solana layer's signer (the sender's). */
export function keypairFromSeed(seed: Uint8Array): DevnetKeypair {
  if (seed.length !== 32) throw new InputError('seed', `expected 32 bytes, got ${seed.length}`);
  const signer = signerFromSecretKey(seed, 'seed');
  return {
    address: signer.address,
    publicKey: signer.publicKey,
    secretKey: signer.secretKey(),
    // A plain Uint8Array, as before (node:crypto answers a Buffer).
    sign: (m) => new Uint8Array(signer.sign(m)),
  };
}
