/**
 * A family's result as text for a terminal: a header line, then its rows as a table (or, for a
 * single row of many figures, one figure per line), then its notes. Numbers get thousands
 * separators; null shows as "–".
 */
import type { Figure, FamilyResult } from './types.js';

const show = (v: Figure | undefined): string => {
  if (v === null || v === undefined) return '–';
  if (typeof v === 'number') return Number.isInteger(v) ? v.toLocaleString('en-US') : v.toLocaleString('en-US', { maximumFractionDigits: 2 });
  return String(v);
};

export function renderTable(r: FamilyResult): string {
  const lines = [`cairn bench ${r.family}: ${r.machine.cpus} cores (${r.machine.cpuModel}), Node ${r.machine.node}${r.partial ? ` — PARTIAL: ${r.partial}` : ''}`];
  if (r.rows.length === 1) {
    const row = r.rows[0]!;
    const w = Math.max(...Object.keys(row).map((k) => k.length));
    for (const [k, v] of Object.entries(row)) if (k !== 'name') lines.push(`  ${k.padEnd(w)}  ${show(v)}`);
  } else if (r.rows.length > 1) {
    const cols = [...new Set(r.rows.flatMap((row) => Object.keys(row)))];
    const cells = r.rows.map((row) => cols.map((c) => show(row[c])));
    const width = cols.map((c, i) => Math.max(c.length, ...cells.map((row) => row[i]!.length)));
    const numeric = cols.map((c) => r.rows.every((row) => row[c] === null || row[c] === undefined || typeof row[c] === 'number'));
    const fmt = (row: string[]): string => '  ' + row.map((v, i) => (numeric[i] ? v.padStart(width[i]!) : v.padEnd(width[i]!))).join('  ').trimEnd();
    lines.push(fmt(cols), fmt(width.map((w) => '-'.repeat(w))), ...cells.map(fmt));
  } else lines.push('  (no rows: stopped before the first figure)');
  for (const n of r.notes) lines.push(`  note: ${n}`);
  return lines.join('\n') + '\n';
}
