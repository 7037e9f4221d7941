/**
 * The one shape rule the V1 and V2 transaction-with-compression-info answers share: the spec names
 * the field `compression_info`, the compression indexer's own snapshots say `compressionInfo`, and
 * both are accepted. Kept out of rpc/shapes.ts, whose exports are all validators.
 */
import { v, type Validator } from '../validate.js';

/**
 * A transaction with compression info, the info checked by `info` under either spelling (the failing
 * path names the one the answer used); params.ts's `withSpecCompressionInfo` then
 * normalises to the spec's name.
 *
 * @example
 * export const transactionWithCompressionInfo = transactionWithInfo<T.TransactionWithCompressionInfo>(compressionInfo);
 */
export function transactionWithInfo<R>(info: Validator<unknown>): Validator<R> {
  const base = v.object({ transaction: v.nullable(v.anyObject) });
  return (x) => {
    const b = base(x);
    if (b) return b;
    const o = x as Record<string, unknown>;
    const key = 'compression_info' in o ? 'compression_info' : 'compressionInfo';
    const f = info(o[key]);
    if (f) f.path.push(key);
    return f;
  };
}
