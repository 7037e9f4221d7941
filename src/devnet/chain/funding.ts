/**
 * Genesis balances: the faucet, the authority and the caller's `fundedAccounts` are written straight
 * into LiteSVM's accounts — its own airdrop source holds too little for a faucet, and genesis is
 * not a transaction anyway.
 */
import type { LiteSVM } from 'litesvm';
import { InputError } from '../../errors/index.js';
import { SYSTEM_PROGRAM } from '../../solana/index.js';
import { SLOTS_PER_EPOCH } from '../methods/cluster.js';
import { decodeAddress } from './decode-address.js';
import { loadLiteSvm } from '../runtime/litesvm.js';

/** Add `lamports` to `address` (created as a System account when absent); `field` names it in errors. */
export function fundAccount(svm: LiteSVM, address: string, lamports: bigint, field: string): void {
  decodeAddress(address, field);
  const prev = svm.getAccount(address as never);
  svm.setAccount({
    address: address as never,
    lamports: ((prev.exists ? BigInt(prev.lamports) : 0n) + lamports) as never,
    programAddress: (prev.exists ? prev.programAddress : SYSTEM_PROGRAM) as never,
    executable: prev.exists ? prev.executable : false,
    data: prev.exists ? prev.data : new Uint8Array(0),
    space: prev.exists ? prev.space : 0n,
  } as never);
}

/** Fund the caller's accounts, checking each entry as `fundedAccounts[i]`. */
export function fundAccounts(svm: LiteSVM, accounts: readonly { address: string; lamports: bigint }[]): void {
  accounts.forEach((f, i) => {
    if (f === null || typeof f !== 'object') throw new InputError(`fundedAccounts[${i}]`, 'expected { address, lamports }');
    if (typeof f.lamports !== 'bigint' || f.lamports < 0n) {
      throw new InputError(`fundedAccounts[${i}].lamports`, `expected a bigint ≥ 0, got ${String(f.lamports)}`);
    }
    fundAccount(svm, f.address, f.lamports, `fundedAccounts[${i}].address`);
  });
}

/** The wrapped-SOL mints a real cluster has (SPL Token's and Token-2022's). */
const NATIVE_MINTS = ['So11111111111111111111111111111111111111112', '9pan9bMn5HatX4EJdBwg9VgCa7Uz5HL8N1m5D3NdXejP'];

/**
 * What a real cluster holds at any time and LiteSVM lacks: the `/fast` tip accounts (as System
 * accounts holding at least the rent-exempt minimum, so a minimum tip to one lands instead of
 * failing with InsufficientFundsForRent) and the two native mints. LiteSVM already loads the
 * sysvars, System, Compute Budget, SPL Token, Token-2022, Associated Token Account, Memo and Address
 * Lookup Table programs from its own package.
 */
export function seedClusterAccounts(svm: LiteSVM, tipAccounts: readonly string[]): void {
  // Mainnet's schedule (no warm-up), the one getEpochInfo and getEpochSchedule answer; LiteSVM's
  // default warms up over 14 epochs, which programs reading the sysvar would see instead.
  const { EpochSchedule } = loadLiteSvm();
  svm.setEpochSchedule(new EpochSchedule(BigInt(SLOTS_PER_EPOCH), BigInt(SLOTS_PER_EPOCH), false, 0n, 0n));
  const rentExempt = svm.minimumBalanceForRentExemption(0n);
  tipAccounts.forEach((t, i) => {
    const prev = svm.getAccount(t as never);
    const have = prev.exists ? BigInt(prev.lamports) : 0n;
    if (have < rentExempt) fundAccount(svm, t, rentExempt - have, `tipAccounts[${i}]`);
  });
  svm.withNativeMints();
  for (const m of NATIVE_MINTS) {
    if (!svm.getAccount(m as never).exists) throw new InputError('genesis', `LiteSVM did not create the native mint ${m}`);
  }
}
