/**
 * The fuzz target groups, each built in its own worker thread (its modules are imported there only):
 * the verifiers, the typed client's response validators, and the devnet's JSON-RPC methods.
 */
import type { GroupOptions, TargetGroup } from './target.js';

export const GROUPS = {
  verifiers: async (o: GroupOptions): Promise<TargetGroup> => (await import('./verifier-targets.js')).verifierTargets(o),
  rpc: async (o: GroupOptions): Promise<TargetGroup> => (await import('./rpc-targets.js')).rpcTargets(o),
  devnet: async (o: GroupOptions): Promise<TargetGroup> => (await import('./devnet-targets.js')).devnetTargets(o),
  /** Targets that fail on purpose: the harness's own check, never part of a default run. */
  selftest: async (): Promise<TargetGroup> => (await import('./selftest-targets.js')).selftestTargets(),
};
export type GroupName = keyof typeof GROUPS;
export const GROUP_NAMES = Object.keys(GROUPS) as GroupName[];
/** What a run fuzzes unless told otherwise. */
export const DEFAULT_GROUPS: GroupName[] = ['verifiers', 'rpc', 'devnet'];
