import cluster, { type Worker } from "node:cluster";

// `node --import tsx test/bench/cluster.ts <workers> <node flags...> <entry point>`: `workers` processes of the entry
// point sharing one port through Node's cluster (the primary accepts and hands connections out round robin). Once
// every worker listens, the primary sends their pids to its parent (the bench); SIGTERM stops them all, each with
// its own graceful shutdown. A worker that exits on its own ends the cluster: a measurement would be wrong.
const [count, ...startArguments] = process.argv.slice(2);
const entryPoint = startArguments.at(-1);
const workers = Number(count);
if (!entryPoint || !Number.isInteger(workers) || workers < 1) {
  throw new Error("usage: cluster.ts <workers> <node flags...> <entry point>");
}

// No arguments: by default the workers would get the primary's.
cluster.setupPrimary({ exec: entryPoint, execArgv: startArguments.slice(0, -1), args: [] });
const listening = new Set<Worker>();
let stopping = false;

cluster.on("listening", (worker) => {
  listening.add(worker);
  if (listening.size === workers) process.send?.({ listening: [...listening].map((each) => each.process.pid) });
});
cluster.on("exit", (worker, code, signal) => {
  if (!stopping) {
    process.stderr.write(`cluster worker ${worker.process.pid} exited (${code ?? signal}): stopping the others\n`);
    stop(1);
  }
  if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(process.exitCode ?? 0);
});

function stop(exitCode: number) {
  stopping = true;
  process.exitCode = exitCode;
  for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGTERM");
}
process.on("SIGTERM", () => stop(0));
process.on("SIGINT", () => stop(0));

for (let index = 0; index < workers; index++) cluster.fork();
