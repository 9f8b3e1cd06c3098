/** Formats one benchmark row; ratios are ours divided by the baseline's. */
export interface LoadResult {
  name: string;
  p50: number;
  p99: number;
  requestsPerSecond: number;
  errors: number;
}

export function table(rows: { workload: string; ours: LoadResult; baseline: LoadResult }[]): string {
  const lines = [
    "| workload | ours p50 ms | ours p99 ms | ours req/s | baseline p50 ms | baseline p99 ms | baseline req/s | p50 ratio | throughput ratio |",
    "|---|---|---|---|---|---|---|---|---|",
  ];
  for (const { workload, ours, baseline } of rows) {
    lines.push(
      `| ${workload} | ${ours.p50} | ${ours.p99} | ${ours.requestsPerSecond.toFixed(0)} | ${baseline.p50} | ${baseline.p99} | ${baseline.requestsPerSecond.toFixed(0)} | ${(ours.p50 / baseline.p50).toFixed(2)}x | ${(ours.requestsPerSecond / baseline.requestsPerSecond).toFixed(2)} |`,
    );
  }
  return lines.join("\n");
}
