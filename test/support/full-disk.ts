/**
 * A full disk under a real journal file: every file opened through this layer shares one budget of
 * free bytes. A write larger than what is left is cut short (as write(2) does on a filling disk) and
 * the next one fails with ENOSPC; truncating gives the bytes back; `free(n)` makes room again.
 */
import { stat } from 'node:fs/promises';
import { openAppendFile, type OpenJournalFile } from '../../src/sender/journal/file/io.js';

export interface FullDisk {
  open: OpenJournalFile;
  /** Bytes still free. */
  readonly left: number;
  free(bytes: number): void;
  /** Files opened and not yet closed. */
  readonly openFiles: number;
}

export function fullDisk(freeBytes: number): FullDisk {
  let left = freeBytes;
  let openFiles = 0;
  const open: OpenJournalFile = async (path) => {
    const real = await openAppendFile(path);
    openFiles++;
    let size = await stat(path).then((s) => s.size, () => 0);
    return {
      async write(data) {
        if (left <= 0) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28 });
        const n = Math.min(left, data.length);
        const written = await real.write(data.subarray(0, n));
        left -= written;
        size += written;
        return written;
      },
      datasync: () => real.datasync(),
      async truncate(length) {
        await real.truncate(length);
        if (length < size) left += size - length;
        size = length;
      },
      async close() {
        openFiles--;
        await real.close();
      },
    };
  };
  return {
    open,
    get left() {
      return left;
    },
    free(bytes) {
      left += bytes;
    },
    get openFiles() {
      return openFiles;
    },
  };
}
