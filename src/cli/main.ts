#!/usr/bin/env node
/**
 * `cairn <command>`: the process entry point. The commands and their dispatch live in
 * commands.ts (importable by tests without running anything); this file only runs it.
 */
import { describeError } from '../errors/index.js';
import { dispatch } from './commands.js';

dispatch(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    // A command reports its own errors; this is a command that failed to load or a bug.
    const d = describeError(err);
    process.stderr.write(`cairn: [${d.code}] ${d.message}\n`);
    process.exitCode = 1;
  },
);
