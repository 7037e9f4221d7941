/**
 * Where proving keys are cached, from the environment: its own file so the devnet can name the
 * directory without importing the prover (which only its worker thread loads).
 */
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * `$CAIRN_CACHE_DIR`, else `$XDG_CACHE_HOME/cairn`, else `~/.cache/cairn`.
 *
 * @example
 * defaultCacheDir({ CAIRN_CACHE_DIR: '/tmp/c' }); // '/tmp/c'
 */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.CAIRN_CACHE_DIR) return env.CAIRN_CACHE_DIR;
  if (env.XDG_CACHE_HOME) return join(env.XDG_CACHE_HOME, 'cairn');
  return join(homedir(), '.cache', 'cairn');
}
