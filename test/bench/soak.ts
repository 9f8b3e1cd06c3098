import autocannon from "autocannon";
import type { BenchRequest } from "./workloads.ts";

export interface SoakSample {
  seconds: number;
  rssBytes: number;
  heapUsedBytes: number;
  /** p99 of the event-loop delay since the previous sample (prom-client resets its histogram on every scrape). */
  eventLoopP99Seconds: number;
}

export interface SoakReport {
  rate: number;
  seconds: number;
  requests: number;
  errors: number;
  p50: number;
  p99: number;
  /** The lowest heap of a minute: the level garbage collection comes back to. */
  firstMinuteHeapFloor: number;
  lastMinuteHeapFloor: number;
  firstMinuteRss: number;
  lastMinuteRss: number;
  eventLoopP99Max: number;
  eventLoopP99Median: number;
}

function metric(text: string, name: string): number {
  const line = text.split("\n").find((candidate) => candidate.startsWith(`${name} `));
  return Number(line?.split(" ")[1]);
}

/** The server's memory and event-loop delay, from its own Prometheus metrics (no hooks into its process). */
async function sample(url: string, seconds: number): Promise<SoakSample> {
  const text = await (await fetch(`${url}/metrics`)).text();
  return {
    seconds,
    rssBytes: metric(text, "process_resident_memory_bytes"),
    heapUsedBytes: metric(text, "nodejs_heap_size_used_bytes"),
    eventLoopP99Seconds: metric(text, "nodejs_eventloop_lag_p99_seconds"),
  };
}

/**
 * `seconds` at a fixed `rate` (requests per second, below saturation) after a warm-up minute, sampling the server
 * every 5 seconds; compares the first and the last minute.
 */
export async function soak(url: string, request: BenchRequest, rate: number, seconds: number): Promise<SoakReport> {
  const options = {
    url: `${url}${request.path}`,
    method: request.method as "GET" | "POST",
    headers: request.headers,
    body: request.body,
    connections: 4,
    overallRate: rate,
  };
  await autocannon({ ...options, duration: 60 });
  const samples: SoakSample[] = [];
  const started = Date.now();
  const run = autocannon({ ...options, duration: seconds });
  await sample(url, 0);
  const timer = setInterval(() => {
    sample(url, (Date.now() - started) / 1000).then((value) => samples.push(value));
  }, 5000);
  const result = await run;
  clearInterval(timer);
  const minute = Math.min(60, seconds / 2);
  const first = samples.filter((entry) => entry.seconds <= minute);
  const last = samples.filter((entry) => entry.seconds > seconds - minute);
  const delays = samples.map((entry) => entry.eventLoopP99Seconds).sort((a, b) => a - b);
  return {
    rate,
    seconds,
    requests: result.requests.total,
    errors: result.errors + result.non2xx,
    p50: result.latency.p50,
    p99: result.latency.p99,
    firstMinuteHeapFloor: Math.min(...first.map((entry) => entry.heapUsedBytes)),
    lastMinuteHeapFloor: Math.min(...last.map((entry) => entry.heapUsedBytes)),
    firstMinuteRss: Math.max(...first.map((entry) => entry.rssBytes)),
    lastMinuteRss: Math.max(...last.map((entry) => entry.rssBytes)),
    eventLoopP99Max: delays.at(-1) ?? 0,
    eventLoopP99Median: delays[Math.floor(delays.length / 2)] ?? 0,
  };
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

export function soakTable(report: SoakReport): string {
  const growth = (report.lastMinuteHeapFloor / report.firstMinuteHeapFloor - 1) * 100;
  return [
    "| soak (workload 1) | value |",
    "|---|---|",
    `| rate, duration (after a 1-minute warm-up) | ${report.rate} req/s, ${report.seconds} s, ${report.requests} requests, ${report.errors} errors |`,
    `| latency p50 / p99 | ${report.p50} / ${report.p99} ms |`,
    `| heap floor, first vs last minute | ${megabytes(report.firstMinuteHeapFloor)} -> ${megabytes(report.lastMinuteHeapFloor)} (${growth >= 0 ? "+" : ""}${growth.toFixed(1)}%) |`,
    `| RSS peak, first vs last minute | ${megabytes(report.firstMinuteRss)} -> ${megabytes(report.lastMinuteRss)} |`,
    `| event-loop delay p99 per 5 s, median / max | ${(report.eventLoopP99Median * 1000).toFixed(1)} / ${(report.eventLoopP99Max * 1000).toFixed(1)} ms |`,
  ].join("\n");
}
