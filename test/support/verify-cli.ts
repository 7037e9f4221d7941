/** `cairn verify` run in-process, its stdout, stderr and exit code captured; stdin given as one chunk. */
import { run } from '../../src/cli/verify.js';

export async function verifyCli(argv: string[], stdin = ''): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await run(argv, {
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s) },
    stdin: (async function* () {
      yield stdin;
    })(),
  });
  return { code, out, err };
}
