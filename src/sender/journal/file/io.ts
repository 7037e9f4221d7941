/**
 * The journal's file layer: the few operations the journal needs from a file, so a test or the soak
 * campaign can put a full disk (short writes, then ENOSPC) under a real journal. `write` may write
 * fewer bytes than given, as write(2) does; `writeAll` loops until every byte is down or throws.
 */
import { open } from 'node:fs/promises';
import { dirname } from 'node:path';

export interface JournalFile {
  /** Append bytes at the end; resolves with how many were written (may be fewer than given). */
  write(data: Uint8Array): Promise<number>;
  datasync(): Promise<void>;
  /** Cut the file to `length` bytes (the next write appends there). */
  truncate(length: number): Promise<void>;
  close(): Promise<void>;
}

/** Opens (creating if needed) the journal file for appending. */
export type OpenJournalFile = (path: string) => Promise<JournalFile>;

/** The real file: `O_APPEND`, `fdatasync`, `ftruncate`. */
export const openAppendFile: OpenJournalFile = async (path) => {
  const fh = await open(path, 'a');
  return {
    write: async (data) => (await fh.write(data)).bytesWritten,
    datasync: () => fh.datasync(),
    truncate: (length) => fh.truncate(length),
    close: () => fh.close(),
  };
};

/** Write every byte of `data`, or throw: a short write is continued, a zero-byte write is an error. */
export async function writeAll(file: JournalFile, data: Uint8Array): Promise<void> {
  let off = 0;
  while (off < data.length) {
    const n = await file.write(off === 0 ? data : data.subarray(off));
    if (!Number.isInteger(n) || n <= 0) throw Object.assign(new Error(`write returned ${String(n)} with ${data.length - off} bytes left`), { code: 'EIO' });
    off += n;
  }
}

/** fsync the directory, so a newly created or renamed file's name is durable too. */
export async function syncDir(path: string): Promise<void> {
  const dir = await open(dirname(path), 'r');
  try {
    await dir.sync();
  } finally {
    await dir.close();
  }
}
