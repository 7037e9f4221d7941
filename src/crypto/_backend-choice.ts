/**
 * The backend choice the hash modules share (Poseidon, PDA): the fastest of native → wasm → js that
 * loads, chosen on first use, overridable by an environment variable (read in src/kernels.ts) or a
 * setter, and an error — never a silent fallback — when a forced backend cannot load.
 * Internal to src/crypto/ (the leading `_`): poseidon.ts and pda.ts use it.
 */
import { CairnError, ErrorCodes } from '../errors/index.js';
import { kernelSwitch, type KernelSwitch } from '../kernels.js';

export type Backend = 'native' | 'wasm' | 'js';
const ORDER: readonly Backend[] = ['native', 'wasm', 'js'];

export interface BackendChoice<K> {
  /** The chosen backend and its kernel (choosing now on first use). */
  resolve(): { backend: Backend; kernel: K };
  /** Force a backend, or `'auto'`; overrides the environment variable. */
  set(b: Backend | 'auto'): void;
  /** Why each backend tried could not load. */
  failures(): Readonly<Partial<Record<Backend, string>>>;
}

/**
 * @param label   names the kernel in errors ("Poseidon", "PDA")
 * @param envVar  the environment variable that forces a backend (`CAIRN_POSEIDON`)
 * @param load    the kernel of a backend, or the reason it cannot load; `js` must always load
 *
 * @example
 * const choice = backendChoice('PDA', 'CAIRN_PDA', (b) => (b === 'js' ? jsKernel : 'not built'));
 * choice.resolve().kernel.find(pre, at, out);
 */
export function backendChoice<K>(label: string, envVar: KernelSwitch, load: (b: Backend) => K | string): BackendChoice<K> {
  let chosen: { backend: Backend; kernel: K } | undefined;
  let forced: Backend | 'auto' | undefined;
  const failures: Partial<Record<Backend, string>> = {};
  const attempt = (b: Backend): K | null => {
    const k = load(b);
    if (typeof k !== 'string') return k;
    failures[b] = k;
    return null;
  };
  return {
    resolve() {
      if (chosen) return chosen;
      const env = kernelSwitch(envVar);
      const want = forced ?? (env === 'native' || env === 'wasm' || env === 'js' ? env : 'auto');
      if (want !== 'auto') {
        const k = attempt(want);
        if (k === null) {
          throw new CairnError(ErrorCodes.MERKLE_KERNEL_UNAVAILABLE, `${label} backend "${want}" is unavailable: ${failures[want]}`, {
            context: { backend: want, reason: failures[want] },
          });
        }
        return (chosen = { backend: want, kernel: k });
      }
      for (const b of ORDER) {
        const k = attempt(b);
        if (k !== null) return (chosen = { backend: b, kernel: k });
      }
      throw new CairnError(ErrorCodes.INTERNAL, `unreachable: the js ${label} backend always loads`, { context: { invariant: `${label} js backend loads` } });
    },
    set(b) {
      if (b !== 'native' && b !== 'wasm' && b !== 'js' && b !== 'auto') {
        throw new CairnError(ErrorCodes.MERKLE_INVALID_INPUT, `"backend": expected 'native' | 'wasm' | 'js' | 'auto', got ${String(b)}`, {
          context: { field: 'backend', got: b },
        });
      }
      forced = b;
      chosen = undefined;
    },
    failures: () => ({ ...failures }),
  };
}
