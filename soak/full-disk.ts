/**
 * A small tmpfs for the full-disk phase: mounted on a fresh directory, nearly filled by a filler
 * file so a journal hits ENOSPC mid-run, and `release()` (deleting the filler) gives the space back.
 * `unmount()` always runs in the caller's `finally`.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface SmallDisk {
  dir: string;
  /** Bytes left for the journal once the filler is written. */
  headroom: number;
  release(): void;
  unmount(): void;
}

/**
 * Mount a tmpfs of `sizeBytes` at `dir` and leave `headroomBytes` free. Returns null when mounting
 * is not permitted (not root, or no CAP_SYS_ADMIN in this container).
 *
 * @example
 * const disk = mountSmallDisk(join(tmp, 'disk'), 2 << 20, 64 << 10);
 * try { … disk.release(); … } finally { disk?.unmount(); }
 */
export function mountSmallDisk(dir: string, sizeBytes: number, headroomBytes: number): SmallDisk | null {
  mkdirSync(dir, { recursive: true });
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeBytes}`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return null;
  }
  const filler = join(dir, 'filler');
  let mounted = true;
  const unmount = (): void => {
    if (!mounted) return;
    try {
      execFileSync('umount', [dir], { stdio: 'pipe' });
    } catch {
      // Busy (a process still holds a file there): detach now, the kernel frees it when released.
      execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
    }
    mounted = false;
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const free = (): number => {
      const s = statfsSync(dir);
      return s.bavail * s.bsize;
    };
    writeFileSync(filler, Buffer.alloc(Math.max(0, free() - headroomBytes)));
    return { dir, headroom: free(), release: () => rmSync(filler, { force: true }), unmount };
  } catch (e) {
    unmount();
    throw e;
  }
}
