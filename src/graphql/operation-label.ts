import type { OperationDefinitionNode } from "graphql";

/** How the request metrics name a GraphQL operation: its name, else `anonymous query` (or mutation, subscription). */
export function operationLabel(operation: OperationDefinitionNode | null | undefined): string {
  return operation?.name?.value ?? `anonymous ${operation?.operation ?? ""}`;
}
