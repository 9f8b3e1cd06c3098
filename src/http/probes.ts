import { Response } from "@whatwg-node/fetch";
import type { Route } from "../app/routes.ts";
import type { Database } from "../db/database.ts";
import type { EventBus } from "../events/bus.ts";
import type { InstanceRole } from "../platform/instance.ts";
import { describeError, type Logger } from "../platform/logger.ts";
import type { Metrics } from "../platform/metrics.ts";

/** Paths of the probes and metrics: labelled by their path, never shed (an overloaded process is alive and says so). */
export const probePaths: ReadonlySet<string> = new Set(["/healthz", "/livez", "/readyz", "/metrics"]);

export interface Probes {
  route: Route;
  /** From now on `/readyz` answers 503, so load balancers stop sending traffic while requests in flight finish. */
  stopAcceptingTraffic(): void;
}

/**
 * Liveness (the process answers), readiness (it can serve: database reachable, not shutting down) and metrics.
 * Readiness lists the read replicas' states too (docs/operations.md).
 */
export function createProbes({
  db,
  events,
  logger,
  metrics,
  instance,
}: {
  db: Database;
  events: EventBus;
  logger: Logger;
  metrics: Metrics;
  /** Said in every `/readyz` answer: what this instance does (serves, runs jobs, traces). */
  instance: InstanceRole;
}): Probes {
  let acceptingTraffic = true;
  // Replicas are reported, never failing readiness: with them down or lagging the reads run on the primary.
  const answer = (status: string, code = 200) => {
    const replicas = db.reads.replicas();
    return Response.json(replicas.length > 0 ? { status, instance, replicas } : { status, instance }, { status: code });
  };

  async function readiness(): Promise<Response> {
    if (!acceptingTraffic) return answer("stopping", 503);
    // Without its LISTEN this instance would serve subscriptions that never hear an event.
    if (!events.healthy()) return answer("event connection unavailable", 503);
    try {
      await db.withRawConnection((connection) => connection.query("SELECT 1"));
      return answer("ready");
    } catch (error) {
      logger.warn("readiness check failed", describeError(error));
      return answer("database unavailable", 503);
    }
  }

  return {
    route({ url }) {
      switch (url.pathname) {
        case "/healthz":
        case "/livez":
          return Promise.resolve(Response.json({ status: "ok" }));
        case "/readyz":
          return readiness();
        case "/metrics":
          return metrics
            .render()
            .then((text) => new Response(text, { headers: { "content-type": metrics.contentType } }));
        default:
          return undefined;
      }
    },
    stopAcceptingTraffic() {
      acceptingTraffic = false;
    },
  };
}
