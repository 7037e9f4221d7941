/**
 * vitest's file order for this suite: the longest files first. The forks take files from one queue,
 * so a long file started last decides when the run ends: on a fresh clone vitest has no timing
 * cache and starts the largest files first, which put the two ~45 s soak files (30 lines each) at
 * the very end of a 420 s run. Durations come from test/support/durations.json (written from a run's
 * report by `node test/support/durations.mjs .vitest-report.json`), then from vitest's own cache of
 * the last local run, then a default for a file neither knows. The order changes nothing a test sees.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** A file in neither the table nor the cache (a new one): most files take well under a second. */
const UNKNOWN_MS = 1_000;

const table: Record<string, number> = JSON.parse(readFileSync(new URL('./durations.json', import.meta.url), 'utf8')).files;

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const expected = (spec: TestSpecification): number => {
      const path = relative(root, spec.moduleId).split('\\').join('/');
      return table[path] ?? this.ctx.cache.getFileTestResults(`${spec.project.name}:${path}`)?.duration ?? UNKNOWN_MS;
    };
    const ms = new Map(files.map((f) => [f, expected(f)]));
    return [...files].sort((a, b) => ms.get(b)! - ms.get(a)!);
  }
}
