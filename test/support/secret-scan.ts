/**
 * Look for a secret everywhere an error or a log could carry it: message, stack, `JSON.stringify`,
 * `String(e)`, `util.inspect` (what console.log prints), `structuredClone` (what a worker receives),
 * context (property names too, Maps and Sets), and the whole cause chain (AggregateError's errors
 * too). Returns the places it was found (empty = clean), so a test can
 * `expect(findSecret(e, key)).toEqual([])`.
 *
 * A secret counts as found in any encoding an echo can give it: raw, percent-encoded the
 * encodeURIComponent way or the form (URLSearchParams) way in upper- or lower-case hex, JSON-escaped,
 * hex, base64 and base64url (at any byte alignment inside a longer blob), and also as the part a
 * truncated echo leaves at its cut: a prefix or suffix worth 6 characters of the key or more.
 * Written independently of src/redact.ts on purpose: it is the oracle the redaction is checked by.
 */
import { inspect } from 'node:util';

/** The shortest cut of the key that still counts as a leak, in characters of the key. */
const MIN_CUT_CHARS = 6;

interface Form {
  name: string;
  text: string;
  /** Shortest prefix/suffix of `text` that counts: worth MIN_CUT_CHARS characters of the key. */
  cut: number;
}

const formsCache = new Map<string, Form[]>();

/** Every encoding of `secret` the scan looks for. */
export function secretForms(secret: string): Form[] {
  let forms = formsCache.get(secret);
  if (forms) return forms;
  const lowerHex = (s: string) => s.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase());
  const uri = encodeURIComponent(secret);
  const form = new URLSearchParams([['k', secret]]).toString().slice(2);
  const bytes = Buffer.from(secret, 'utf8');
  const list: [string, string][] = [
    ['raw', secret],
    ['uri', uri],
    ['uri-lower', lowerHex(uri)],
    ['form', form],
    ['form-lower', lowerHex(form)],
    ['json', JSON.stringify(secret).slice(1, -1)],
    ['hex', bytes.toString('hex')],
    ['HEX', bytes.toString('hex').toUpperCase()],
  ];
  for (let pad = 0; pad < 3; pad++) {
    // the characters that depend on the key's bits only, whatever comes before or after it
    const padded = Buffer.concat([Buffer.alloc(pad, 0x41), bytes]);
    const from = Math.ceil((pad * 8) / 6);
    const to = Math.floor(((pad + bytes.length) * 8) / 6);
    list.push([`base64@${pad}`, padded.toString('base64').slice(from, to)]);
    list.push([`base64url@${pad}`, padded.toString('base64url').slice(from, to)]);
  }
  forms = list.map(([name, text]) => ({
    name,
    text,
    cut: Math.min(text.length, Math.max(MIN_CUT_CHARS, Math.ceil((MIN_CUT_CHARS * text.length) / secret.length))),
  }));
  formsCache.set(secret, forms);
  return forms;
}

/** Which forms of `secret` (whole, or cut to a prefix or suffix) occur in `text`. */
function formsIn(text: string, secret: string): string[] {
  const found: string[] = [];
  for (const f of secretForms(secret)) {
    if (text.includes(f.text)) found.push(f.name);
    else if (text.includes(f.text.slice(0, f.cut))) found.push(`${f.name} prefix`);
    else if (text.includes(f.text.slice(-f.cut))) found.push(`${f.name} suffix`);
  }
  return found;
}

/** Objects visited per scan: the scan of a huge logged value stays bounded. */
const MAX_NODES = 2_000;

export function findSecret(value: unknown, secret: string, where = '$', seen = new Set<unknown>()): string[] {
  const hits: string[] = [];
  const check = (label: string, text: string | undefined): void => {
    if (!text) return;
    const forms = formsIn(text, secret);
    if (forms.length) hits.push(`${label} (${forms.join(', ')})`);
  };
  if (typeof value === 'string') {
    check(where, value);
    return hits;
  }
  if (value === null || typeof value !== 'object' || seen.has(value) || seen.size >= MAX_NODES) return hits;
  seen.add(value);
  if (value instanceof Error) {
    check(`${where}.message`, value.message);
    check(`${where}.stack`, value.stack);
    check(`${where} String()`, String(value));
    try {
      const clone = structuredClone(value);
      check(`${where} structuredClone`, inspect(clone, { depth: 8 }));
    } catch {
      /* not cloneable (a function inside): nothing crosses a worker boundary that way either */
    }
  }
  try {
    check(`${where} JSON`, JSON.stringify(value, (_k, x) => (typeof x === 'bigint' ? x.toString() : x)));
  } catch {
    /* circular: inspect below covers it */
  }
  check(`${where} inspect`, inspect(value, { depth: 8, showHidden: false }));
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') {
    try {
      hits.push(...findSecret(toJSON.call(value), secret, `${where}.toJSON()`, seen));
    } catch {
      /* a throwing toJSON: JSON.stringify above saw the same */
    }
  }
  if (value instanceof Map) {
    for (const [k, x] of value) {
      hits.push(...findSecret(k, secret, `${where}<key>`, seen));
      hits.push(...findSecret(x, secret, `${where}<value>`, seen));
    }
  } else if (value instanceof Set) {
    for (const x of value) hits.push(...findSecret(x, secret, `${where}<member>`, seen));
  }
  for (const key of Object.getOwnPropertyNames(value)) {
    check(`${where} property name`, key);
    if (key === 'stack' || key === 'message') continue;
    let x: unknown;
    try {
      x = (value as Record<string, unknown>)[key];
    } catch {
      continue;
    }
    hits.push(...findSecret(x, secret, `${where}.${key}`, seen));
  }
  const cause = (value as { cause?: unknown }).cause;
  if (cause !== undefined) hits.push(...findSecret(cause, secret, `${where}.cause`, seen));
  return hits;
}

/** A logger that keeps every line, for scanning afterwards. */
export function recordingLogger(): { lines: string[]; log: (line: string) => void } {
  const lines: string[] = [];
  return { lines, log: (line) => lines.push(line) };
}
