import { writeFileSync } from "node:fs";
import { printSortedSchema } from "../src/app/schema.ts";

// Writes the committed schema.graphql; test/graphql/schema.test.ts fails when it is stale.
writeFileSync(new URL("../schema.graphql", import.meta.url), printSortedSchema());
process.stdout.write("schema.graphql written\n");
