import type pg from "pg";
import { postgresTextParameter } from "../lib/postgres-text-parameter.ts";
import type { DriverQueries } from "./sql.ts";

// The hand-written reads on `pg`'s public query API: each text runs as a named prepared statement (parsed once per
// connection, `pg` keeps track of which), its rows as arrays read with our type parsers. A failed read releases its
// connection as broken, so a statement a migration invalidated ("cached plan must not change result type") is
// prepared afresh on the next connection.

/**
 * The texts are module constants, plus a few built per call from a list's order and filters: the first this many
 * distinct texts are prepared on each connection that runs them, later ones run unnamed, so that neither this process
 * nor a PostgreSQL backend holds an unbounded number of statements.
 */
const maxPreparedTexts = 1000;

export function createPreparedReads(
  pool: pg.Pool,
  parserFor: (oid: number) => (text: string) => unknown,
): DriverQueries {
  const names = new Map<string, string>();
  const nameOf = (text: string) => {
    let name = names.get(text);
    if (name === undefined && names.size < maxPreparedTexts) {
      name = `read_${names.size}`;
      names.set(text, name);
    }
    return name;
  };
  const types = { getTypeParser: parserFor };
  return {
    async arrays(text, params) {
      // Checked out with `await` rather than through `pool.query`'s callbacks: the statement then runs in its caller's
      // async context, where a trace (src/platform/tracing.ts) finds its parent span.
      const client = await pool.connect();
      // While checked out, nothing else listens for the client's connection errors; the read itself fails with them.
      const ignoreConnectionError = () => {};
      client.on("error", ignoreConnectionError);
      try {
        const result = await client.query<unknown[]>({
          name: nameOf(text),
          text,
          values: params.map(postgresTextParameter),
          rowMode: "array",
          types,
        });
        client.release();
        return { fields: result.fields, rows: result.rows };
      } catch (error) {
        // As `pool.query` does: a connection that failed a read (and the statements it prepared) is not reused.
        client.release(error instanceof Error ? error : true);
        throw error;
      } finally {
        client.removeListener("error", ignoreConnectionError);
      }
    },
  };
}
