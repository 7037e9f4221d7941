/**
 * `inspectBody`: a first look at a raw response before verifying it — how many items of a kind it
 * holds and how large it is — found exactly as `verify` finds them, so unusable input is refused
 * here with the error `verify` would give. The scan is kept in the answer: handed to the verifier
 * as its input, it is used instead of a second scan (once; the body is scanned again after that).
 */
import { InputError } from '../../errors/index.js';
import type { KeyedItem } from '../kinds/envelopes.js';
import { describe } from '../fields.js';
import { getKind, type KindName, type KindSpec } from '../kinds/index.js';
import { extractFromTape, scanDecodeBelow, type JsonItems } from './raw/extract.js';
import { scanJson, type JsonTape } from '../../json/index.js';

/** What a raw response holds for one kind. */
export interface BodyInspection {
  /** The kind the items were looked for as. */
  readonly kind: KindName;
  /** Items of the kind found (a null item counts: it is an invalid verdict, "not found"). */
  readonly items: number;
  /**
   * Batches of the kind's default size the items make: a verifier needs no more threads than this,
   * and none at all for one batch (starting a worker costs more than verifying a batch).
   */
  readonly batches: number;
  /** The body's length in bytes (what the verifier's `maxBytes` is compared with). */
  readonly bytes: number;
  /** The body itself, as bytes. */
  readonly body: Uint8Array;
}

/** The inspection with its scan, which the verifier takes (answers.ts). */
export class InspectedBody implements BodyInspection {
  readonly items: number;
  readonly batches: number;
  readonly bytes: number;
  #found: JsonItems | KeyedItem[] | null;

  constructor(
    readonly kind: KindName,
    readonly body: Uint8Array,
    found: JsonItems | KeyedItem[],
    batchSize: number,
  ) {
    this.items = Array.isArray(found) ? found.length : found.values.length;
    this.batches = Math.ceil(this.items / batchSize);
    this.bytes = body.length;
    this.#found = found;
  }

  /**
   * The items found, for a verifier reading `spec` with the default JSON options (else null: it
   * scans the body itself). Handed out once: the verifier releases the scan when it is done.
   */
  takeFound(spec: KindSpec, jsonOptions: { parseBelow?: number }): JsonItems | KeyedItem[] | null {
    const found = this.#found;
    if (!found || spec.name !== this.kind || jsonOptions.parseBelow !== undefined) return null;
    if (!Array.isArray(found) && found.tape.isReleased) return (this.#found = null);
    this.#found = null;
    return found;
  }
}

/**
 * Count the items of `kind` in a raw response (`Uint8Array`/`ArrayBuffer` of JSON text: a JSON-RPC
 * response, a bare result, `{context, value}`, an item, an array, a paged list or an object keyed
 * by id). Throws `InputError` when the body is not JSON (field `json`, naming the byte), holds no
 * items of the kind, or is not bytes (field `body`); `INPUT_TOO_LARGE` for JSON past cairn's limits.
 * Pass the answer to `verify`/`verifyTable`/`verifyBatches` as their input and the body is not
 * scanned a second time.
 *
 * @example
 * const body = inspectBody('asset-proof', await res.bytes());
 * const v = createVerifier({ threads: body.batches <= 1 ? 0 : Math.min(availableParallelism(), body.batches) });
 * const verdicts = await v.verify('asset-proof', body);
 */
export function inspectBody(kind: KindName, body: Uint8Array | ArrayBuffer): BodyInspection {
  const spec = getKind(kind);
  const bytes = body instanceof ArrayBuffer ? new Uint8Array(body) : body instanceof Uint8Array ? body : null;
  if (!bytes) throw new InputError('body', `expected the response's JSON text as bytes (Uint8Array or ArrayBuffer), got ${describe(body)}`, { expected: 'Uint8Array | ArrayBuffer' });
  const found = extractFromTape(spec, scanJson(bytes, { decodeBelow: scanDecodeBelow() }));
  return new InspectedBody(spec.name, bytes, found, spec.batchSize);
}

/**
 * `inspectBody` of the value at entry `entry` of a body already scanned whole (`scanJson` with its
 * default options): inspected as a body holding that value alone would be, its scan kept for the
 * verifier (the proxy looks at an answer's envelope through one scan, and verifies its result from
 * it). The tape is the verifier's from here: it releases it once done (parsed items need none).
 *
 * @example
 * const tape = scanJson(answer);
 * const verdicts = await verifier.verify('asset-proof', inspectScanned('asset-proof', tape, tape.member(0, 'result')));
 */
export function inspectScanned(kind: KindName, tape: JsonTape, entry: number): InspectedBody {
  const spec = getKind(kind);
  if (tape.decodeBelow !== scanDecodeBelow()) throw new InputError('tape', `expected a tape scanned with decodeBelow ${scanDecodeBelow()}, got ${tape.decodeBelow}`);
  const found = extractFromTape(spec, tape, {}, entry);
  if (Array.isArray(found)) tape.release();
  return new InspectedBody(spec.name, tape.bytes, found, spec.batchSize);
}
