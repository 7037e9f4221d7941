/**
 * sender/'s internal surface: what cairn's other parts take from the sender beyond sender/index.ts
 * (cairn-solana/sender, whose listing api/sender.api.md fixes). mint keeps its journal with the file
 * journal's own pieces (append, fsync, the lock, the line reader); `cairn journal` reads, compacts and
 * administers both journals (the file's records, PostgreSQL's init, health and gc). No entry point
 * re-exports this file.
 */
export { openAppendFile, syncDir, writeAll, type JournalFile } from './journal/file/io.js';
export { lockJournal, type JournalLock } from './journal/file/lock.js';
export { streamJournal } from './journal/file/read.js';
export { applyRecord, isTerminal } from './journal/file/journal.js';
export { gcPostgresJournal, initPostgresJournal, postgresJournalHealth } from './journal/postgres/admin.js';
