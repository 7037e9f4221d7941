/**
 * `cairn-solana/devnet`: the embedded local service's public surface — `startDevnet` (start.ts) and
 * the types its options, control object and chain are written in. Only re-exports live here.
 */
export { startDevnet } from './start.js';
export type { Devnet, DevnetAccount, DevnetControl, DevnetOptions, DevnetProgram } from './start.js';
export type { DevnetKey } from './http/auth.js';
export type { DevnetChain } from './chain/contract.js';
export type { Webhook, WebhookInput } from './methods/rest/webhooks.js';
export type { FastRules } from './http/fast.js';
export { DEFAULT_TIP_ACCOUNTS } from './http/fast.js';
export type { Chain, DevnetLimits, EndpointFaults, ExecutedTransaction, FaultEndpoint, RequestLogEntry, SignatureStatus } from './types.js';
export { DEFAULT_LIMITS } from './http/limits.js';
export { readAccountFile } from './chain/account-file.js';
