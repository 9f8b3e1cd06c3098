// `prisma dev` is the only caller; this project opens PGlite or PostgreSQL itself (src/db/database.ts).
export function startLocalDurableStreamsServer() {
  throw new Error("Prisma Streams is not installed here: `prisma dev` is not part of this project");
}
