// The scaling curve of `npm run bench -- --scale …`: each operation's ratio to the baseline against the number of
// dogs, as an SVG line chart (log x axis; one line per operation and backend, a point per size) and a markdown table.
import { escapeHtml } from '../src/portal/html.js';
import { unique, type Result } from './scale.js';

const WIDTH = 860;
const HEIGHT = 460;
const LEFT = 50;
const TOP = 30;
const PLOT_WIDTH = 520;
const PLOT_HEIGHT = 370;
/** Distinct enough side by side; an operation keeps its colour on both backends (PostgreSQL's line is dashed). */
const COLORS = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22'];
const COLORS_DARK = ['#17becf', '#393b79', '#637939', '#8c6d31', '#843c39', '#7b4173', '#3182bd', '#e6550d', '#31a354'];
const PALETTE = [...COLORS, ...COLORS_DARK];

/** The chart as a standalone SVG document. */
export function scaleChart(results: readonly Result[]): string {
  const sizes = unique(results.map((result) => result.size)).sort((a, b) => a - b);
  const operations = unique(results.map((result) => result.operation));
  const backends = unique(results.map((result) => result.backend));
  const [low, high] = [Math.log10(sizes[0]!), Math.log10(sizes.at(-1)!)];
  const x = (size: number): number =>
    LEFT + (high === low ? PLOT_WIDTH / 2 : ((Math.log10(size) - low) / (high - low)) * PLOT_WIDTH);
  const top = Math.max(0.1, Math.ceil(Math.max(...results.map((result) => result.ratio)) * 10) / 10);
  const y = (ratio: number): number => TOP + PLOT_HEIGHT - (ratio / top) * PLOT_HEIGHT;
  const parts: string[] = [];
  const step = top > 0.5 ? 0.1 : 0.05;
  for (let tick = 0; tick <= top + 1e-9; tick += step)
    parts.push(
      `<line x1="${LEFT}" x2="${LEFT + PLOT_WIDTH}" y1="${n(y(tick))}" y2="${n(y(tick))}" stroke="#ddd"/>`,
      `<text x="${LEFT - 6}" y="${n(y(tick) + 4)}" text-anchor="end">${tick.toFixed(2)}</text>`,
    );
  for (const size of sizes)
    parts.push(
      `<text x="${n(x(size))}" y="${TOP + PLOT_HEIGHT + 18}" text-anchor="middle">${size.toLocaleString('en-US')}</text>`,
    );
  operations.forEach((operation, index) => {
    const color = PALETTE[index % PALETTE.length]!;
    for (const backend of backends) {
      const series = results
        .filter((result) => result.operation === operation && result.backend === backend)
        .sort((a, b) => a.size - b.size);
      if (series.length === 0) continue;
      const dash = backend === backends[0] ? '' : ' stroke-dasharray="5 3"';
      const points = series.map((result) => `${n(x(result.size))},${n(y(result.ratio))}`).join(' ');
      parts.push(`<polyline fill="none" stroke="${color}" stroke-width="1.5"${dash} points="${points}"/>`);
      for (const result of series)
        parts.push(
          `<circle cx="${n(x(result.size))}" cy="${n(y(result.ratio))}" r="3" fill="${color}">` +
            `<title>${escapeHtml(`${operation}, ${backend}, ${result.size} dogs: ${result.ratio.toFixed(3)}`)}</title></circle>`,
        );
    }
    const legendY = TOP + 10 + index * 20;
    parts.push(
      `<rect x="${LEFT + PLOT_WIDTH + 20}" y="${legendY - 8}" width="12" height="10" fill="${color}"/>`,
      `<text x="${LEFT + PLOT_WIDTH + 38}" y="${legendY + 1}">${escapeHtml(operation)}</text>`,
    );
  });
  const styles = backends.map((backend, index) => `${backend} ${index === 0 ? 'solid' : 'dashed'}`).join(', ');
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="sans-serif" font-size="11" role="img" aria-labelledby="title">
<title id="title">Ratio to the baseline per operation against the number of dogs (log scale; ${escapeHtml(styles)})</title>
<rect width="${WIDTH}" height="${HEIGHT}" fill="#fff"/>
<text x="${LEFT}" y="18" font-size="13">Ratio to the bare-Node baseline vs dogs seeded (${escapeHtml(styles)})</text>
${parts.join('\n')}
<line x1="${LEFT}" x2="${LEFT + PLOT_WIDTH}" y1="${TOP + PLOT_HEIGHT}" y2="${TOP + PLOT_HEIGHT}" stroke="#000"/>
<text x="${LEFT + PLOT_WIDTH / 2}" y="${TOP + PLOT_HEIGHT + 40}" text-anchor="middle">dogs (log scale)</text>
<line x1="${LEFT}" x2="${LEFT}" y1="${TOP}" y2="${TOP + PLOT_HEIGHT}" stroke="#000"/>
</svg>
`;
}

/** The markdown table: a row per operation, a column per backend and size (short enough to read at a glance). */
export function scaleTable(results: readonly Result[]): string {
  const sizes = unique(results.map((result) => result.size)).sort((a, b) => a - b);
  const backends = unique(results.map((result) => result.backend));
  const columns = backends.flatMap((backend) => sizes.map((size) => ({ backend, size })));
  const lines = [
    `| operation | ${columns.map(({ backend, size }) => `${backend}, ${size.toLocaleString('en-US')}`).join(' | ')} |`,
    `|---|${columns.map(() => '---:').join('|')}|`,
  ];
  for (const operation of unique(results.map((result) => result.operation))) {
    const cells = columns.map(({ backend, size }) => {
      const found = results.find(
        (result) => result.operation === operation && result.backend === backend && result.size === size,
      );
      return found ? ratioText(found.ratio) : '';
    });
    lines.push(`| ${operation} | ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}

/** Two decimals, or two significant digits below 0.1 (a search at 0.004 is not 0.00). */
function ratioText(ratio: number): string {
  return ratio >= 0.095 || ratio === 0 ? ratio.toFixed(2) : ratio.toPrecision(2);
}

function n(value: number): string {
  return value.toFixed(1);
}
