/**
 * A small dependency-free SVG writer for the benchmarks' charts: panels of grouped bars (one group
 * per scenario, one bar per peer), stacked vertically in one document. Enough for "landed % and p95
 * by scenario and peer"; text is escaped, numbers are rounded, and the output is plain SVG 1.1 that
 * browsers and GitHub render as an image.
 */

export interface BarPanel {
  title: string;
  /** Axis unit shown after values ("%", "ms"). */
  unit: string;
  /** One label per group (x axis). */
  groups: readonly string[];
  /** One name per bar within a group (the legend). */
  series: readonly string[];
  /** `values[g][s]`: the bar of series s in group g; null draws "n/a". */
  values: readonly (readonly (number | null)[])[];
  /** Top of the axis (default: the largest value, rounded up to a nice number). */
  max?: number;
}

export interface ChartOptions {
  width?: number;
  /** Height of one panel, legend and labels included. */
  panelHeight?: number;
  /** Bar colours by series index (a colour-blind-safe palette by default). */
  colors?: readonly string[];
}

// Okabe–Ito: distinguishable with the common colour-vision deficiencies.
const PALETTE = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#F0E442', '#000000'];

/** Escape text for an SVG text node or attribute value. */
export function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

const r1 = (x: number): string => String(Math.round(x * 10) / 10);

/** 1, 2 or 5 times a power of ten, at or above `x`. */
export function niceMax(x: number): number {
  if (!(x > 0) || !Number.isFinite(x)) return 1;
  const p = 10 ** Math.floor(Math.log10(x));
  for (const m of [1, 2, 5, 10]) if (m * p >= x) return m * p;
  return 10 * p;
}

const fmt = (v: number): string => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1).replace(/\.0$/, '') : v.toFixed(2).replace(/\.?0+$/, ''));

function panel(p: BarPanel, top: number, width: number, height: number, colors: readonly string[]): string {
  if (p.values.length !== p.groups.length) throw new RangeError(`"values": expected ${p.groups.length} groups, got ${p.values.length}`);
  for (const [g, row] of p.values.entries()) {
    if (row.length !== p.series.length) throw new RangeError(`"values[${g}]": expected ${p.series.length} bars, got ${row.length}`);
  }
  const left = 56;
  const right = 12;
  const plotTop = top + 58; // room for the legend and the value written over a full-height bar
  const plotBottom = top + height - 46;
  const plotH = plotBottom - plotTop;
  const plotW = width - left - right;
  const finite = p.values.flat().filter((v): v is number => v !== null && Number.isFinite(v));
  const max = p.max ?? niceMax(Math.max(0, ...finite));
  const y = (v: number): number => plotBottom - (Math.min(Math.max(v, 0), max) / max) * plotH;
  const out: string[] = [`<g class="panel">`, `<text x="${left}" y="${top + 18}" font-size="15" font-weight="bold">${escapeXml(p.title)}</text>`];
  // legend
  let lx = left;
  for (const [s, name] of p.series.entries()) {
    out.push(`<rect x="${lx}" y="${top + 26}" width="10" height="10" fill="${colors[s % colors.length]}"/>`);
    out.push(`<text x="${lx + 14}" y="${top + 35}" font-size="11">${escapeXml(name)}</text>`);
    lx += 24 + name.length * 6.5;
  }
  // axis and grid
  for (let k = 0; k <= 4; k++) {
    const v = (max * k) / 4;
    out.push(`<line x1="${left}" x2="${width - right}" y1="${r1(y(v))}" y2="${r1(y(v))}" stroke="#ddd"/>`);
    out.push(`<text x="${left - 4}" y="${r1(y(v) + 4)}" font-size="10" text-anchor="end">${escapeXml(fmt(v) + p.unit)}</text>`);
  }
  out.push(`<line x1="${left}" x2="${left}" y1="${plotTop}" y2="${plotBottom}" stroke="#888"/>`);
  const groupW = plotW / Math.max(1, p.groups.length);
  const barW = (groupW * 0.8) / Math.max(1, p.series.length);
  for (const [g, label] of p.groups.entries()) {
    const gx = left + g * groupW + groupW * 0.1;
    for (const [s, v] of p.values[g]!.entries()) {
      const x = gx + s * barW;
      const name = `${p.series[s]}, ${label}`;
      if (v === null || !Number.isFinite(v)) {
        out.push(`<text x="${r1(x + barW / 2)}" y="${plotBottom - 3}" font-size="8" text-anchor="middle" fill="#888">n/a</text>`);
        continue;
      }
      const h = plotBottom - y(v);
      out.push(`<rect x="${r1(x)}" y="${r1(y(v))}" width="${r1(barW - 1)}" height="${r1(h)}" fill="${colors[s % colors.length]}"><title>${escapeXml(`${name}: ${fmt(v)}${p.unit}`)}</title></rect>`);
      // the value over its bar: the chart is read as an image (README), where hover titles do not show
      out.push(`<text x="${r1(x + (barW - 1) / 2)}" y="${r1(y(v) - 2)}" font-size="8" text-anchor="middle">${escapeXml(fmt(v))}</text>`);
    }
    out.push(`<text x="${r1(gx + groupW * 0.4)}" y="${plotBottom + 14}" font-size="10" text-anchor="middle">${escapeXml(label)}</text>`);
  }
  out.push('</g>');
  return out.join('\n');
}

/**
 * An SVG document of `panels` stacked vertically.
 *
 * @example
 * const svg = barChart([{ title: 'landed', unit: '%', groups: ['clean'], series: ['cairn', 'web3.js'], values: [[100, 98]] }]);
 * writeFileSync('chart.svg', svg);
 */
export function barChart(panels: readonly BarPanel[], o: ChartOptions = {}): string {
  const width = o.width ?? 860;
  const ph = o.panelHeight ?? 300;
  const colors = o.colors ?? PALETTE;
  const height = ph * panels.length;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif">`,
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    ...panels.map((p, i) => panel(p, i * ph, width, ph, colors)),
    '</svg>',
    '',
  ].join('\n');
}
