// What the bench concludes from its figures: the scaling check of issue 16, PostgreSQL beside SQLite (issue 18).

/** One operation measured on one backend at one size. */
export interface Result {
  readonly operation: string;
  readonly backend: string;
  readonly size: number;
  /** req/s of the server ÷ req/s of its baseline in the same run. */
  readonly ratio: number;
  readonly requestsPerSecond: number;
  readonly p99: number;
}

/** From the smallest size to the largest, an indexed operation may lose at most this share of its throughput. */
export const MAX_LOSS = 1 / 3;

export interface Verdict {
  readonly operation: string;
  readonly backend: string;
  /** Ratio at the largest size ÷ ratio at the smallest. */
  readonly kept: number;
  readonly pass: boolean;
}

/**
 * PASS when the operation keeps at least two thirds of its throughput from the smallest size to the largest on that
 * backend. Throughput is read as the ratio to the baseline, which the same run measured beside it: on a shared
 * machine that cancels what the neighbours did between two sizes.
 */
export function scalingVerdicts(results: readonly Result[], indexed: ReadonlySet<string>): Verdict[] {
  const verdicts: Verdict[] = [];
  for (const backend of unique(results.map((result) => result.backend))) {
    for (const operation of unique(results.map((result) => result.operation))) {
      if (!indexed.has(operation)) continue;
      const series = results
        .filter((result) => result.backend === backend && result.operation === operation)
        .sort((a, b) => a.size - b.size);
      if (series.length < 2) continue;
      const kept = series.at(-1)!.ratio / series[0]!.ratio;
      verdicts.push({ operation, backend, kept, pass: kept >= 1 - MAX_LOSS });
    }
  }
  return verdicts;
}

/** Issue 18's target for PostgreSQL ÷ SQLite: reads 0.4, POST 0.35; none for the others. */
export function postgresTarget(operation: { method: string; name: string; against?: string }): number | undefined {
  if (operation.against) return undefined;
  if (operation.method === 'GET') return 0.4;
  return operation.name === 'POST' ? 0.35 : undefined;
}

/** Issue 18: p99 under 20 ms at 50 connections on PostgreSQL. */
export const POSTGRES_P99_MS = 20;

/** Issue 16: the server's peak RSS (VmHWM) at every size. */
export const PEAK_RSS_MIB = 200;

export function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}
