/** The mcl scalar decoder refuses a value ≥ r with a typed error naming the field, as groth16's own check does. */
import { describe, expect, it } from 'vitest';
import { loadBn254Wasm } from '../../src/crypto/bn254-wasm.js';
import { bigToBe, BN254_R } from '../../src/crypto/bn254-encoding.js';
import { CairnError } from '../../src/errors/index.js';

describe('bn254-wasm fr', () => {
  it('reads r − 1 and refuses r and above as INPUT_INVALID (field "scalar")', async () => {
    const w = await loadBn254Wasm();
    expect(w.fr(bigToBe(BN254_R - 1n, 32)).getStr(10)).toBe((BN254_R - 1n).toString());
    for (const v of [BN254_R, (1n << 256n) - 1n]) {
      let thrown: unknown;
      try {
        w.fr(bigToBe(v, 32));
      } catch (e) {
        thrown = e;
      }
      expect(thrown).toBeInstanceOf(CairnError);
      expect(thrown).toMatchObject({ code: 'INPUT_INVALID', context: { field: 'scalar', expected: '< r' } });
    }
  });

  it('reads at an offset', async () => {
    const w = await loadBn254Wasm();
    const buf = new Uint8Array(64);
    buf.set(bigToBe(7n, 32), 32);
    expect(w.fr(buf, 32).getStr(10)).toBe('7');
  });
});
