/** The devnet's handler error. */

/**
 * A JSON-RPC error thrown by a devnet handler; the devnet's server turns it into
 * `{ error: { code, message, data } }` (or an HTTP status). It is a plain `Error`, not a `CairnError`,
 * because it never reaches a caller of cairn: it is the devnet's answer on the wire, where a client
 * (cairn's own included) sees it as `RPC_ERROR`. Keeping it plain also leaves `data` byte-exact (a
 * CairnError's context is copied through the redaction walk).
 */
export class DevnetRpcError extends Error {
  constructor(
    readonly rpcCode: number,
    message: string,
    readonly httpStatus = 200,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'DevnetRpcError';
  }
}
