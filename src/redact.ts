/**
 * Scrubbing registered secrets (API keys) out of text and values, in every form an echo can give
 * them: raw, percent-encoded the encodeURIComponent way and the form (URLSearchParams) way with
 * upper- or lower-case hex, JSON-escaped, hex, base64 and base64url (at each of the three byte
 * alignments inside a longer blob), and also the piece a truncated echo leaves at its cut: any prefix
 * or suffix of one of those worth 6 characters of the key or more.
 *
 * Values are walked within fixed bounds (depth, entries, characters), so redacting is never the slow
 * or unbounded part of building an error; what lies beyond a bound is replaced by a marker, never
 * passed through unread.
 */

/** The shortest piece of a key (in key characters) that is scrubbed where an echo was cut. */
const MIN_CUT_CHARS = 6;
/** Bounds of one value walk: nesting, values visited, characters read, characters per string. */
const REDACT_MAX_DEPTH = 10;
const REDACT_MAX_ENTRIES = 10_000;
const REDACT_MAX_CHARS = 1 << 20;
const REDACT_MAX_STRING = 16_384;

/** One encoding of one secret, with the pieces a search starts from. */
interface Form {
  text: string;
  /** Its first and last `cut` characters: every occurrence of either is scrubbed, extended as far as it matches. */
  head: string;
  tail: string;
}

const secrets = new Set<string>();
let forms: Form[] = [];
/** Longest form: a text cut this far beyond a limit still holds every form that crosses the limit whole. */
let longest = 0;
/** The UTF-8 bytes of each secret, for byte arrays. */
let secretBytes: Buffer[] = [];

/** Secrets registered here are scrubbed from every message, context and log line cairn produces. */
export function registerSecret(secret: string | undefined): void {
  if (typeof secret !== 'string' || secret.length < 4 || secrets.has(secret)) return;
  secrets.add(secret);
  const seen = new Set(forms.map((f) => f.text));
  for (const text of encodingsOf(secret)) {
    if (seen.has(text)) continue;
    seen.add(text);
    const cut = Math.min(text.length, Math.max(MIN_CUT_CHARS, Math.ceil((MIN_CUT_CHARS * text.length) / secret.length)));
    forms.push({ text, head: text.slice(0, cut), tail: text.slice(-cut) });
    longest = Math.max(longest, text.length);
  }
  // longer forms first: where two overlap, the longer one decides the span
  forms = forms.sort((a, b) => b.text.length - a.text.length);
  secretBytes = [...secrets].map((s) => Buffer.from(s, 'utf8'));
}

/** The registered secrets, for leak checks. Internal: not re-exported from the package root. */
export function registeredSecrets(): readonly string[] {
  return [...secrets];
}

function encodingsOf(secret: string): string[] {
  const lowerHex = (s: string): string => s.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase());
  const uri = encodeURIComponent(secret);
  // URLSearchParams encodes ~ ( ) ! ' that encodeURIComponent leaves alone, and a space as +
  const form = new URLSearchParams([['k', secret]]).toString().slice(2);
  const bytes = Buffer.from(secret, 'utf8');
  const hex = bytes.toString('hex');
  const out = [secret, uri, lowerHex(uri), form, lowerHex(form), JSON.stringify(secret).slice(1, -1), hex, hex.toUpperCase()];
  for (let pad = 0; pad < 3; pad++) {
    // inside a longer blob the key starts at any byte offset: keep the characters made of its bits only
    const padded = Buffer.concat([Buffer.alloc(pad), bytes]);
    const from = Math.ceil((pad * 8) / 6);
    const to = Math.floor(((pad + bytes.length) * 8) / 6);
    out.push(padded.toString('base64').slice(from, to), padded.toString('base64url').slice(from, to));
  }
  return out.filter((t) => t.length >= 4);
}

const API_KEY_PARAM = /(api-key(?:=|%3D))[^&\s"'#<>]*/gi;

/**
 * `text` with every registered secret (in any of its forms, whole or cut) and every `api-key=`
 * query value replaced by `***`.
 */
export function redact(text: string): string {
  const out = text.replace(API_KEY_PARAM, '$1***');
  if (forms.length === 0) return out;
  let spans: [number, number][] | undefined;
  for (const f of forms) {
    for (let i = out.indexOf(f.head); i >= 0; i = out.indexOf(f.head, i + 1)) {
      let j = f.head.length;
      while (j < f.text.length && i + j < out.length && out.charCodeAt(i + j) === f.text.charCodeAt(j)) j++;
      (spans ??= []).push([i, i + j]);
    }
    for (let i = out.indexOf(f.tail); i >= 0; i = out.indexOf(f.tail, i + 1)) {
      let start = i;
      let k = f.text.length - f.tail.length;
      while (k > 0 && start > 0 && out.charCodeAt(start - 1) === f.text.charCodeAt(k - 1)) {
        start--;
        k--;
      }
      (spans ??= []).push([start, i + f.tail.length]);
    }
  }
  if (!spans) return out;
  spans.sort((a, b) => a[0] - b[0]);
  let result = '';
  let at = 0;
  for (const [s, e] of spans) {
    if (e <= at) continue;
    if (s >= at) result += out.slice(at, s) + '***';
    at = e;
  }
  return result + out.slice(at);
}

/**
 * At most `max` characters of `text`, redacted. The cut is made after redacting a little more than
 * `max`, so a secret crossing the limit is scrubbed whole instead of leaving its start behind.
 */
export function redactSlice(text: string, max: number): string {
  if (text.length <= max) return redact(text);
  return redact(text.slice(0, max + longest + 16)).slice(0, max);
}

/** What one walk may still spend, and the objects on the current path (a repeat is a cycle). */
export interface RedactBudget {
  entries: number;
  chars: number;
  path: Set<object>;
  /** Errors already scrubbed by this walk: a cause chain that loops is walked once. */
  errors: Map<Error, Error>;
}

export function newBudget(): RedactBudget {
  return { entries: REDACT_MAX_ENTRIES, chars: REDACT_MAX_CHARS, path: new Set(), errors: new Map() };
}

/** Marks errors that were redacted when they were built (CairnError): kept as they are. */
export const REDACTED = Symbol.for('cairn.redacted');

/** At most `max` characters of `text` (saying how many were cut), redacted. */
export function redactText(text: string, max: number): string {
  return text.length <= max ? redact(text) : `${redactSlice(text, max)}… [${text.length - max} more characters]`;
}

/** A string within the budget. */
function redactString(s: string, b: RedactBudget): string {
  if (b.chars <= 0) return '[redaction budget spent]';
  const take = Math.min(s.length, REDACT_MAX_STRING, b.chars);
  b.chars -= take;
  return redactText(s, take);
}

/**
 * A copy of `v` that carries no registered secret, for error contexts and causes: strings redacted,
 * property names too, bigints as decimal strings, arrays, Maps and Sets copied, errors scrubbed (see
 * `redactError`), byte arrays with a secret's bytes overwritten. Cycles, depth beyond
 * `REDACT_MAX_DEPTH` and anything past the budget become short markers, so the result is always
 * safe to `JSON.stringify`.
 */
export function redactValue(v: unknown, b: RedactBudget = newBudget(), depth = 0): unknown {
  if (typeof v === 'string') return redactString(v, b);
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'symbol') return redactString(v.toString(), b);
  if (v === null || typeof v !== 'object') return v;
  if (depth >= REDACT_MAX_DEPTH) return '[nested too deep]';
  if (b.path.has(v)) return '[circular]';
  try {
    if (v instanceof Error) return redactError(v, b, depth);
    if (ArrayBuffer.isView(v)) return redactBytes(v);
    if (v instanceof Date || v instanceof ArrayBuffer) return v;
    // a URL, a PublicKey and the like say what they are through toJSON; their fields may be private
    const toJSON = (v as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function' && !Array.isArray(v) && Object.getPrototypeOf(v) !== Object.prototype) return redactValue(toJSON.call(v), b, depth + 1);
    b.path.add(v);
    try {
      return redactContainer(v, b, depth + 1);
    } finally {
      b.path.delete(v);
    }
  } catch {
    // a revoked proxy or a throwing getter: nothing readable, so nothing to leak
    return '[unreadable]';
  }
}

function redactContainer(v: object, b: RedactBudget, depth: number): unknown {
  if (Array.isArray(v)) {
    const out: unknown[] = [];
    for (let i = 0; i < v.length; i++) {
      if (--b.entries < 0) {
        out.push(`[${v.length - i} more items]`);
        break;
      }
      out.push(redactValue(v[i], b, depth));
    }
    return out;
  }
  if (v instanceof Map) {
    const out = new Map<unknown, unknown>();
    for (const [k, x] of v) {
      if (--b.entries < 0) {
        out.set('…', `${v.size - out.size} more entries`);
        break;
      }
      out.set(redactValue(k, b, depth), redactValue(x, b, depth));
    }
    return out;
  }
  if (v instanceof Set) {
    const out = new Set<unknown>();
    for (const x of v) {
      if (--b.entries < 0) {
        out.add(`[${v.size - out.size} more members]`);
        break;
      }
      out.add(redactValue(x, b, depth));
    }
    return out;
  }
  const out: Record<string, unknown> = {};
  const keys = Object.keys(v);
  for (let i = 0; i < keys.length; i++) {
    if (--b.entries < 0) {
      out['…'] = `${keys.length - i} more entries`;
      break;
    }
    const k = keys[i]!;
    out[uniqueKey(out, redactString(k, b))] = redactValue((v as Record<string, unknown>)[k], b, depth);
  }
  return out;
}

/** Two names that redact alike (`***`) keep both values. */
function uniqueKey(out: Record<string, unknown>, k: string): string {
  if (!(k in out)) return k;
  let n = 2;
  while (`${k}#${n}` in out) n++;
  return `${k}#${n}`;
}

/** The same view, or a copy with each secret's bytes overwritten by `*` when it holds one. */
function redactBytes(v: ArrayBufferView): ArrayBufferView {
  if (secretBytes.length === 0) return v;
  const bytes = Buffer.from(v.buffer, v.byteOffset, v.byteLength);
  let copy: Buffer | undefined;
  for (const s of secretBytes) {
    for (let i = bytes.indexOf(s); i >= 0; i = bytes.indexOf(s, i + 1)) (copy ??= Buffer.from(bytes)).fill(0x2a, i, i + s.length);
  }
  return copy ?? v;
}

/**
 * An error with no secret in its message, stack, own properties (names and values), cause chain or
 * AggregateError `errors`. Scrubbed in place when it can be (so the caller's own reference is clean
 * too), else (frozen, read-only properties) replaced by a copy with the same prototype. Errors built
 * as CairnError were redacted when they were made and are kept as they are.
 */
function redactError(e: Error, b: RedactBudget = newBudget(), depth = 0): Error {
  if ((e as { [REDACTED]?: boolean })[REDACTED]) return e;
  const done = b.errors.get(e);
  if (done) return done;
  const names = Object.getOwnPropertyNames(e);
  const inPlace = Object.isExtensible(e) && names.every((n) => Object.getOwnPropertyDescriptor(e, n)?.configurable);
  const target = inPlace ? e : (Object.setPrototypeOf(new Error(), Object.getPrototypeOf(e)) as Error);
  b.errors.set(e, target);
  b.path.add(e);
  try {
    for (const name of names) {
      const d = Object.getOwnPropertyDescriptor(e, name)!;
      let value: unknown;
      try {
        value = d.get ? d.get.call(e) : d.value;
      } catch {
        value = '[unreadable]';
      }
      const key = redactString(name, b);
      if (key !== name && inPlace) delete (e as unknown as Record<string, unknown>)[name];
      Object.defineProperty(target, key, { value: redactValue(value, b, depth + 1), writable: true, enumerable: d.enumerable, configurable: true });
    }
  } finally {
    b.path.delete(e);
  }
  return target;
}
