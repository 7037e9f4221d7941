/**
 * proxy/: `cairn proxy`, and what the CLI takes from it (it imports this file, never the files beside
 * it): the server that verifies and anchors every proof-bearing answer before passing it on.
 */
export { startProxy, PROOF_REJECTED_CODE, type ProxyOptions } from './proxy-server.js';
