import type { Target } from "./workloads.ts";

export interface LoadResult {
  p50: number;
  p99: number;
  requestsPerSecond: number;
  errors: number;
}

export interface WorkloadResult {
  workload: string;
  reference: string;
  target: Target;
  ours: LoadResult;
  theirs: LoadResult;
  /** SQL statements per request; undefined for bare yoga, which has no database. */
  oursStatements: number;
  theirsStatements: number | undefined;
  bytes: number;
  /** The target metric's ratio in every round (`ours`/`theirs` are the round with the median one). */
  roundRatios: number[];
  /** Failed requests over all rounds. */
  errors: number;
}

export function ratios(row: WorkloadResult): { p50: number; throughput: number } {
  return { p50: row.ours.p50 / row.theirs.p50, throughput: row.ours.requestsPerSecond / row.theirs.requestsPerSecond };
}

/** The ratio the workload's target is about (p50 or throughput). */
export function targetRatio(target: Target, ours: LoadResult, theirs: LoadResult): number {
  return target.metric === "p50" ? ours.p50 / theirs.p50 : ours.requestsPerSecond / theirs.requestsPerSecond;
}

export function targetMet(row: WorkloadResult): boolean {
  const ratio = targetRatio(row.target, row.ours, row.theirs);
  return row.target.metric === "p50" ? ratio <= row.target.atMost : ratio >= row.target.atLeast;
}

function describeTarget(target: Target): string {
  return target.metric === "p50" ? `p50 ≤ ${target.atMost}x` : `throughput ≥ ${target.atLeast}`;
}

/** The results as a Markdown table: ratios are ours divided by the reference's. */
export function table(rows: WorkloadResult[]): string {
  const lines = [
    "| workload | reference | ours p50 / p99 ms | ours req/s | ref. p50 / p99 ms | ref. req/s | p50 ratio | throughput ratio | SQL per request (ours / ref.) | target | target ratio per round | met |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|",
  ];
  for (const row of rows) {
    const { ours, theirs } = row;
    const { p50, throughput } = ratios(row);
    lines.push(
      [
        "",
        `${row.workload}, ${Math.round(row.bytes / 1024)} KB`,
        row.reference,
        `${ours.p50} / ${ours.p99}`,
        ours.requestsPerSecond.toFixed(0),
        `${theirs.p50} / ${theirs.p99}`,
        theirs.requestsPerSecond.toFixed(0),
        `${p50.toFixed(2)}x`,
        throughput.toFixed(2),
        `${row.oursStatements} / ${row.theirsStatements ?? "-"}`,
        describeTarget(row.target),
        row.roundRatios.map((ratio) => ratio.toFixed(2)).join(", "),
        targetMet(row) ? "yes" : "**no**",
        "",
      ]
        .join(" | ")
        .trim(),
    );
  }
  return lines.join("\n");
}
