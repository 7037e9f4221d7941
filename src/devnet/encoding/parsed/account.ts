/**
 * Account data as Agave's `jsonParsed` writes it (account-decoder `parse_account_data_v3`),
 * chosen by the owner program: `{ program, parsed, space }`, or null when the devnet does not parse
 * it (the caller then answers base64, as Agave does for any program it has no parser for). One
 * place for every program's account form: getAccountInfo, getMultipleAccounts,
 * getProgramAccounts, the token methods, simulations and account notifications all come here.
 */
import type { AccountView } from '../../chain/contract.js';
import { parseConfigAccount } from './config-account.js';
import { LOOKUP_TABLE_PROGRAM } from './lookup-table-instruction.js';
import { parseLookupTableAccount } from './lookup-table-account.js';
import { parseNonceAccount } from './nonce-account.js';
import { BPF_UPGRADEABLE_LOADER, CONFIG_PROGRAM, STAKE_PROGRAM, SYSTEM_PROGRAM, SYSVAR_PROGRAM, TOKEN_2022_PROGRAM, TOKEN_PROGRAM, VOTE_PROGRAM } from './program-ids.js';
import { parseStakeAccount } from './stake-account.js';
import { parseSysvarAccount } from './sysvar-account.js';
import { parseUpgradeableLoaderAccount } from './upgradeable-loader-account.js';
import { parseVoteAccount } from './vote-account.js';
import { parseMultisig } from './multisig-account.js';
import { parsedTokenData } from './token-account.js';

const BY_OWNER: Record<string, [string, (address: string, data: Uint8Array) => Record<string, unknown> | null]> = {
  [LOOKUP_TABLE_PROGRAM]: ['address-lookup-table', (_a, d) => parseLookupTableAccount(d)],
  [BPF_UPGRADEABLE_LOADER]: ['bpf-upgradeable-loader', (_a, d) => parseUpgradeableLoaderAccount(d)],
  [CONFIG_PROGRAM]: ['config', parseConfigAccount],
  [SYSTEM_PROGRAM]: ['nonce', (_a, d) => parseNonceAccount(d)],
  [STAKE_PROGRAM]: ['stake', (_a, d) => parseStakeAccount(d)],
  [SYSVAR_PROGRAM]: ['sysvar', parseSysvarAccount],
  [VOTE_PROGRAM]: ['vote', parseVoteAccount],
};

/** `{ program, parsed, space }` for `a` at `address`, or null when not parsed. */
export function parsedAccountData(address: string, a: AccountView, mintOf: (address: string) => AccountView | null): Record<string, unknown> | null {
  if (a.owner === TOKEN_PROGRAM || a.owner === TOKEN_2022_PROGRAM) {
    const multisig = parseMultisig(a.data);
    if (multisig) return { program: a.owner === TOKEN_2022_PROGRAM ? 'spl-token-2022' : 'spl-token', parsed: multisig, space: a.data.length };
    return parsedTokenData(a, mintOf);
  }
  const p = BY_OWNER[a.owner];
  if (!p) return null;
  let parsed: Record<string, unknown> | null;
  try {
    parsed = p[1](address, a.data);
  } catch {
    parsed = null;
  }
  return parsed === null ? null : { program: p[0], parsed, space: a.data.length };
}
