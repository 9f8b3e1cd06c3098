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
