import { describe, expect, it } from 'vitest';
import { run } from '../../src/cli/demo.js';

// `npm start` end to end at a small size: devnet, sender, mint + verify, compression proofs, validity.
describe('cairn demo (npm start)', () => {
  it('runs every part against an embedded devnet and every check holds', async () => {
    let out = '';
    let err = '';
    const code = await run(['--transfers', '40', '--mints', '1', '--accounts', '2', '--threads', '1'], {
      stdout: { write: (s: string) => (out += s) },
      stderr: { write: (s: string) => (err += s) },
    });
    expect(err).toBe('');
    expect(out).toMatch(/40\/40 transfers confirmed/);
    expect(out).toMatch(/asset proofs 1\/1 valid; leaves 1\/1 valid/);
    expect(out).toMatch(/proofs 2\/2 valid; 2 new addresses: non-inclusion 2\/2 valid/);
    expect(out).toMatch(/validity +circuit v1_inclusion_26_1: verified under cairn-devnet@1/);
    expect(out).toMatch(/all checks held/);
    expect(code).toBe(0);
  });

  it('refuses bad options with exit 2', async () => {
    let err = '';
    const io = { stdout: { write: () => true }, stderr: { write: (s: string) => (err += s) } };
    expect(await run(['--transfers', '0'], io)).toBe(2);
    expect(err).toMatch(/--transfers/);
  });
});
