/**
 * Direct tests of src/devnet/encoding/token-layout.ts: the UiTokenAmount strings, and the Token-2022
 * extensions jsonParsed shows — known ones named as the real RPC names them, an unknown one making
 * the whole account fall back to base64 (null) rather than a parse that leaves it out.
 */
import { describe, expect, it } from 'vitest';
import { readExtensions, tokenAmountJson, uiAmountString } from '../../src/devnet/encoding/token-layout.js';

const tlv = (...entries: [number, number[]][]) => {
  const base = new Uint8Array(166);
  base[165] = 2;
  const parts = entries.flatMap(([type, value]) => [type & 0xff, type >> 8, value.length & 0xff, value.length >> 8, ...value]);
  return Uint8Array.from([...base, ...parts]);
};

describe('token layout', () => {
  it('writes amounts as the real RPC does', () => {
    expect(uiAmountString(0n, 6)).toBe('0');
    expect(uiAmountString(1_500_000n, 6)).toBe('1.5');
    expect(uiAmountString(5n, 9)).toBe('0.000000005');
    expect(uiAmountString(18446744073709551615n, 0)).toBe('18446744073709551615');
    expect(tokenAmountJson(250_000n, 6)).toEqual({ amount: '250000', decimals: 6, uiAmount: 0.25, uiAmountString: '0.25' });
  });

  it('reads the known Token-2022 extensions and refuses an unknown one', () => {
    const key = Array.from({ length: 32 }, (_, i) => i + 1);
    expect(readExtensions(tlv([7, []], [8, [1]], [12, key]))).toEqual([
      { extension: 'immutableOwner' },
      { extension: 'memoTransfer', state: { requireIncomingTransferMemos: true } },
      { extension: 'permanentDelegate', state: { delegate: expect.any(String) } },
    ]);
    expect(readExtensions(tlv([12, new Array(32).fill(0)]))).toEqual([{ extension: 'permanentDelegate', state: { delegate: null } }]);
    expect(readExtensions(tlv([1, new Array(108).fill(0)]))).toBeNull(); // transfer fee config: not parsed here
    expect(readExtensions(tlv([7, [1, 2, 3, 4, 5]]).subarray(0, 172))).toBeNull(); // cut short
  });
});
