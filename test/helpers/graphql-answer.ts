import { ClientError } from "graphql-request";
import { expect } from "vitest";
import { baseUrl, type TestApp } from "./app.ts";

export interface GraphQLAnswer {
  data?: Record<string, unknown> | null;
  errors?: { message: string; path?: (string | number)[]; extensions?: { code?: string } }[];
}

/**
 * The whole answer to a POST of `query` by the holder of `token`, errors and data together (graphql-request throws
 * away the data of an answer with errors); always a 200.
 */
export async function graphqlAnswer(
  app: TestApp,
  token: string,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<GraphQLAnswer> {
  const response = await app.app.fetch(
    new Request(`${baseUrl}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ query, variables }),
    }),
  );
  expect(response.status).toBe(200);
  return (await response.json()) as GraphQLAnswer;
}

/** The first error of a refused graphql-request call (its code and message); null when the call succeeded. */
export async function refusalOf(call: Promise<unknown>): Promise<{ code: unknown; message: string } | null> {
  const error = await call.then(
    () => null,
    (refused: unknown) => refused,
  );
  if (error === null) return null;
  if (!(error instanceof ClientError)) throw error;
  const first = error.response.errors?.[0];
  return { code: first?.extensions?.code, message: first?.message ?? "" };
}
