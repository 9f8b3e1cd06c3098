import type { PrismaExecutor } from "../../db/database.ts";

/** The first revision of a new space: empty, or a copy of the revision `copyOf` (a duplicated space). */
export interface FirstRevision {
  id: string;
  spaceId: string;
  createdById: string;
  createdAt: Date;
  copyOf?: string;
}

export type FirstRevisionWriter = (tx: PrismaExecutor, first: FirstRevision) => Promise<void>;

/**
 * Space owns spaces and content owns revisions, and content reads spaces: so space must not import content. Content's
 * writer is registered here by the composition root (src/app/module-wiring.ts) before any space is created.
 */
let registeredWriter: FirstRevisionWriter | undefined;

export function registerFirstRevisionWriter(write: FirstRevisionWriter): void {
  registeredWriter = write;
}

export function writeFirstRevision(tx: PrismaExecutor, first: FirstRevision): Promise<void> {
  if (!registeredWriter) throw new Error("No first-revision writer: src/app/module-wiring.ts was not loaded");
  return registeredWriter(tx, first);
}
