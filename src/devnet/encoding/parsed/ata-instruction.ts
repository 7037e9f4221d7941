/** Associated Token Account program instructions as Agave's parse_associated_token.rs writes them. */
export const ATA_PROGRAM = 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL';

export function parseAtaInstruction(a: string[], data: Uint8Array): unknown | null {
  // empty data is the original Create
  const variant = data.length === 0 ? 0 : data[0];
  if (data.length > 1) return null;
  if (variant === 0 || variant === 1) {
    if (a.length < 6) return null;
    return { type: variant === 0 ? 'create' : 'createIdempotent', info: { source: a[0], account: a[1], wallet: a[2], mint: a[3], systemProgram: a[4], tokenProgram: a[5] } };
  }
  if (variant === 2) {
    if (a.length < 7) return null;
    return { type: 'recoverNested', info: { nestedSource: a[0], nestedMint: a[1], destination: a[2], nestedOwner: a[3], ownerMint: a[4], wallet: a[5], tokenProgram: a[6] } };
  }
  return null;
}
