/**
 * SPL Token and Token-2022 instructions as Agave's parse_token.rs writes them: amounts as strings,
 * the *Checked forms with a `tokenAmount`, and a multisig authority named `multisig…` with its
 * `signers` after it. Token-2022's extension instructions (25 and up) are not parsed here: they
 * fall back to the partially decoded form (docs/service.md lists it).
 */
import { tokenAmountJson } from '../token-layout.js';
import { BytesReader } from './bytes-reader.js';

const AUTHORITY_TYPES = [
  'mintTokens', 'freezeAccount', 'accountOwner', 'closeAccount', 'transferFeeConfig', 'withheldWithdraw',
  'closeMint', 'interestRate', 'permanentDelegate', 'confidentialTransferMint', 'transferHookProgramId',
  'confidentialTransferFeeConfig', 'metadataPointer', 'groupPointer', 'groupMemberPointer', 'scaledUiAmount', 'pause',
];
/** Token-2022's ExtensionType, in enum order, as Agave's UiExtensionType names them. */
const EXTENSION_TYPES = [
  'uninitialized', 'transferFeeConfig', 'transferFeeAmount', 'mintCloseAuthority', 'confidentialTransferMint',
  'confidentialTransferAccount', 'defaultAccountState', 'immutableOwner', 'memoTransfer', 'nonTransferable',
  'interestBearingConfig', 'cpiGuard', 'permanentDelegate', 'nonTransferableAccount', 'transferHook',
  'transferHookAccount', 'confidentialTransferFeeConfig', 'confidentialTransferFeeAmount', 'metadataPointer',
  'tokenMetadata', 'groupPointer', 'tokenGroup', 'groupMemberPointer', 'tokenGroupMember', 'confidentialMintBurn',
  'scaledUiAmountConfig', 'pausableConfig', 'pausableAccount',
];
/** Authority types that belong to a mint; the others to a token account. */
const ACCOUNT_AUTHORITIES = new Set(['accountOwner', 'closeAccount']);

const need = (a: string[], n: number) => {
  if (a.length < n) throw new RangeError(`needs ${n} accounts`);
};

/** Agave's parse_signers: one signer under `single`, or a multisig under `multi` with its `signers`. */
function signers(info: Record<string, unknown>, last: number, a: string[], single: string, multi: string): Record<string, unknown> {
  if (a.length > last + 1) {
    info[multi] = a[last];
    info.signers = a.slice(last + 1);
  } else info[single] = a[last];
  return info;
}

export function parseTokenInstruction(a: string[], data: Uint8Array): unknown | null {
  const r = new BytesReader(data);
  const tag = r.u8();
  switch (tag) {
    case 0:
    case 20: {
      const decimals = r.u8(), mintAuthority = r.pubkey(), freeze = r.optionPubkey8();
      need(a, tag === 0 ? 2 : 1);
      const info: Record<string, unknown> = { mint: a[0], decimals, mintAuthority };
      if (tag === 0) info.rentSysvar = a[1];
      if (freeze !== null) info.freezeAuthority = freeze;
      return { type: tag === 0 ? 'initializeMint' : 'initializeMint2', info };
    }
    case 1:
      need(a, 4);
      return { type: 'initializeAccount', info: { account: a[0], mint: a[1], owner: a[2], rentSysvar: a[3] } };
    case 2:
    case 19: {
      const m = r.u8();
      const first = tag === 2 ? 2 : 1;
      need(a, first + 1);
      const info: Record<string, unknown> = { multisig: a[0] };
      if (tag === 2) info.rentSysvar = a[1];
      info.signers = a.slice(first);
      info.m = m;
      return { type: tag === 2 ? 'initializeMultisig' : 'initializeMultisig2', info };
    }
    case 3:
      need(a, 3);
      return { type: 'transfer', info: signers({ source: a[0], destination: a[1], amount: r.u64().toString() }, 2, a, 'authority', 'multisigAuthority') };
    case 4:
      need(a, 3);
      return { type: 'approve', info: signers({ source: a[0], delegate: a[1], amount: r.u64().toString() }, 2, a, 'owner', 'multisigOwner') };
    case 5:
      need(a, 2);
      return { type: 'revoke', info: signers({ source: a[0] }, 1, a, 'owner', 'multisigOwner') };
    case 6: {
      const type = AUTHORITY_TYPES[r.u8()];
      const next = r.optionPubkey8();
      if (type === undefined) return null;
      need(a, 2);
      const info: Record<string, unknown> = { [ACCOUNT_AUTHORITIES.has(type) ? 'account' : 'mint']: a[0], authorityType: type, newAuthority: next };
      return { type: 'setAuthority', info: signers(info, 1, a, 'authority', 'multisigAuthority') };
    }
    case 7:
      need(a, 3);
      return { type: 'mintTo', info: signers({ mint: a[0], account: a[1], amount: r.u64().toString() }, 2, a, 'mintAuthority', 'multisigMintAuthority') };
    case 8:
      need(a, 3);
      return { type: 'burn', info: signers({ account: a[0], mint: a[1], amount: r.u64().toString() }, 2, a, 'authority', 'multisigAuthority') };
    case 9:
      need(a, 3);
      return { type: 'closeAccount', info: signers({ account: a[0], destination: a[1] }, 2, a, 'owner', 'multisigOwner') };
    case 10:
    case 11:
      need(a, 3);
      return { type: tag === 10 ? 'freezeAccount' : 'thawAccount', info: signers({ account: a[0], mint: a[1] }, 2, a, 'freezeAuthority', 'multisigFreezeAuthority') };
    case 12: {
      const amount = r.u64(), decimals = r.u8();
      need(a, 4);
      return { type: 'transferChecked', info: signers({ source: a[0], mint: a[1], destination: a[2], tokenAmount: tokenAmountJson(amount, decimals) }, 3, a, 'authority', 'multisigAuthority') };
    }
    case 13: {
      const amount = r.u64(), decimals = r.u8();
      need(a, 4);
      return { type: 'approveChecked', info: signers({ source: a[0], mint: a[1], delegate: a[2], tokenAmount: tokenAmountJson(amount, decimals) }, 3, a, 'owner', 'multisigOwner') };
    }
    case 14: {
      const amount = r.u64(), decimals = r.u8();
      need(a, 3);
      return { type: 'mintToChecked', info: signers({ mint: a[0], account: a[1], tokenAmount: tokenAmountJson(amount, decimals) }, 2, a, 'mintAuthority', 'multisigMintAuthority') };
    }
    case 15: {
      const amount = r.u64(), decimals = r.u8();
      need(a, 3);
      return { type: 'burnChecked', info: signers({ account: a[0], mint: a[1], tokenAmount: tokenAmountJson(amount, decimals) }, 2, a, 'authority', 'multisigAuthority') };
    }
    case 16:
      need(a, 3);
      return { type: 'initializeAccount2', info: { account: a[0], mint: a[1], owner: r.pubkey(), rentSysvar: a[2] } };
    case 17:
      need(a, 1);
      return { type: 'syncNative', info: { account: a[0] } };
    case 18:
      need(a, 2);
      return { type: 'initializeAccount3', info: { account: a[0], mint: a[1], owner: r.pubkey() } };
    case 21: {
      need(a, 1);
      // extension types as u16s; an empty list is left out, as Agave does
      const types: string[] = [];
      while (r.remaining >= 2) {
        const t = EXTENSION_TYPES[r.u16()];
        if (t === undefined) return null;
        types.push(t);
      }
      return { type: 'getAccountDataSize', info: types.length ? { mint: a[0], extensionTypes: types } : { mint: a[0] } };
    }
    case 22:
      need(a, 1);
      return { type: 'initializeImmutableOwner', info: { account: a[0] } };
    case 23:
      need(a, 1);
      return { type: 'amountToUiAmount', info: { mint: a[0], amount: r.u64().toString() } };
    case 24:
      need(a, 1);
      return { type: 'uiAmountToAmount', info: { mint: a[0], uiAmount: Buffer.from(r.bytesN(r.remaining)).toString('utf8') } };
    default:
      return null;
  }
}
