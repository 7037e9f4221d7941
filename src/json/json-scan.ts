/**
 * `scanJson`: a JSON text's structure without decoding it. The main thread of the verifier pool scans
 * a response once (natively when the addon is built: a fraction of a microsecond per proof), finds the
 * items through the envelopes, and tells each worker where its items sit in the response, which the
 * workers share and decode.
 * `JSON.parse` of the whole response on the main thread cost more than everything else it does per
 * item, and it does not scale with threads. Once the items' container is known, the rest of its items
 * can be skimmed (`JsonScan.skimChildrenOf`), in about a third of the scanner's time.
 *
 * `JsonScan` is the same scan done a part at a time; both fill a `JsonTape` (json-tape.ts).
 */
import { CairnError, ErrorCodes, InputError } from '../errors/index.js';
import { JsonTape, takeRememberedTape, type ScanOptions } from './json-tape.js';
import { numberTooLong, tooDeep } from './limit-error.js';
import { pickScanner, type ScanState } from './scanner-choice.js';
import { ENTRY, SCAN_ERROR_TEXT, ScanError, SUSPENDED, TAPE_FULL } from './tape-format.js';
import { releaseTape, takeTape } from './tape-pool.js';

/**
 * Tape capacity to start with, in entries per input byte: service responses run 12–36 bytes per
 * entry (getAsset 12, proofs ~35), so one pass is enough for them; a denser text (long arrays of small
 * numbers) is scanned again with room for the worst case.
 */
const FIRST_GUESS = 1 / 8;

/**
 * Scan a JSON text (UTF-8 bytes). Throws `InputError` (field `json`) naming the byte offset of the
 * first syntax error, where `JSON.parse` would have refused the text.
 *
 * @example
 * const t = scanJson(await res.bytes());
 * t.type(0) === T_OBJECT;
 */
export function scanJson(bytes: Uint8Array, options: ScanOptions = {}): JsonTape {
  const known = takeRememberedTape(bytes);
  if (known) {
    if (known.decodeBelow === (options.decodeBelow ?? 4096)) return known;
    const again = new JsonTape(bytes, known.tape, known.count, options);
    again.mayHoldLong = known.mayHoldLong;
    return again;
  }
  const scan = new JsonScan(bytes, options);
  scan.advance(Infinity);
  return scan.tape;
}

/**
 * A scan done a part at a time: `advance(stopAt)` scans on until the first value that ends at or past
 * byte `stopAt` inside a container, and `tape` meanwhile holds every entry so far — those still open
 * (a container whose end is not reached) end at 0. The verifier sends out the first items of a large
 * response while it scans the rest.
 *
 * @example
 * const s = new JsonScan(body);
 * while (!s.advance(s.reached + (1 << 20))) useEntriesSoFar(s.tape);
 */
export class JsonScan {
  readonly tape: JsonTape;
  private readonly scanner = pickScanner();
  private state: ScanState;
  private finished = false;

  constructor(
    readonly bytes: Uint8Array,
    options: ScanOptions = {},
  ) {
    this.state = this.scanner.newState();
    this.tape = new JsonTape(bytes, takeTape(Math.max(64, Math.ceil(bytes.length * FIRST_GUESS)) * ENTRY), 0, options);
  }

  /** True once the whole text is scanned. */
  get done(): boolean {
    return this.finished;
  }

  /**
   * True once a skimming scan had to start over (its tape grew, or it failed): entries read before
   * then may not be the entries now.
   */
  restarted = false;

  /**
   * From here on, the objects directly inside the open container `e` are skimmed, not scanned
   * (json_scan.h): one entry each, their ends found by brackets alone in about a third of the time, their
   * grammar left to whoever parses them. The verifier asks for it once it knows where the items are,
   * since its workers parse every item anyway. False when the scanner cannot skim (the portable one).
   *
   * A failure after that cannot be trusted to name the right byte, so the scan then starts over
   * without skimming (`restarted`) and reports the error a plain scan finds.
   */
  skimChildrenOf(e: number): boolean {
    if (this.finished || !this.scanner.skim(this.state, e)) return false;
    this.tape.skimmed = true;
    return true;
  }

  /** The byte offset scanned up to. */
  get reached(): number {
    return this.finished ? this.bytes.length : this.scanner.reached(this.state);
  }

  /**
   * Scan on (see above); true once the whole text is scanned. Throws `InputError` (field `json`)
   * naming the byte offset of the first syntax error, where `JSON.parse` would have refused the text.
   */
  advance(stopAt: number): boolean {
    if (this.finished) return true;
    const t = this.tape;
    const { scan } = this.scanner;
    // Past the last byte: no value ends there, so the scan runs to the end (the addon takes integers).
    const stop = Math.min(Math.ceil(stopAt), this.bytes.length + 1);
    for (;;) {
      const r = scan(this.bytes, t.tape, this.state as never, stop);
      if (r >= 0 || r === SUSPENDED) {
        t.count = r >= 0 ? r : this.countSoFar();
        t.mayHoldLong = this.scanner.sawLong(this.state);
        this.finished = r >= 0;
        return this.finished;
      }
      if (r !== TAPE_FULL && t.skimmed) {
        // Skimmed: the error may sit inside an object the skim passed over. Start over, skimming
        // nothing, for the error a plain scan gives (the one JSON.parse's users would see).
        this.startOver();
        continue;
      }
      if (r !== TAPE_FULL) {
        const at = t.tape[0]!;
        const end = t.tape[1]!;
        releaseTape(t.tape);
        this.finished = true;
        const code = (-r - 2) as ScanError;
        // Over a limit (tape-format.ts) is not a syntax error: INPUT_TOO_LARGE, as the string parsers say.
        if (code === ScanError.NumberTooLong) throw numberTooLong(at, end - at, latin1(this.bytes, at, Math.min(end, at + 33)), 'byte');
        if (code === ScanError.TooDeep) throw tooDeep(at, 'byte');
        throw new InputError('json', `not valid JSON: ${SCAN_ERROR_TEXT[code] ?? 'syntax error'} at byte ${at}`);
      }
      // Out of room: scan again from the start with more room, growing 4× but to at most one entry
      // per byte (the worst case, "[[[[…"; a valid "[1,1,…]" needs one per 2 bytes). The entries come
      // out the same, so any already read stay valid (unless the scan was skimming: see `restarted`).
      // A tape sized for the worst case cannot fill: if it does, the scanner is wrong, and looping
      // on would hang the thread (65 unclosed brackets did, on a tape grown to one per 2 bytes).
      const have = Math.floor(t.tape.length / ENTRY);
      const most = this.bytes.length + 2;
      if (have >= most) throw new CairnError(ErrorCodes.MERKLE_INVALID_INPUT, `JSON scan: a tape of ${have} entries filled on ${this.bytes.length} bytes`);
      releaseTape(t.tape);
      t.tape = takeTape(Math.min(most, Math.max(have * 4, Math.ceil(this.bytes.length / 2) + 2)) * ENTRY);
      this.startOver();
    }
  }

  /** Scan again from the first byte, skimming nothing. */
  private startOver(): void {
    this.state = this.scanner.newState();
    if (this.tape.skimmed) this.restarted = true;
    this.tape.skimmed = false;
    this.tape.count = 0;
  }

  private countSoFar(): number {
    const s = this.state;
    return s instanceof Uint32Array ? s[2]! : s.count;
  }
}

/** Bytes [a, b) as Latin-1 (a number literal's: ASCII). */
const latin1 = (b: Uint8Array, a: number, z: number): string => Buffer.from(b.buffer, b.byteOffset + a, z - a).toString('latin1');
