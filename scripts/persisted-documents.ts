import { readFileSync, writeFileSync } from "node:fs";
import { persistedDocumentsOf } from "../src/graphql/trusted-documents.ts";

// Writes the committed manifest of the SDK's documents; test/sdk/persisted-documents.test.ts fails when it is stale.
const source = readFileSync(new URL("../packages/sdk/src/operations.graphql", import.meta.url), "utf8");
const target = new URL("../packages/sdk/src/persisted-documents.json", import.meta.url);
writeFileSync(target, `${JSON.stringify(persistedDocumentsOf(source), null, 2)}\n`);
process.stdout.write("packages/sdk/src/persisted-documents.json written\n");
