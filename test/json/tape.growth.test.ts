/**
 * The tape grows until it fits: a text that needs one entry per byte ("[[[[…", unclosed) once made
 * the scan regrow its tape to one entry per 2 bytes, fill it, and regrow to the same size forever,
 * a synchronous loop that froze the thread (65 unclosed brackets were enough). Each case runs in a
 * child process with a time limit, so a regression fails here instead of hanging the suite.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const script = `
  const { scanJson } = await import(${JSON.stringify(new URL('../../src/json/index.ts', import.meta.url).pathname)});
  const out = [];
  for (const text of ['['.repeat(65), '['.repeat(100), '['.repeat(1_000), '['.repeat(5_000), '{"a":'.repeat(200), '['.repeat(500) + ']'.repeat(500), '[' + '[],'.repeat(3_000) + '[]]']) {
    try { out.push('ok ' + scanJson(Buffer.from(text)).count); } catch (e) { out.push((e.code ?? e.name) + ' ' + e.message.slice(0, 60)); }
  }
  process.stdout.write(JSON.stringify(out));
`;

describe('tape growth', () => {
  for (const scanner of ['native', 'js']) {
    it(`(${scanner} scanner) unclosed and deep texts end at once with an error; closed ones of one entry per byte scan`, () => {
      const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
        encoding: 'utf8',
        timeout: 20_000,
        env: { ...process.env, ...(scanner === 'js' ? { CAIRN_JSON_SCAN: 'js' } : {}) },
      });
      expect(r.signal, r.stderr).toBeNull();
      const out = JSON.parse(r.stdout) as string[];
      expect(out.slice(0, 3)).toEqual([expect.stringMatching(/^INPUT_INVALID .*end of input/), expect.stringMatching(/^INPUT_INVALID/), expect.stringMatching(/^INPUT_INVALID/)]);
      expect(out[3]).toMatch(/^INPUT_(INVALID|TOO_LARGE)/);
      expect(out[4]).toMatch(/^INPUT_INVALID/);
      expect(out[5]).toBe('ok 500');
      expect(out[6]).toBe('ok 3002'); // the outer array and its 3,001 empty arrays
    });
  }
});
