// One period of the usage page: its chart, a legend that carries the totals per status class, and the same numbers as
// a table (in a disclosure, no script needed) for whoever cannot read the picture.
import { escapeHtml } from './html.js';
import { CHART_CLASSES, stackedBarChart, type ChartBar } from './svg-chart.js';

export interface Period {
  readonly id: string;
  readonly title: string;
  readonly unit: string;
  readonly bars: readonly ChartBar[];
}

const CLASS_NAMES = ['success', 'redirect', 'client error', 'server error'] as const;

export function usageSection(period: Period): string {
  const totals = CHART_CLASSES.map((_, index) => period.bars.reduce((sum, bar) => sum + bar.counts[index]!, 0));
  const sum = totals.reduce((all, total) => all + total, 0);
  const legend = CHART_CLASSES.map(
    (statusClass, index) =>
      `<li><span class="swatch s${statusClass}" aria-hidden="true"></span>${statusClass}xx <span class="muted">${CLASS_NAMES[index]}</span> <strong>${totals[index]}</strong></li>`,
  ).join('');
  return `<section class="card chart-card" aria-labelledby="${period.id}-heading">
<h2 id="${period.id}-heading">${escapeHtml(period.title)} <span class="muted">· per ${escapeHtml(period.unit)}</span></h2>
<p class="total"><strong>${sum}</strong> ${sum === 1 ? 'request' : 'requests'}</p>
${stackedBarChart({ id: `chart-${period.id}`, title: `Requests per ${period.unit}, ${period.title.toLowerCase()}, by status class`, unit: period.unit, bars: period.bars })}
<ul class="legend" aria-label="Totals per status class">${legend}</ul>
${sum === 0 ? '<p class="notice empty">No requests yet in this period.</p>' : numbersTable(period)}
</section>`;
}

/** The non-empty bars as rows: each bucket's counts per class. */
function numbersTable(period: Period): string {
  const rows = period.bars
    .filter((bar) => bar.counts.some((count) => count > 0))
    .map(
      (bar) =>
        `<tr><th scope="row">${escapeHtml(bar.name.replace(/ UTC$/, ''))}</th>${bar.counts.map((count) => `<td class="num">${count}</td>`).join('')}</tr>`,
    )
    .join('\n');
  return `<details class="numbers"><summary>The numbers per ${escapeHtml(period.unit)}</summary>
<div class="table-wrap"><table>
<thead><tr><th scope="col">${period.unit === 'hour' ? 'Hour' : 'Day'} (UTC)</th>${CHART_CLASSES.map((statusClass) => `<th scope="col" class="num">${statusClass}xx</th>`).join('')}</tr></thead>
<tbody>
${rows}
</tbody></table></div>
</details>`;
}
