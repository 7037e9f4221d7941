/**
 * Facts of the `/fast` host that both sides of cairn need — the sender (which adds the tip) and the
 * devnet (which enforces it) — kept in one place so they can never disagree. Values are the latest
 * known defaults (docs/sender.md); both sides take them as overridable configuration.
 */

/** The provider's tip accounts; a sender picks one at random per transaction. */
export const DEFAULT_TIP_ACCOUNTS: readonly string[] = [
  '4ACfpUFoaSD9bfPdeu6DBt89gB6ENTeHBXCAi87NhDEE',
  'D2L6yPZ2FmmmTKPgzaMKdhu6EWZcTpLy1Vhx8uvZe7NZ',
  '9bnz4RShgq1hAnLnZbP8kbgBg1kEmcJBYQq3gQbmnSta',
  '5VY91ws6B2hMmBFRsXkoAAdsPHBJwRfBht4DXox3xkwn',
  '2nyhqdwKcJZR2vcqCyrYsaPVdAnFoJjiksCXJ7hfEYgD',
  '2q5pghRs6arqVjRvT5gfgWfWcHWmw1ZuCzphgd5KfWGJ',
  'wyvPkWjVZz1M8fHQnMMCDTQDbkManefNNhweYk5WkcF',
  '3KCKozbAaF75qEU33jtzozcJ29yJuaLJTy2jFdzUY8bT',
  '4vieeGHPYPG2MmyPRcYjdiDmmhN3ww7hsFNap8pVN3Ey',
  '4TQLFNWK8AovT1gFvda5jfw2oJeRMKEmw7aH6MGBJ3or',
];

/** Minimum tips in lamports: 0.001 SOL with dual routing, 0.000005 SOL with `swqos_only=true`. */
export const DEFAULT_MIN_TIP_LAMPORTS = { dual: 1_000_000n, swqosOnly: 5_000n } as const;
