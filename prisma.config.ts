import { defineConfig } from "prisma/config";

// Prisma's CLI only generates the client here; migrations are generated and applied by our own scripts
// (see scripts/migrations.ts and src/db/migrate.ts) because no native schema engine can be downloaded.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
});
