import { readFileSync, writeFileSync } from "node:fs";
import { persistedDocumentsOf } from "../src/graphql/trusted-documents.ts";

// Writes the committed manifest of the SDK's documents; test/sdk/persisted-documents.test.ts fails when it is stale.
const source = readFileSync(new URL("../src/sdk/operations.graphql", import.meta.url), "utf8");
const target = new URL("../src/sdk/persisted-documents.json", import.meta.url);
writeFileSync(target, `${JSON.stringify(persistedDocumentsOf(source), null, 2)}\n`);
process.stdout.write("src/sdk/persisted-documents.json written\n");
