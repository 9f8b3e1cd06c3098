import { getOperationAST } from "graphql";
import type { Plugin } from "graphql-yoga";
import type { ReadRouting } from "../db/read-replicas.ts";
import { announceWrite } from "../events/write-positions.ts";
import type { RequestContext } from "../request/context.ts";

/**
 * Reads beyond one machine (docs/operations.md): a query (`/graphql`, or a REST GET, whose document is a query) runs
 * on the clients `reads` chooses for its caller, a replica's unless the caller's own last write has not reached one;
 * the services find them in the context as always. A mutation runs on the primary and, once done, announces that its
 * caller wrote (to this instance and the others). Subscriptions stay on the primary: an event's reader must see the write that sent it.
 */
export function replicaReads(reads: ReadRouting): Plugin<RequestContext> {
  return {
    onExecute({ args }) {
      const context = args.contextValue;
      const person = context.viewer?.userId;
      switch (getOperationAST(args.document, args.operationName)?.operation) {
        case "query": {
          const clients = reads.forReader(person);
          if (!("then" in clients)) {
            context.prisma = clients.prisma;
            context.sql = clients.sql;
            return;
          }
          return clients.then((chosen) => {
            context.prisma = chosen.prisma;
            context.sql = chosen.sql;
          });
        }
        case "mutation":
          if (person === undefined) return;
          return { onExecuteDone: () => announceWrite(context.events, reads, person) };
        default:
          return;
      }
    },
  };
}
