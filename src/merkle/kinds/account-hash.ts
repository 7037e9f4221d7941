/**
 * The `account-hash` kind: compressed accounts whose hash is recomputed from their fields, as listed
 * or as a transaction's compression info lists the accounts it closed and opened.
 */
import { isPlainObject } from '../../assert.js';
import { PROVE_BY_INDEX, verifyAccountHash } from '../compressed/account.js';
import { looksLikeAccount, unwrapAccount } from '../compressed/account-parse.js';
import { packCompressedAccount, unpackCompressedAccount } from '../compressed/account-records.js';
import { extractWith, str } from './extract.js';
import type { KindSpec } from './spec.js';

/** getTransactionWithCompressionInfo's `compressionInfo`, bare or in a JSON-RPC response. */
function compressionInfo(input: unknown): unknown {
  let v = input;
  if (isPlainObject(v) && isPlainObject(v.result) && 'jsonrpc' in v) v = v.result;
  return isPlainObject(v) ? (v.compressionInfo ?? v.compression_info) : undefined;
}

export const accountHashKind: KindSpec = {
  name: 'account-hash',
  batchSize: 128,
  recordBytes: 420,
  looksLike: looksLikeAccount,
  special: (input) => isPlainObject(compressionInfo(input)),
  extract(input) {
    // getTransactionWithCompressionInfo: the accounts it closed and opened.
    const info = compressionInfo(input);
    if (isPlainObject(info)) {
      const all = [...(Array.isArray(info.closedAccounts) ? info.closedAccounts : []), ...(Array.isArray(info.openedAccounts) ? info.openedAccounts : [])];
      return extractWith(this, all);
    }
    return extractWith(this, input);
  },
  id: (item) => str(unwrapAccount(item)?.account.hash),
  // A V2 account still in the output queue: its hash is right, the status says it is not in the tree yet.
  statuses: [PROVE_BY_INDEX],
  pack: packCompressedAccount,
  verify: (r) => verifyAccountHash(unpackCompressedAccount(r)),
};
