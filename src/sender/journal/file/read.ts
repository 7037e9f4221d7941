/**
 * Reading a journal without holding it: the file is read in fixed chunks and each line is handed
 * over as it is found, so opening a journal of any size costs memory for the intents it keeps, not
 * for its text (a 305 MB journal read whole took 359 MB of heap, and past ~400k intents the text no
 * longer fit in one string at all).
 *
 * Every record ends with '\n' and is fsync'd whole before it counts, so bytes after the last '\n'
 * are a torn write that never became durable: they are reported (`tornAt`) for the opener to cut.
 * A bad line anywhere else is damage, not a torn write, and is an error naming the line.
 */
import { open } from 'node:fs/promises';
import { CairnError, ErrorCodes } from '../../../errors/index.js';
import type { JournalRecord } from '../records.js';

const CHUNK = 1 << 20;
/** No record comes near this (a signed record of a 1,232-byte transaction is ~2 KB). */
const MAX_LINE = 16 << 20;

export interface ReadResult {
  /** Records handed over. */
  records: number;
  /** Byte length of the durable part (up to and including the last '\n'). */
  durableBytes: number;
  /** Set when bytes follow the last '\n' (a torn write): where they start. */
  tornAt?: number;
}

/** Parse one line; `undefined` when it is not a record. */
function parseLine(line: string): JournalRecord | undefined {
  try {
    const r = JSON.parse(line) as JournalRecord;
    return r !== null && typeof r === 'object' && typeof r.id === 'string' && typeof r.op === 'string' ? r : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Stream a journal file's records to `onRecord`, in file order. A missing file has no records.
 *
 * @example
 * const { records } = await streamJournal('sends.jsonl', (r) => applyRecord(views, r));
 */
export async function streamJournal(path: string, onRecord: (r: JournalRecord) => void): Promise<ReadResult> {
  let fh;
  try {
    fh = await open(path, 'r');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { records: 0, durableBytes: 0 };
    throw e;
  }
  try {
    const buf = Buffer.allocUnsafe(CHUNK);
    // A line split across chunks is carried as bytes, so a UTF-8 sequence cut in two joins whole.
    let carry: Buffer[] = [];
    let carryBytes = 0;
    let pos = 0;
    let lineNo = 0;
    let records = 0;
    let durableBytes = 0;
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, CHUNK, pos);
      if (bytesRead === 0) break;
      pos += bytesRead;
      const chunk = buf.subarray(0, bytesRead);
      let start = 0;
      for (let nl = chunk.indexOf(0x0a); nl !== -1; nl = chunk.indexOf(0x0a, start)) {
        const line = carryBytes > 0 ? Buffer.concat([...carry, chunk.subarray(start, nl)]).toString('utf8') : chunk.toString('utf8', start, nl);
        lineNo++;
        durableBytes += carryBytes + (nl - start) + 1;
        carry = [];
        carryBytes = 0;
        start = nl + 1;
        if (line.length === 0) continue;
        const r = parseLine(line);
        if (!r) {
          throw new CairnError(ErrorCodes.SENDER_JOURNAL, `journal ${path}: line ${lineNo} is not a record`, { context: { path, line: lineNo } });
        }
        records++;
        onRecord(r);
      }
      if (start < bytesRead) {
        carry.push(Buffer.from(chunk.subarray(start)));
        carryBytes += bytesRead - start;
      }
      if (carryBytes > MAX_LINE) {
        throw new CairnError(ErrorCodes.SENDER_JOURNAL, `journal ${path}: line ${lineNo + 1} is longer than ${MAX_LINE} bytes`, { context: { path, line: lineNo + 1 } });
      }
    }
    return carryBytes > 0 ? { records, durableBytes, tornAt: durableBytes } : { records, durableBytes };
  } finally {
    await fh.close();
  }
}
