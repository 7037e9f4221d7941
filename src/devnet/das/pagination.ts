/**
 * DAS list pagination as the indexer does it: page-based (`page` from 1, `limit` up to 1,000) or
 * keyset (`before` / `after` / `cursor`, asset ids in binary order, which is why keyset paging needs the
 * `id` sort), sort by `id` (default), `created`, `recent_action`, `updated` or `none`, and
 * `options.showGrandTotal` for the number of matches rather than the number on the page.
 */
import { encodeBase58 } from '../../solana/index.js';
import type { DasAssetRecord } from './asset.js';
import { bool, compareBytes, int, invalid, obj, optB58, str } from '../params/indexer.js';

export type SortKey = 'id' | 'created' | 'recent_action' | 'updated' | 'none';

export interface ListQuery {
  page?: number;
  limit: number;
  sortBy: SortKey;
  direction: 'asc' | 'desc';
  before?: Uint8Array;
  after?: Uint8Array;
  cursor?: Uint8Array;
  beforeText?: string;
  afterText?: string;
  showGrandTotal: boolean;
  showUnverifiedCollections: boolean;
}

const SORT_KEYS: readonly SortKey[] = ['id', 'created', 'recent_action', 'updated', 'none'];
export const MAX_LIMIT = 1000;

/** Read the pagination/sort/options part of a list method's params. */
export function parseListQuery(p: Record<string, unknown>): ListQuery {
  const page = int(p.page, 'page', 1, 1_000_000_000);
  const limit = int(p.limit, 'limit', 1, MAX_LIMIT) ?? MAX_LIMIT;
  let sortBy: SortKey = 'id';
  let direction: 'asc' | 'desc' = 'asc';
  const sort = obj(p.sortBy, 'sortBy');
  if (sort) {
    const key = str(sort.sortBy, 'sortBy.sortBy');
    if (key !== undefined) {
      // recentAction is a spelling some clients send; it means recent_action.
      const k = key === 'recentAction' ? 'recent_action' : key;
      if (!SORT_KEYS.includes(k as SortKey)) throw invalid('sortBy.sortBy', `expected one of ${SORT_KEYS.join(', ')}, got ${JSON.stringify(key)}`);
      sortBy = k as SortKey;
    }
    const dir = str(sort.sortDirection, 'sortBy.sortDirection');
    if (dir !== undefined) {
      if (dir !== 'asc' && dir !== 'desc') throw invalid('sortBy.sortDirection', `expected "asc" or "desc", got ${JSON.stringify(dir)}`);
      direction = dir;
    }
  }
  const before = optB58(p.before, 'before');
  const after = optB58(p.after, 'after');
  const cursor = optB58(p.cursor, 'cursor');
  if (page !== undefined && (before || after || cursor)) {
    throw invalid('page', 'page-based and cursor-based (before/after/cursor) pagination cannot be mixed');
  }
  if ((before || after || cursor) && sortBy !== 'id') {
    throw invalid('sortBy.sortBy', `cursor-based pagination (before/after/cursor) needs the "id" sort, got ${JSON.stringify(sortBy)}`);
  }
  if (cursor && (before || after)) throw invalid('cursor', 'use either cursor or before/after, not both');
  const options = obj(p.options ?? p.displayOptions, 'options') ?? {};
  return {
    page,
    limit,
    sortBy,
    direction,
    before,
    after,
    cursor,
    beforeText: before ? (p.before as string) : undefined,
    afterText: after ? (p.after as string) : undefined,
    showGrandTotal: bool(options.showGrandTotal, 'options.showGrandTotal') ?? false,
    showUnverifiedCollections: bool(options.showUnverifiedCollections, 'options.showUnverifiedCollections') ?? false,
  };
}

function comparator(sortBy: SortKey): ((a: DasAssetRecord, b: DasAssetRecord) => number) | null {
  switch (sortBy) {
    case 'id':
      return (a, b) => compareBytes(a.idBytes, b.idBytes);
    case 'created':
      return (a, b) => a.order - b.order;
    case 'recent_action':
    case 'updated':
      return (a, b) => a.updatedSlot - b.updatedSlot || a.order - b.order;
    case 'none':
      return null;
  }
}

/** Apply a query to the matching records; returns the page's records and the result envelope fields. */
export function paginate(
  matching: DasAssetRecord[],
  q: ListQuery,
): { items: DasAssetRecord[]; envelope: Record<string, unknown> } {
  const cmp = comparator(q.sortBy);
  let list = cmp ? [...matching].sort(cmp) : [...matching];
  if (q.direction === 'desc' && cmp) list.reverse();
  const sign = q.direction === 'desc' ? -1 : 1;
  const grandTotal = list.length;
  let items: DasAssetRecord[];
  const envelope: Record<string, unknown> = {};
  if (q.before || q.after || q.cursor) {
    // Keyset: ids in the sort direction, strictly after `after`/`cursor`, strictly before `before`.
    const lower = q.after ?? q.cursor;
    if (lower) list = list.filter((r) => sign * compareBytes(r.idBytes, lower) > 0);
    if (q.before) {
      const upper = q.before;
      list = list.filter((r) => sign * compareBytes(r.idBytes, upper) < 0);
      // Walking backwards from `before` when no lower bound: the `limit` nearest items.
      items = lower ? list.slice(0, q.limit) : list.slice(Math.max(0, list.length - q.limit));
    } else {
      items = list.slice(0, q.limit);
    }
    if (q.beforeText) envelope.before = q.beforeText;
    if (q.afterText) envelope.after = q.afterText;
    // Keyset walking: the id to continue after, or null when this page reached the end.
    if (q.cursor || (!q.before && q.after)) {
      envelope.cursor = list.length > q.limit && items.length ? encodeBase58(items[items.length - 1].idBytes) : null;
    }
  } else {
    const page = q.page ?? 1;
    items = list.slice((page - 1) * q.limit, page * q.limit);
    envelope.page = page;
  }
  envelope.total = q.showGrandTotal ? grandTotal : items.length;
  if (q.showGrandTotal) envelope.grand_total = grandTotal;
  envelope.limit = q.limit;
  return { items, envelope };
}
