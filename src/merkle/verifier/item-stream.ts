/**
 * Items read from a byte stream as they arrive, never the whole input held: a JSON array of items, an
 * object keyed by id, either one inside the envelopes the service wraps them in (`{jsonrpc, result}`,
 * `{context, value}`, `{items}`), a single item object, or NDJSON (one JSON value per line, each an
 * item or such an envelope). A byte scanner tracks strings and nesting; only the current item's
 * bytes are kept (at most `maxItemBytes`) and parsed once complete — memory is one item plus the
 * caller's batches in flight, whatever the input's size. The input is capped by `maxBytes`, counted
 * as the bytes go by: `/dev/zero` is refused at its first byte (not JSON), an endless valid-looking
 * input at the cap, holding nothing either way.
 *
 * Items are objects or `null` (every kind's are). What an object is, is decided by its first key:
 * an envelope key (`jsonrpc`, `id`, `result`, `value`, `items`, `context`) makes it an envelope; an
 * id-like key (32 characters or more, as base58 ids are) a list keyed by id; any other the item.
 */
import { InputError, InputTooLargeError } from '../../errors/index.js';
import { parseJsonLossless } from '../input.js';

export interface StreamedItem {
  item: unknown;
  /** The id an object keyed by id gave the item. */
  key?: string;
}

export interface ItemStreamOptions {
  /** Most input bytes read (default 1 TiB). */
  maxBytes?: number;
  /** Most bytes of one item (default 16 MiB). */
  maxItemBytes?: number;
  /** The field errors name (default `input`). */
  field?: string;
  /**
   * Input that is not JSON from its first byte is counted to its end or the cap, not held, before
   * it is refused: a device such as `/dev/zero` is then refused at the cap (`INPUT_TOO_LARGE`)
   * rather than at its first byte, as a whole-input reader refuses it.
   */
  drainNonJson?: boolean;
}

/**
 * list: its values are items; keyed: its member values are items; envelope: look inside
 * `result`/`value`/`items`; undecided: an object whose first key decides; other: inside an item or ignored.
 */
type Role = 'list' | 'keyed' | 'envelope' | 'undecided' | 'other';
interface Frame {
  open: number;
  role: Role;
  expectKey: boolean;
  key: string | undefined;
}

const CONTAINER_KEYS = new Set(['result', 'value', 'items']);
const ENVELOPE_FIRST = new Set(['jsonrpc', 'id', 'result', 'value', 'items', 'context']);
const DEC = new TextDecoder();
const isWs = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
const show = (c: number): string => (c < 0x20 || c > 0x7e ? `byte ${c}` : JSON.stringify(String.fromCharCode(c)));

/**
 * Read the items of a JSON or NDJSON byte stream one by one.
 *
 * @example
 * for await (const { item, key } of readItems(createReadStream('proofs.json'))) console.log(key, item);
 */
export async function* readItems(source: AsyncIterable<Uint8Array | string>, options: ItemStreamOptions = {}): AsyncGenerator<StreamedItem> {
  const maxBytes = options.maxBytes ?? 2 ** 40;
  const maxItem = options.maxItemBytes ?? 16 * 1024 * 1024;
  const field = options.field ?? 'input';
  let garbage: InputError | null = null;
  const stack: Frame[] = [];
  let inString = false;
  let escaped = false;
  let keyBytes: number[] | null = null;
  let total = 0;
  let count = 0;
  let sawValue = false;
  // The item being captured (tentative: an undecided object that may yet be a keyed list).
  let parts: Uint8Array[] | null = null;
  let tentative = false;
  let from: number;
  let held = 0;
  let itemDepth = 0;
  let itemKey: string | undefined;
  let nullLeft = 0;
  const ready: StreamedItem[] = [];

  const push = (item: unknown): void => {
    ready.push(itemKey === undefined ? { item } : { item, key: itemKey });
    count++;
  };
  const capture = (at: number, depth: number, key: string | undefined, maybe: boolean): void => {
    parts = [];
    from = at;
    held = 0;
    itemDepth = depth;
    itemKey = key;
    tentative = maybe;
  };
  /** The role of a container opened inside `frame` (undefined: at the top level). */
  const roleOf = (open: number, frame: Frame | undefined): Role => {
    if (!frame || (frame.role === 'envelope' && frame.key !== undefined && CONTAINER_KEYS.has(frame.key))) return open === 0x5b ? 'list' : 'undecided';
    return 'other';
  };

  for await (const part of source) {
    const chunk = typeof part === 'string' ? Buffer.from(part) : part;
    total += chunk.length;
    if (total > maxBytes) throw new InputTooLargeError(field, maxBytes, undefined, 'raise the byte cap (--max-bytes) to take it');
    if (garbage) continue;
    from = 0;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i]!;
      if (nullLeft > 0) {
        if (--nullLeft === 0) push(null);
        continue;
      }
      if (inString) {
        if (escaped) escaped = false;
        else if (c === 0x5c) escaped = true;
        else if (c === 0x22) {
          inString = false;
          if (keyBytes) {
            const f = stack[stack.length - 1]!;
            f.key = DEC.decode(Uint8Array.from(keyBytes));
            keyBytes = null;
            if (f.role === 'undecided') {
              if (ENVELOPE_FIRST.has(f.key)) f.role = 'envelope';
              else if (f.key.length >= 32) f.role = 'keyed';
              else f.role = 'other';
              if (f.role !== 'other') parts = null; // a container: drop the tentative capture
              tentative = false; // else the object is the item: keep capturing
            }
          }
          continue;
        }
        if (keyBytes) keyBytes.push(c);
        continue;
      }
      if (isWs(c)) continue;
      const top = stack[stack.length - 1];
      if (c === 0x22) {
        inString = true;
        if (top && top.open === 0x7b && top.expectKey) {
          top.expectKey = false;
          if ((parts === null || tentative) && top.role !== 'other') keyBytes = [];
        }
        continue;
      }
      if (c === 0x2c) {
        if (top && top.open === 0x7b) top.expectKey = true;
        continue;
      }
      if (c === 0x3a) continue;
      if (c === 0x5d || c === 0x7d) {
        const f = stack.pop();
        if (!f || (f.open === 0x5b) !== (c === 0x5d)) throw new InputError('input', `not JSON: unbalanced ${show(c)} at byte ${total - chunk.length + i}`);
        if (parts !== null && stack.length === itemDepth - 1) {
          if (tentative) {
            // `{}` with no key at all: an (empty) item
            tentative = false;
          }
          (parts as Uint8Array[]).push(chunk.subarray(from, i + 1));
          let v: unknown;
          try {
            v = parseJsonLossless(DEC.decode(Buffer.concat(parts as Uint8Array[])));
          } catch (e) {
            throw new InputError(`items[${count}]`, `not JSON (${(e as Error).message})`);
          }
          parts = null;
          push(v);
        }
        continue;
      }
      // A value starts here.
      if (!top) {
        if (c !== 0x7b && c !== 0x5b) {
          const e = new InputError(field, `not JSON: expected [ or { at byte ${total - chunk.length + i}, got ${show(c)}`);
          if (!options.drainNonJson || sawValue) throw e;
          garbage = e;
          break;
        }
        sawValue = true;
      }
      if (parts === null && top && (top.role === 'list' || top.role === 'keyed')) {
        itemKey = top.role === 'keyed' ? top.key : undefined;
        if (c === 0x6e) {
          nullLeft = 3; // "ull"
          continue;
        }
        if (c !== 0x7b) throw new InputError(`items[${count}]`, `expected an object or null, got ${show(c)}`);
        capture(i, stack.length + 1, itemKey, false);
        stack.push({ open: c, role: 'other', expectKey: true, key: undefined });
        continue;
      }
      if (c === 0x5b || c === 0x7b) {
        const role = parts === null ? roleOf(c, top) : 'other';
        stack.push({ open: c, role, expectKey: c === 0x7b, key: undefined });
        if (role === 'undecided') capture(i, stack.length, undefined, true);
      }
      // scalars (numbers, true/false) outside items are skipped; inside, they are captured bytes
    }
    if (parts !== null) {
      const rest = chunk.slice(from);
      (parts as Uint8Array[]).push(rest);
      held += rest.length;
      if (held > maxItem) throw new InputTooLargeError(`items[${count}]`, maxItem, undefined, 'one item is larger than any proof');
    }
    // drained in order, then emptied (shift() per item would be quadratic in a chunk of nulls)
    for (const r of ready) yield r;
    ready.length = 0;
  }
  if (garbage) throw garbage;
  if (!sawValue) throw new InputError(field, 'not JSON: no value in the input');
  if (stack.length || inString || nullLeft) throw new InputError(field, 'not JSON: the input ends inside a value');
}
