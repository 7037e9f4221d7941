/**
 * The two −32602 "Invalid params" errors every param check of the devnet throws: its own wording and
 * Agave's. A file of their own so that the checks (solana.ts, u64.ts, …) and the methods import them
 * without importing each other.
 */
import { DevnetRpcError } from '../types.js';

export const bad = (message: string) => new DevnetRpcError(-32602, `Invalid params: ${message}`);

/** A −32602 worded exactly as Agave words it (its `Error::invalid_params(msg)` carries no prefix). */
export const badAgave = (message: string) => new DevnetRpcError(-32602, message);
