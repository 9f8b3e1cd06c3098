import type { ReferenceName, Target } from "./workloads.ts";

export interface LoadResult {
  p50: number;
  p99: number;
  requestsPerSecond: number;
  errors: number;
}

/** One workload against one reference: ours and theirs from the same paired rounds. */
export interface WorkloadResult {
  workload: string;
  reference: ReferenceName;
  target: Target | undefined;
  ours: LoadResult;
  theirs: LoadResult;
  /** SQL statements per request; undefined where the reference does not count its own. */
  oursStatements: number;
  theirsStatements: number | undefined;
  bytes: number;
  /** The compared metric's ratio in every round (`ours`/`theirs` are the round with the median one). */
  roundRatios: number[];
  /** Failed requests over all rounds. */
  errors: number;
}

/** Throughput is compared unless the target is about p50. */
const comparedMetric = (target: Target | undefined) => target?.metric ?? "throughput";

export function ratios(row: WorkloadResult): { p50: number; throughput: number } {
  return { p50: row.ours.p50 / row.theirs.p50, throughput: row.ours.requestsPerSecond / row.theirs.requestsPerSecond };
}

/** The ratio the comparison is about (its target's metric; throughput without a target). */
export function targetRatio(target: Target | undefined, ours: LoadResult, theirs: LoadResult): number {
  return comparedMetric(target) === "p50" ? ours.p50 / theirs.p50 : ours.requestsPerSecond / theirs.requestsPerSecond;
}

export function targetMet(row: WorkloadResult): boolean | undefined {
  if (!row.target) return undefined;
  const ratio = targetRatio(row.target, row.ours, row.theirs);
  return row.target.metric === "p50" ? ratio <= row.target.atMost : ratio >= row.target.atLeast;
}

function describeTarget(target: Target | undefined): string {
  if (!target) return "-";
  return target.metric === "p50" ? `p50 ≤ ${target.atMost}x` : `throughput ≥ ${target.atLeast}`;
}

function describeMet(met: boolean | undefined): string {
  if (met === undefined) return "-";
  return met ? "yes" : "**no**";
}

/** The results as a Markdown table: ratios are ours divided by the reference's. */
export function table(rows: WorkloadResult[]): string {
  const lines = [
    "| workload | reference | ours p50 / p99 ms | ours req/s | ref. p50 / p99 ms | ref. req/s | p50 ratio | throughput ratio | SQL per request (ours / ref.) | target | ratio per round | met |",
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
        // autocannon reports whole milliseconds: a sub-millisecond p50 reads 0, and a ratio of it says nothing.
        ours.p50 > 0 && theirs.p50 > 0 ? `${p50.toFixed(2)}x` : "-",
        throughput.toFixed(2),
        `${row.oursStatements} / ${row.theirsStatements ?? "-"}`,
        describeTarget(row.target),
        row.roundRatios.map((ratio) => ratio.toFixed(2)).join(", "),
        describeMet(targetMet(row)),
        "",
      ]
        .join(" | ")
        .trim(),
    );
  }
  return lines.join("\n");
}

/** A footprint figure beside its target, e.g. RSS after the load or the time to a healthy start. */
export interface FootprintRow {
  what: string;
  ours: string;
  reference: string;
  target: string;
  met: boolean | undefined;
}

export function footprintTable(rows: FootprintRow[]): string {
  const lines = ["| footprint | ours | reference | target | met |", "|---|---|---|---|---|"];
  for (const row of rows)
    lines.push(`| ${row.what} | ${row.ours} | ${row.reference} | ${row.target} | ${describeMet(row.met)} |`);
  return lines.join("\n");
}
