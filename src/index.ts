/** cairn public API. Only re-exports live here. */
export * from './errors.js';
export * from './config.js';
export * from './rpc/index.js';
