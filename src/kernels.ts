/**
 * The one place that reads cairn's kernel switches: the environment variables that force a backend
 * or turn a compiled kernel off (to compare backends, or to rule one out). Every kernel asks here when
 * it chooses, never when this module is imported, so a process (or a test, after resetting its
 * modules) may set them first.
 *
 * | switch                   | values                  | read by                                   |
 * | ------------------------ | ----------------------- | ----------------------------------------- |
 * | `CAIRN_NATIVE`           | `0`: no addon at all    | addon.ts                                  |
 * | `CAIRN_POSEIDON`         | `native\|wasm\|js\|auto` | crypto/poseidon.ts (backendChoice)        |
 * | `CAIRN_PDA`              | `native\|wasm\|js\|auto` | crypto/pda.ts (backendChoice)             |
 * | `CAIRN_KECCAK`           | `native\|wasm\|js`       | crypto/keccak.ts (another: an error)      |
 * | `CAIRN_JSON_SCAN`        | `js`: portable scanner  | json/scanner-choice.ts                    |
 * | `CAIRN_ASSET_PROOF_JSON` | `parse`: no C packer    | merkle/cnft/asset-proof-packer.ts         |
 */

/** The environment variables that choose kernels. */
export type KernelSwitch = 'CAIRN_NATIVE' | 'CAIRN_POSEIDON' | 'CAIRN_PDA' | 'CAIRN_KECCAK' | 'CAIRN_JSON_SCAN' | 'CAIRN_ASSET_PROOF_JSON';

/**
 * A switch's value now (undefined when unset).
 *
 * @example
 * const forced = kernelSwitch('CAIRN_KECCAK'); // 'js' under CAIRN_KECCAK=js
 */
export function kernelSwitch(name: KernelSwitch): string | undefined {
  return process.env[name];
}

/** `CAIRN_NATIVE=0`: the native addon is not loaded at all. */
export function nativeDisabled(): boolean {
  return kernelSwitch('CAIRN_NATIVE') === '0';
}

/** `CAIRN_JSON_SCAN=js`: the portable JSON scanner even where the addon's is built. */
export function portableJsonScan(): boolean {
  return kernelSwitch('CAIRN_JSON_SCAN') === 'js';
}

/** `CAIRN_ASSET_PROOF_JSON=parse`: asset proofs are parsed, never packed from their text in C. */
export function assetProofPackerOff(): boolean {
  return kernelSwitch('CAIRN_ASSET_PROOF_JSON') === 'parse';
}
