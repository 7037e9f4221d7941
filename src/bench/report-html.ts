/**
 * `--report FILE.html`: one self-contained page (no script, font or image from anywhere) with each
 * family's figures as a table, its notes, and its charts as inline SVG — bars for distributions
 * (latency, proofs per second), a line for landed % over time. The results are also embedded as JSON
 * (`<script type="application/json" id="cairn-bench-data">`), so a program can read the figures back
 * out of the page; every table cell carries its row and field (`data-row`, `data-field`) as well.
 */
import { barChart, escapeXml, niceMax } from './svg-chart.js';
import type { FamilyResult, Figure, Series } from './types.js';

const esc = escapeXml;

const cell = (v: Figure | undefined): string => (v === null || v === undefined ? '–' : typeof v === 'number' ? v.toLocaleString('en-US', { maximumFractionDigits: 2 }) : String(v));

/** A line chart of `s` (x ascending) as SVG. */
function lineChart(s: Series, width = 720, height = 260): string {
  const left = 56;
  const right = 16;
  const top = 36;
  const bottom = 40;
  const pts = s.points;
  const xMax = niceMax(Math.max(1e-9, ...pts.map((p) => p[0])));
  const yMax = niceMax(Math.max(1e-9, ...pts.map((p) => p[1])));
  const X = (x: number): number => left + ((width - left - right) * x) / xMax;
  const Y = (y: number): number => height - bottom - ((height - top - bottom) * y) / yMax;
  const r = (v: number): string => String(Math.round(v * 10) / 10);
  const ticks = [0, 0.25, 0.5, 0.75, 1];
  const path = pts.map((p, i) => `${i ? 'L' : 'M'}${r(X(p[0]))},${r(Y(p[1]))}`).join(' ');
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${esc(s.title)}">`,
    `<text x="${left}" y="20" font-family="sans-serif" font-size="14" font-weight="bold">${esc(s.title)}</text>`,
    ...ticks.map((t) => `<line x1="${left}" x2="${width - right}" y1="${r(Y(t * yMax))}" y2="${r(Y(t * yMax))}" stroke="#ddd"/><text x="${left - 6}" y="${r(Y(t * yMax) + 4)}" font-family="sans-serif" font-size="11" text-anchor="end">${esc(String(t * yMax))}</text>`),
    ...ticks.map((t) => `<text x="${r(X(t * xMax))}" y="${height - bottom + 16}" font-family="sans-serif" font-size="11" text-anchor="middle">${esc(String(Math.round(t * xMax * 100) / 100))}</text>`),
    `<text x="${(left + width - right) / 2}" y="${height - 6}" font-family="sans-serif" font-size="12" text-anchor="middle">${esc(s.xLabel)}</text>`,
    `<text x="14" y="${(top + height - bottom) / 2}" font-family="sans-serif" font-size="12" text-anchor="middle" transform="rotate(-90 14 ${(top + height - bottom) / 2})">${esc(s.yLabel)}</text>`,
    pts.length ? `<path d="${path}" fill="none" stroke="#0072B2" stroke-width="2"/>` : `<text x="${left + 10}" y="${top + 30}" font-family="sans-serif" font-size="12">no data</text>`,
    '</svg>',
  ].join('\n');
}

function chart(s: Series): string {
  if (s.kind === 'line') return lineChart(s);
  if (s.points.length === 0) return lineChart({ ...s, kind: 'line' });
  return barChart([{ title: s.title, unit: '', groups: s.labels ?? s.points.map((p) => String(p[0])), series: [s.yLabel], values: s.points.map((p) => [p[1]]) }]);
}

function section(r: FamilyResult, i: number): string {
  const cols = [...new Set(r.rows.flatMap((row) => Object.keys(row)))];
  const td = (ri: number, c: string, v: Figure | undefined): string => `<td data-family="${esc(r.family)}" data-row="${ri}" data-field="${esc(c)}">${esc(cell(v))}</td>`;
  // one row of many figures reads better standing up: a figure per line, as on the terminal
  const table =
    r.rows.length === 1
      ? `<table class="one"><tbody>${cols.map((c) => `<tr><th>${esc(c)}</th>${td(0, c, r.rows[0]![c])}</tr>`).join('')}</tbody></table>`
      : r.rows.length
        ? `<table><thead><tr>${cols.map((c) => `<th>${esc(c)}</th>`).join('')}</tr></thead><tbody>${r.rows.map((row, ri) => `<tr>${cols.map((c) => td(ri, c, row[c])).join('')}</tr>`).join('')}</tbody></table>`
        : '<p>No figures: stopped before the first.</p>';
  const config = Object.entries(r.config)
    .map(([k, v]) => `${esc(k)}=${esc(Array.isArray(v) ? v.join(',') : String(v))}`)
    .join(' · ');
  return [
    `<section id="family-${i}">`,
    `<h2>cairn bench ${esc(r.family)}${r.partial ? ` <span class="partial">partial: ${esc(r.partial)}</span>` : ''}</h2>`,
    `<p class="meta">${esc(r.when)} · ${r.machine.cpus} cores (${esc(r.machine.cpuModel)}) · ${esc(r.machine.platform)} ${esc(r.machine.arch)} · Node ${esc(r.machine.node)} · load ${r.machine.loadavg1m}</p>`,
    `<p class="meta">${config}</p>`,
    table,
    r.notes.length ? `<ul>${r.notes.map((n) => `<li>${esc(n)}</li>`).join('')}</ul>` : '',
    ...r.series.map((s) => `<figure>${chart(s)}</figure>`),
    '</section>',
  ].join('\n');
}

/** The page for `results`. */
export function reportHtml(results: readonly FamilyResult[]): string {
  // `<` escaped so no text in the data can close the script element
  const data = JSON.stringify(results).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>cairn bench: ${esc(results.map((r) => r.family).join(', '))}</title>
<style>
body { font-family: system-ui, sans-serif; margin: 2rem auto; max-width: 60rem; color: #222; }
table { border-collapse: collapse; margin: 1rem 0; font-variant-numeric: tabular-nums; }
th, td { border: 1px solid #ccc; padding: 0.25rem 0.5rem; text-align: right; }
th { background: #f4f4f4; }
td:first-child, th:first-child { text-align: left; }
table.one th { text-align: left; font-weight: normal; }
.meta { color: #555; font-size: 0.9rem; margin: 0.2rem 0; }
.partial { color: #b00; font-size: 1rem; }
figure { margin: 1rem 0; }
</style>
</head>
<body>
<h1>cairn bench</h1>
${results.map(section).join('\n')}
<script type="application/json" id="cairn-bench-data">${data}</script>
</body>
</html>
`;
}

/** The results embedded in a page `reportHtml` wrote (for tests and tools). */
export function readReportData(html: string): FamilyResult[] {
  const m = /<script type="application\/json" id="cairn-bench-data">([\s\S]*?)<\/script>/.exec(html);
  if (!m) throw new Error('no cairn-bench-data in the page');
  return JSON.parse(m[1]!) as FamilyResult[];
}
