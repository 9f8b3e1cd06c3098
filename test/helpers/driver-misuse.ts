import { afterAll, expect } from "vitest";

// pg runs one statement at a time per client and queues the rest, a use it deprecates and pg 9 will refuse: code that
// sends two statements at once on one connection (Promise.all inside a transaction) fails the test file that runs it.
// Node prints a deprecation once per process, so one such statement is enough to see.
const misuses: string[] = [];
process.on("warning", (warning) => {
  if (warning.name === "DeprecationWarning" && warning.message.includes("already executing a query")) {
    misuses.push(warning.message);
  }
});

afterAll(() => {
  expect(misuses, "statements sent on a connection that was still running one").toEqual([]);
});
