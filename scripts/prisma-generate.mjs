// Generates the Prisma client at install time. Prisma's CLI insists on a native schema engine binary, which
// cannot be downloaded here; generating the client never uses it, so we hand it a stub that only explains itself.
import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const stubDir = mkdtempSync(join(tmpdir(), "prisma-engine-stub-"));
const stub = join(stubDir, "schema-engine");
writeFileSync(stub, '#!/bin/sh\necho "native schema engine unavailable: use npm run db:migration" >&2\nexit 1\n');
chmodSync(stub, 0o755);

const result = spawnSync(process.execPath, ["node_modules/prisma/build/index.js", "generate"], {
  stdio: "inherit",
  env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: stub, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
});
process.exit(result.status ?? 1);
