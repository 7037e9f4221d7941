/**
 * The one place the types users already have become cairn's: an address from base58 text, a web3.js
 * `PublicKey` or a kit `Address`; a signer from cairn's, a 64-byte secret key, a web3.js `Keypair` or
 * a kit `KeyPairSigner`/`TransactionSigner`. Everything is detected by shape, never by `instanceof`:
 * `cairn` must not load web3.js or kit to recognise their objects (they are not its dependencies, and a
 * second copy of either in node_modules would fail an `instanceof`).
 */
import type { webcrypto } from 'node:crypto';
import { InputError } from '../errors/index.js';
import { encodeAddress } from './address.js';
import { decodeBase58 } from './base58.js';
import { bytesEqual } from './bytes-equal.js';
import { signMessageParts } from './sign-message.js';
import { signerFromSecretKey, type Signer } from './signer.js';
import type { MessageParts } from './wire-types.js';

/** A web3.js `PublicKey`, or anything with its two accessors. */
export interface PublicKeyLike {
  toBase58(): string;
  toBytes(): Uint8Array;
}

/** An address as every cairn entry point takes it: base58 text (a kit `Address` is one) or a `PublicKey`. */
export type AddressInput = string | PublicKeyLike;

/**
 * A kit transaction signer as cairn recognises it (`@solana/signers`' TransactionPartialSigner,
 * MessagePartialSigner or KeyPairSigner). The methods are typed loosely on purpose: kit brands its
 * byte arrays, so a precise type here would refuse kit's own signers; the calls are in kitSigner().
 */
export interface KitSignerLike {
  readonly address: string;
  readonly signTransactions?: (transactions: never, config?: never) => Promise<unknown>;
  readonly signMessages?: (messages: never, config?: never) => Promise<unknown>;
  /** A kit `KeyPairSigner`'s keys: the private one is usually non-extractable, but WebCrypto can sign with it. */
  readonly keyPair?: { privateKey: unknown };
}

type SignDicts = (items: readonly object[], config?: { abortSignal?: AbortSignal }) => Promise<readonly (Readonly<Record<string, unknown>> | undefined)[]>;

/** A web3.js `Keypair`: a `PublicKey` and the 64-byte secret key. */
export interface KeypairLike {
  publicKey: PublicKeyLike | Uint8Array;
  secretKey: Uint8Array;
}

/** Anything cairn accepts where a signer is expected. */
export type SignerLike = Signer | Uint8Array | KeypairLike | { secretKey: Uint8Array } | KitSignerLike;

/**
 * A signer that can only sign asynchronously (a kit signer). Its `sign` throws: the builder checks
 * `isAsyncSigner` and awaits `signAsync` instead.
 */
export interface AsyncSigner extends Signer {
  readonly async: true;
  signAsync(message: Uint8Array, signal?: AbortSignal): Promise<Uint8Array>;
}

export function isAsyncSigner(s: Signer): s is AsyncSigner {
  return (s as Partial<AsyncSigner>).async === true && typeof (s as Partial<AsyncSigner>).signAsync === 'function';
}

/** True for a web3.js `PublicKey` (or a look-alike): both accessors are functions. */
export function isPublicKeyLike(v: unknown): v is PublicKeyLike {
  return (
    v !== null &&
    typeof v === 'object' &&
    typeof (v as { toBase58?: unknown }).toBase58 === 'function' &&
    typeof (v as { toBytes?: unknown }).toBytes === 'function'
  );
}

function kind(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return `an array of ${v.length}`;
  if (typeof v === 'string') return JSON.stringify(v.length > 60 ? `${v.slice(0, 60)}…` : v);
  if (v instanceof Uint8Array) return `${v.length} bytes`;
  if (typeof v === 'object') return `an object with keys ${Object.keys(v).slice(0, 6).join(', ') || '(none)'}`;
  return `${typeof v} ${String(v)}`;
}

const BASE58_ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

/**
 * Base58 text of an address given as text (a kit `Address` is branded text) or a `PublicKey`. The text
 * must decode to 32 bytes; anything else is an `InputError` naming `field` and saying what came.
 */
export function toAddress(value: unknown, field: string): string {
  if (typeof value === 'string') {
    if (BASE58_ADDRESS.test(value)) {
      try {
        decodeBase58(value, 32, field);
        return value;
      } catch {
        // falls through to the one message below: it says what is accepted
      }
    }
  } else if (isPublicKeyLike(value)) {
    const bytes = value.toBytes();
    if (bytes instanceof Uint8Array && bytes.length === 32) return encodeAddress(bytes);
  }
  throw new InputError(field, `expected a base58 address (a string, a kit Address or a web3.js PublicKey), got ${kind(value)}`, {
    expected: 'base58 address | PublicKey | kit Address',
    got: kind(value),
  });
}

function isCairnSigner(v: object): v is Signer {
  const s = v as Partial<Signer>;
  return typeof s.sign === 'function' && s.publicKey instanceof Uint8Array && typeof s.address === 'string';
}

function isKitSigner(v: object): v is KitSignerLike {
  const s = v as Partial<KitSignerLike>;
  return typeof s.address === 'string' && (typeof s.signTransactions === 'function' || typeof s.signMessages === 'function' || s.keyPair !== undefined);
}

/**
 * A cairn `Signer` from any accepted form. A kit signer becomes an `AsyncSigner`: kit signs through
 * promises (WebCrypto), and its private key is usually non-extractable, so it cannot sign in line.
 */
export function signerFromInput(value: unknown, field: string): Signer {
  if (value instanceof Uint8Array) return signerFromSecretKey(value, field);
  if (value !== null && typeof value === 'object') {
    if (isCairnSigner(value)) return value;
    const secret = (value as { secretKey?: unknown }).secretKey;
    if (secret instanceof Uint8Array) {
      const s = signerFromSecretKey(secret, `${field}.secretKey`);
      const pk = (value as { publicKey?: unknown }).publicKey;
      // A Keypair whose publicKey disagrees with its secret key is corrupt: refuse rather than sign as someone else.
      if (pk !== undefined && (isPublicKeyLike(pk) || pk instanceof Uint8Array)) {
        const text = pk instanceof Uint8Array ? (pk.length === 32 ? encodeAddress(pk) : '') : toAddress(pk, `${field}.publicKey`);
        if (text !== s.address) throw new InputError(`${field}.publicKey`, `does not match the secret key (${s.address})`);
      }
      return s;
    }
    if (isKitSigner(value)) return kitSigner(value, field);
  }
  throw new InputError(
    field,
    `expected a signer: a cairn Signer, a 64-byte secret key, a web3.js Keypair or a kit KeyPairSigner/TransactionSigner, got ${kind(value)}`,
    { expected: 'Signer | Uint8Array(64) | Keypair | KeyPairSigner', got: kind(value) },
  );
}

function kitSigner(k: KitSignerLike, field: string): AsyncSigner {
  const address = toAddress(k.address, `${field}.address`);
  const publicKey = decodeBase58(address, 32, `${field}.address`);
  const privateKey = k.keyPair?.privateKey;
  const canSubtle = privateKey !== undefined && typeof globalThis.crypto?.subtle?.sign === 'function';
  if (!canSubtle && typeof k.signTransactions !== 'function' && typeof k.signMessages !== 'function') {
    throw new InputError(field, 'a kit signer needs signTransactions, signMessages or keyPair to sign a transaction', { expected: 'TransactionPartialSigner' });
  }
  const check = (sig: unknown, how: string): Uint8Array => {
    if (sig instanceof Uint8Array && sig.length === 64) return sig;
    throw new InputError(field, `the kit signer's ${how} returned no 64-byte signature for ${address}`, { got: kind(sig) });
  };
  const signAsync = async (message: Uint8Array, signal?: AbortSignal): Promise<Uint8Array> => {
    const config = signal ? { abortSignal: signal } : undefined;
    // Preferred order: the key itself (one WebCrypto call), then the signer's own transaction and message paths.
    if (canSubtle) {
      const sig = await globalThis.crypto.subtle.sign('Ed25519', privateKey as webcrypto.CryptoKey, message);
      return new Uint8Array(sig);
    }
    if (typeof k.signTransactions === 'function') {
      const [dict] = await (k.signTransactions as SignDicts)(
        [Object.freeze({ messageBytes: message, signatures: Object.freeze({ [address]: null }) })],
        config,
      );
      return check(dict?.[address], 'signTransactions');
    }
    const [dict] = await (k.signMessages as SignDicts)([Object.freeze({ content: message, signatures: Object.freeze({}) })], config);
    return check(dict?.[address], 'signMessages');
  };
  return {
    async: true,
    address,
    publicKey,
    signAsync,
    sign(): Uint8Array {
      throw new InputError(field, 'this kit signer signs asynchronously; sign through the sender or signMessagePartsAsync', { expected: 'async signing' });
    },
  };
}

const PLACEHOLDER = new Uint8Array(64);

/**
 * `signMessageParts` with asynchronous signers among `signers`: the message is laid out and signed by
 * the in-line signers at once, then each asynchronous signer's signature is written into its slot.
 */
export async function signMessagePartsAsync(
  parts: MessageParts,
  signers: readonly Signer[],
  signal?: AbortSignal,
): Promise<{ wire: Uint8Array; message: Uint8Array; signatures: Uint8Array[] }> {
  if (!signers.some(isAsyncSigner)) return signMessageParts(parts, signers);
  const stand = signers.map((s) => (isAsyncSigner(s) ? { publicKey: s.publicKey, address: s.address, sign: () => PLACEHOLDER } : s));
  const out = signMessageParts(parts, stand);
  await Promise.all(
    out.signatures.map(async (slot, i) => {
      const s = signers.find((x) => bytesEqual(x.publicKey, parts.staticKeys[i]));
      if (s && isAsyncSigner(s)) slot.set(await s.signAsync(out.message, signal));
    }),
  );
  return out;
}

/**
 * A parameter type as cairn's client takes it: wherever a string goes, a web3.js `PublicKey` may go
 * too (a kit `Address` already is a string). Every string widens, not only addresses: the type
 * cannot tell an address field from another, and the client's checks still refuse a key where it
 * makes no sense.
 */
export type AddressInputs<T> = T extends string
  ? T | PublicKeyLike
  : T extends Uint8Array | AbortSignal | ((...a: never[]) => unknown)
    ? T
    : T extends readonly unknown[]
      ? { [I in keyof T]: AddressInputs<T[I]> }
      : T extends object
        ? { [K in keyof T]: AddressInputs<T[K]> }
        : T;

/** Nested plain objects and arrays are looked into this deep (params are shallow; this bounds a cycle). */
const MAX_DEPTH = 8;

/**
 * `value` with every `PublicKey` in it (itself, or inside plain objects and arrays) replaced by its
 * base58 text, copying only what changes: a call without keys costs a walk, not a copy.
 */
export function addressInputs<T>(value: AddressInputs<T> | T, depth = 0): T {
  const v = value as unknown;
  if (isPublicKeyLike(v)) {
    const b = v.toBytes();
    return (b instanceof Uint8Array && b.length === 32 ? encodeAddress(b) : v) as T;
  }
  if (depth >= MAX_DEPTH || v === null || typeof v !== 'object') return v as T;
  if (Array.isArray(v)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < v.length; i++) {
      const n = addressInputs<unknown>(v[i], depth + 1);
      if (n !== v[i]) (out ??= v.slice())[i] = n;
    }
    return (out ?? v) as T;
  }
  const proto = Object.getPrototypeOf(v) as unknown;
  if (proto !== Object.prototype && proto !== null) return v as T;
  let out: Record<string, unknown> | undefined;
  for (const [k, x] of Object.entries(v)) {
    const n = addressInputs<unknown>(x, depth + 1);
    if (n !== x) (out ??= { ...(v as Record<string, unknown>) })[k] = n;
  }
  return (out ?? v) as T;
}
