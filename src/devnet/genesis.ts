/**
 * Genesis balances: the faucet, the authority and the caller's `fundedAccounts` are written straight
 * into LiteSVM's accounts — its own airdrop source holds too little for a faucet, and genesis is
 * not a transaction anyway.
 */
import type { LiteSVM } from 'litesvm';
import { InputError } from '../errors.js';
import { SYSTEM_PROGRAM } from '../solana/instructions.js';
import { decodeAddress } from './decode-address.js';

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
