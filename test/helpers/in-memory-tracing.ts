import { InMemorySpanExporter } from "@opentelemetry/sdk-trace-node";
import { startTracing } from "../../src/platform/tracing.ts";

// Imported first by a test file (a bare import, so that it stays first): tracing starts before the test helpers
// load `pg` and `node:http`, as main.ts starts it before the server opens its database. Spans end up here.
const exporter = new InMemorySpanExporter();
await startTracing({
  serviceName: "tracing-test",
  exporter,
  warn: (message) => {
    throw new Error(`OpenTelemetry: ${message}`);
  },
});

/** The spans ended so far (an exporter handed in gets each span as it ends). */
export const finishedSpans = () => exporter.getFinishedSpans();
