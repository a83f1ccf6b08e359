// A stacked bar chart drawn on the server as inline SVG: one bar per time bucket, one segment per status class, axes
// with labels, a <title> and <desc> for screen readers and a <title> per bar; colours come from portal.css classes.
import { escapeHtml } from './html.js';

/** The four status classes, bottom of the stack first. */
export const CHART_CLASSES = [2, 3, 4, 5] as const;

export interface ChartBar {
  /** Under the bar, or '' (labels are given to every few bars only). */
  readonly label: string;
  /** What the bar is, for its tooltip: "2026-11-25 14:00 UTC". */
  readonly name: string;
  /** Requests of 2xx, 3xx, 4xx, 5xx. */
  readonly counts: readonly [number, number, number, number];
}

export interface Chart {
  /** Unique on the page: the ids of its title and description. */
  readonly id: string;
  readonly title: string;
  /** What one bar stands for: "hour", "day". */
  readonly unit: string;
  readonly bars: readonly ChartBar[];
}

// The drawing's own units; the SVG scales with its box (viewBox), so these are proportions, not pixels.
const WIDTH = 360;
const HEIGHT = 200;
const LEFT = 34;
const RIGHT = 6;
const TOP = 10;
const BOTTOM = 24;
const PLOT_WIDTH = WIDTH - LEFT - RIGHT;
const PLOT_HEIGHT = HEIGHT - TOP - BOTTOM;

export function stackedBarChart(chart: Chart): string {
  const totals = chart.bars.map((bar) => bar.counts.reduce((sum, count) => sum + count, 0));
  const { top, step } = scaleOf(Math.max(0, ...totals));
  const y = (value: number): number => TOP + PLOT_HEIGHT - (value / top) * PLOT_HEIGHT;
  const slot = PLOT_WIDTH / Math.max(1, chart.bars.length);
  const grid: string[] = [];
  for (let value = 0; value <= top; value += step)
    grid.push(
      `<line class="gridline" x1="${LEFT}" x2="${WIDTH - RIGHT}" y1="${fixed(y(value))}" y2="${fixed(y(value))}"/>` +
        `<text class="tick" x="${LEFT - 5}" y="${fixed(y(value) + 4)}" text-anchor="end">${short(value)}</text>`,
    );
  const bars = chart.bars.map((bar, index) => barOf(bar, LEFT + index * slot, slot, y)).join('\n');
  const labels = chart.bars.map((bar, index) => labelOf(bar.label, index, chart.bars.length, slot)).join('');
  const empty = totals.every((total) => total === 0)
    ? `<text class="empty-note" x="${LEFT + PLOT_WIDTH / 2}" y="${TOP + PLOT_HEIGHT / 2}" text-anchor="middle">No requests yet</text>`
    : '';
  return `<svg class="chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="${chart.id}-title ${chart.id}-desc" xmlns="http://www.w3.org/2000/svg">
<title id="${chart.id}-title">${escapeHtml(chart.title)}</title>
<desc id="${chart.id}-desc">${escapeHtml(describe(chart, totals))}</desc>
<g aria-hidden="true">${grid.join('')}</g>
${bars}
<line class="axis" x1="${LEFT}" x2="${WIDTH - RIGHT}" y1="${TOP + PLOT_HEIGHT}" y2="${TOP + PLOT_HEIGHT}"/>
<g aria-hidden="true">${labels}</g>
${empty}
</svg>`;
}

/** A bar's label, centred under it; the last bar's ends at the bar's right edge, so that it is never cut off. */
function labelOf(label: string, index: number, count: number, slot: number): string {
  if (label === '') return '';
  const last = index === count - 1;
  const x = last ? LEFT + (index + 1) * slot : LEFT + (index + 0.5) * slot;
  return `<text class="tick" x="${fixed(x)}" y="${HEIGHT - 6}" text-anchor="${last ? 'end' : 'middle'}">${escapeHtml(label)}</text>`;
}

/** One bar: its segments bottom up, each a class's colour, with a tooltip naming the bucket and its counts. */
function barOf(bar: ChartBar, x: number, slot: number, y: (value: number) => number): string {
  const total = bar.counts.reduce((sum, count) => sum + count, 0);
  if (total === 0) return '';
  const width = Math.max(1, slot * 0.72);
  const left = fixed(x + (slot - width) / 2);
  let below = 0;
  const segments = CHART_CLASSES.map((statusClass, index) => {
    const count = bar.counts[index]!;
    if (count === 0) return '';
    const from = y(below);
    below += count;
    const to = y(below);
    return `<rect class="seg s${statusClass}" x="${left}" y="${fixed(to)}" width="${fixed(width)}" height="${fixed(from - to)}" data-count="${count}"/>`;
  }).join('');
  const parts = CHART_CLASSES.map((statusClass, index) => `${bar.counts[index]} ${statusClass}xx`).join(', ');
  return `<g class="stack"><title>${escapeHtml(bar.name)}: ${total} ${total === 1 ? 'request' : 'requests'} (${parts})</title>${segments}</g>`;
}

/** The chart in words: its totals per class and its busiest bar. */
function describe(chart: Chart, totals: readonly number[]): string {
  const sum = totals.reduce((all, total) => all + total, 0);
  if (sum === 0) return `No requests in this period: every ${chart.unit} is empty.`;
  const byClass = CHART_CLASSES.map(
    (statusClass, index) => `${chart.bars.reduce((all, bar) => all + bar.counts[index]!, 0)} ${statusClass}xx`,
  ).join(', ');
  const busiest = totals.indexOf(Math.max(...totals));
  return `Stacked bars, one per ${chart.unit}, by status class. ${sum} requests: ${byClass}. Busiest ${chart.unit}: ${chart.bars[busiest]!.name}, ${totals[busiest]} requests.`;
}

/** The axis: a top a round step above the largest bar, with at most 5 steps (1, 2 or 5 times a power of ten). */
function scaleOf(largest: number): { top: number; step: number } {
  if (largest === 0) return { top: 4, step: 1 };
  let step = 1;
  for (let power = 1; largest / step > 5; power *= 10) {
    step = [1, 2, 5].map((factor) => factor * power).find((candidate) => largest / candidate <= 5) ?? 10 * power;
  }
  return { top: Math.ceil(largest / step) * step, step };
}

/** A tick's number: 1500 → 1.5k. */
function short(value: number): string {
  return value >= 1000 ? `${Number((value / 1000).toFixed(1))}k` : String(value);
}

function fixed(value: number): string {
  return String(Math.round(value * 10) / 10);
}
