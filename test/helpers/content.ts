import { expect } from "vitest";
import type { TestApp } from "./app.ts";

export type ContentEditBody = { revision: string; inserted: { type: string; id: string }[] };

/** Applies content changes at `path` (a space's or change request's `/content`); they must succeed. */
export async function editContent(t: TestApp, token: string, path: string, changes: unknown[]) {
  const response = await t.rest<ContentEditBody>("POST", path, { token, body: { changes } });
  expect(response.status).toBe(200);
  return response.body;
}
