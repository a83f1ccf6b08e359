// The request-duration histogram, counted on the hot path with plain arrays and exposed through prom-client's registry.
//
// prom-client's own Histogram validates and hashes the labels of every observation, which a
// profile under load showed as a visible share of a cached read. Here each series (route pattern,
// method, status) is resolved once into a bucket array, so an observation is a bucket search and
// three additions; prom-client still renders the text format from what `get()` returns.
import type { Registry } from 'prom-client';

/** One sample line as prom-client's registry renders it. */
interface Sample {
  readonly metricName: string;
  readonly labels: Readonly<Record<string, string | number>>;
  readonly value: number;
}

interface Series {
  readonly labels: { method: string; route: string; status: string };
  /** Observations per bucket (not cumulative); the last slot is above the largest bound. */
  readonly counts: Float64Array;
  sum: number;
  count: number;
}

export type Observe = (method: string, status: number, seconds: number) => void;

export class RequestHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly series: Series[] = [];
  /**
   * Each route pattern's series by method and status, shared by its observers: a pattern is registered as several
   * routes (its methods, its preflight, the methods it does not offer, a host's constraint), and the text format
   * allows a series once per scrape.
   */
  private readonly byRoute = new Map<string, Map<string, Series>>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly bounds: readonly number[],
    registry: Registry,
  ) {
    // The registry asks a metric for name, type and get() only; the cast spares a class hierarchy.
    registry.registerMetric(this as unknown as Parameters<Registry['registerMetric']>[0]);
  }

  /** The observer of one route pattern: its series are created on first use and then reused. */
  observerFor(route: string): Observe {
    const byKey = this.byRoute.get(route) ?? new Map<string, Series>();
    this.byRoute.set(route, byKey);
    return (method, status, seconds) => {
      const key = method + status;
      let series = byKey.get(key);
      if (!series) {
        series = {
          labels: { method, route, status: String(status) },
          counts: new Float64Array(this.bounds.length + 1),
          sum: 0,
          count: 0,
        };
        byKey.set(key, series);
        this.series.push(series);
      }
      let bucket = 0;
      while (bucket < this.bounds.length && seconds > this.bounds[bucket]!) bucket += 1;
      series.counts[bucket]! += 1;
      series.sum += seconds;
      series.count += 1;
    };
  }

  /** What prom-client renders: cumulative `_bucket` lines with `le` first, then `_sum` and `_count`. */
  get(): { name: string; help: string; type: string; aggregator: string; values: Sample[] } {
    const values: Sample[] = [];
    for (const { labels, counts, sum, count } of this.series) {
      let cumulative = 0;
      for (let bucket = 0; bucket <= this.bounds.length; bucket += 1) {
        cumulative += counts[bucket]!;
        const le = bucket < this.bounds.length ? this.bounds[bucket]! : '+Inf';
        values.push({ metricName: `${this.name}_bucket`, labels: { le, ...labels }, value: cumulative });
      }
      values.push({ metricName: `${this.name}_sum`, labels, value: sum });
      values.push({ metricName: `${this.name}_count`, labels, value: count });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  reset(): void {
    for (const series of this.series) {
      series.counts.fill(0);
      series.sum = 0;
      series.count = 0;
    }
  }
}
