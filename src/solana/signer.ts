/**
 * Ed25519 signers on `node:crypto`. A signer holds a `KeyObject` built once from the 32-byte seed, so
 * signing a message is one native call (~0.05 ms) instead of the pure-JS ed25519 that web3.js runs
 * (and then re-verifies). Accepts the usual Solana secret key (64 bytes: seed ‖ public key), a bare
 * 32-byte seed, or anything shaped like a web3.js `Keypair`.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, sign as edSign, verify as edVerify, type KeyObject } from 'node:crypto';
import { InputError } from '../errors/index.js';
import { encodeAddress } from './address.js';
import type { Address } from './kit-brands.js';

/** Something that can sign a Solana message. */
export interface Signer {
  /** 32-byte public key. */
  readonly publicKey: Uint8Array;
  /** Base58 address of the public key. */
  readonly address: string;
  /** 64-byte ed25519 signature of `message`. */
  sign(message: Uint8Array): Uint8Array;
}

/** Anything cairn accepts where a signer is expected. */
export type SignerInput = Signer | Uint8Array | { secretKey: Uint8Array };

// PKCS#8 wrapper for a raw ed25519 seed (RFC 8410): SEQUENCE { 0, { 1.3.101.112 }, OCTET STRING { OCTET STRING seed } }.
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
// SPKI wrapper for a raw ed25519 public key.
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/**
 * A signer cairn made from a key: its `address` is typed as an `Address` kit's calls take without a
 * cast (kit-brands.ts says why that needs no kit import), and its secret key can be written out.
 */
export interface KeySigner extends Signer {
  readonly address: Address;
  /** The 64-byte Solana secret key (seed ‖ public key), for writing keypair files. */
  secretKey(): Uint8Array;
}

class NodeSigner implements KeySigner {
  readonly publicKey: Uint8Array;
  readonly address: Address;
  readonly #key: KeyObject;
  constructor(key: KeyObject, publicKey: Uint8Array) {
    this.#key = key;
    this.publicKey = publicKey;
    this.address = encodeAddress(publicKey) as Address;
  }
  sign(message: Uint8Array): Uint8Array {
    return edSign(null, message, this.#key);
  }
  /** The 64-byte Solana secret key (seed ‖ public key), for writing keypair files. */
  secretKey(): Uint8Array {
    const jwk = this.#key.export({ format: 'jwk' }) as { d: string };
    const out = new Uint8Array(64);
    out.set(Buffer.from(jwk.d, 'base64url'), 0);
    out.set(this.publicKey, 32);
    return out;
  }
}

function publicKeyOf(key: KeyObject): Uint8Array {
  const der = createPublicKey(key).export({ format: 'der', type: 'spki' });
  return new Uint8Array(der.subarray(der.length - 32));
}

/**
 * A signer from a 64-byte Solana secret key or a 32-byte seed.
 *
 * @example
 * const payer = signerFromSecretKey(Uint8Array.from(JSON.parse(readFileSync('id.json', 'utf8'))));
 * payer.address; // base58
 */
export function signerFromSecretKey(secretKey: Uint8Array, field = 'secretKey'): KeySigner {
  if (!(secretKey instanceof Uint8Array)) {
    throw new InputError(field, 'expected a Uint8Array of 64 (secret key) or 32 (seed) bytes', { got: typeof secretKey });
  }
  if (secretKey.length !== 64 && secretKey.length !== 32) {
    throw new InputError(field, `expected 64 or 32 bytes, got ${secretKey.length}`, { expected: '64 or 32 bytes', got: secretKey.length });
  }
  const seed = secretKey.subarray(0, 32);
  const key = createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
  const pub = publicKeyOf(key);
  if (secretKey.length === 64 && !Buffer.from(pub).equals(Buffer.from(secretKey.subarray(32)))) {
    throw new InputError(field, 'the last 32 bytes are not the public key of the first 32 (corrupt keypair?)');
  }
  return new NodeSigner(key, pub);
}

/** A fresh random signer. */
export function generateSigner(): KeySigner {
  const { privateKey } = generateKeyPairSync('ed25519');
  return new NodeSigner(privateKey, publicKeyOf(privateKey));
}

/** Normalise a `SignerInput` (cairn signer, secret-key bytes, or a web3.js `Keypair`). */
export function toSigner(input: SignerInput, field = 'signer'): Signer {
  if (input instanceof Uint8Array) return signerFromSecretKey(input, field);
  if (input && typeof input === 'object') {
    if ('sign' in input && typeof input.sign === 'function' && input.publicKey instanceof Uint8Array && typeof (input as Signer).address === 'string') {
      return input as Signer;
    }
    if ('secretKey' in input && input.secretKey instanceof Uint8Array) return signerFromSecretKey(input.secretKey, `${field}.secretKey`);
  }
  throw new InputError(field, 'expected a Signer, a 64-byte secret key, or a Keypair-like { secretKey }');
}

/** Verify an ed25519 signature of `message` by `publicKey` (32 bytes). */
export function verifySignature(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  const key = createPublicKey({ key: Buffer.concat([SPKI_PREFIX, publicKey]), format: 'der', type: 'spki' });
  return edVerify(null, message, key, signature);
}
