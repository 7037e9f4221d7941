/**
 * SPL Token and Token-2022 token accounts and mints in `jsonParsed` form (Agave's parse_token.rs),
 * read with token-layout.ts; parsed/account.ts picks it for the two token programs.
 */
import type { AccountView } from '../../chain/contract.js';
import { readExtensions, readMint, readTokenAccount, TOKEN_2022_PROGRAM, TOKEN_ACCOUNT_LEN, tokenAmountJson } from '../token-layout.js';

/** SPL parsed data, or null when the account is neither a token account nor a mint the devnet can read. */
export function parsedTokenData(a: AccountView, mintOf: (address: string) => AccountView | null): Record<string, unknown> | null {
  const program = a.owner === TOKEN_2022_PROGRAM ? 'spl-token-2022' : 'spl-token';
  const t = readTokenAccount(a.owner, a.data);
  // Token-2022 extensions the devnet does not know: base64 rather than a parse that leaves them out.
  const extensions = a.owner === TOKEN_2022_PROGRAM && a.data.length > TOKEN_ACCOUNT_LEN ? readExtensions(a.data) : [];
  if (extensions === null) return null;
  if (t && t.state !== 'uninitialized') {
    const m = mintOf(t.mint);
    const mint = m ? readMint(m.owner, m.data) : null;
    if (!mint) return null;
    const info: Record<string, unknown> = {
      isNative: t.isNative !== null,
      mint: t.mint,
      owner: t.owner,
      state: t.state,
      tokenAmount: tokenAmountJson(t.amount, mint.decimals),
    };
    if (t.delegate) {
      info.delegate = t.delegate;
      info.delegatedAmount = tokenAmountJson(t.delegatedAmount, mint.decimals);
    }
    if (t.isNative !== null) info.rentExemptReserve = tokenAmountJson(t.isNative, mint.decimals);
    if (t.closeAuthority) info.closeAuthority = t.closeAuthority;
    if (extensions.length) info.extensions = extensions;
    return { program, parsed: { info, type: 'account' }, space: a.data.length };
  }
  const m = readMint(a.owner, a.data);
  if (m) {
    const info: Record<string, unknown> = {
      decimals: m.decimals,
      freezeAuthority: m.freezeAuthority,
      isInitialized: m.isInitialized,
      mintAuthority: m.mintAuthority,
      supply: m.supply.toString(),
    };
    if (extensions.length) info.extensions = extensions;
    return { program, parsed: { info, type: 'mint' }, space: a.data.length };
  }
  return null;
}
