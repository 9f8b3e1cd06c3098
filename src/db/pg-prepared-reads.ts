import type pg from "pg";
import { postgresTextParameter } from "../lib/postgres-text-parameter.ts";
import type { DriverQueries } from "./sql.ts";

// The hand-written reads on `pg`, through its public Submittable interface (what pg-cursor hands to `client.query`:
// an object driving the connection's protocol methods and receiving the backend's messages). `pg`'s own Query asks
// PostgreSQL to describe the result columns on every execution and rebuilds its per-column state from that answer
// each time (for the space read's 45 columns, a sixth of a small request's CPU); the texts here are a fixed set, so
// each is prepared once per connection under its own name and described once per process, and every later execution
// is Bind, Execute, Sync.

type Parser = (text: string) => unknown;

/** The parts of PostgreSQL's messages read here, as `pg` hands them over. */
interface RowDescription {
  fields: { name: string; dataTypeID: number }[];
}
interface DataRow {
  fields: (string | null)[];
}

/** A statement's result columns, from its first row description: the texts are fixed, so are their columns. */
interface Columns {
  fields: { name: string }[];
  parsers: Parser[];
}

interface Statement {
  name: string;
  text: string;
  columns: Columns | undefined;
}

/** Statement names prepared on each connection; a connection that fails a read is discarded with its statements. */
const preparedOn = new WeakMap<pg.Connection, Set<string>>();

/** One execution of a prepared statement, each row as its values by column index. */
class PreparedRead<Row> implements pg.Submittable {
  readonly rows: Row[] = [];
  /** The columns this execution reads its rows with: the statement's known ones, or those it asked to be described. */
  columns: Columns | undefined;
  private rowError: unknown;
  private settled = false;

  /**
   * Called once, when the read has ended: `pg`'s Query convention, which pg's OpenTelemetry instrumentation wraps
   * to end the statement's span (it reads `text` for the span, and leaves a Submittable without `callback` open).
   */
  callback: (error: unknown) => void;

  constructor(
    private readonly statement: Statement,
    private readonly values: (string | null)[],
    private readonly parserFor: (oid: number) => Parser,
    callback: (error: unknown) => void,
  ) {
    this.callback = callback;
  }

  get text(): string {
    return this.statement.text;
  }

  /** An error is followed by ReadyForQuery: the first of the two ends the read. */
  private settle(error: unknown): void {
    if (this.settled) return;
    this.settled = true;
    this.callback(error);
  }

  submit(connection: pg.Connection): void {
    const { name, text } = this.statement;
    this.columns = this.statement.columns;
    let prepared = preparedOn.get(connection);
    if (!prepared) {
      prepared = new Set();
      preparedOn.set(connection, prepared);
    }
    // One write for all messages, as pg's Query does.
    connection.stream.cork();
    try {
      if (!prepared.has(name)) {
        connection.parse({ name, text, types: [] }, false);
        prepared.add(name);
      }
      connection.bind({ statement: name, values: this.values }, false);
      if (!this.columns) connection.describe({ type: "P", name: "" }, false);
      connection.execute({}, false);
      connection.sync();
    } finally {
      connection.stream.uncork();
    }
  }

  handleRowDescription(message: RowDescription): void {
    this.columns = {
      fields: message.fields.map(({ name }) => ({ name })),
      parsers: message.fields.map(({ dataTypeID }) => this.parserFor(dataTypeID)),
    };
    this.statement.columns = this.columns;
  }

  handleDataRow(message: DataRow): void {
    if (this.rowError !== undefined) return;
    const { fields, parsers } = this.columns as Columns;
    const texts = message.fields;
    if (texts.length !== fields.length) {
      // The table changed under a running process (another instance migrated it): described again next time.
      this.statement.columns = undefined;
      this.rowError = new Error(`The columns of ${this.statement.name} changed; the read is described again`);
      return;
    }
    try {
      const row = new Array<unknown>(texts.length);
      for (let index = 0; index < texts.length; index++) {
        const text = texts[index] as string | null;
        row[index] = text === null ? null : (parsers[index] as Parser)(text);
      }
      this.rows.push(row as Row);
    } catch (error) {
      // The backend still sends the rest of the answer: the read fails once it is ready again.
      this.rowError = error;
    }
  }

  handleCommandComplete(): void {}

  handleEmptyQuery(): void {}

  handlePortalSuspended(): void {}

  handleCopyInResponse(connection: pg.Connection & { sendCopyFail(message: string): void }): void {
    connection.sendCopyFail("a read accepts no COPY");
  }

  handleCopyData(): void {}

  handleError(error: unknown): void {
    // Among the errors, "cached plan must not change result type" (a migration changed the columns): whatever it
    // was, the next execution describes the columns again.
    this.statement.columns = undefined;
    this.settle(error);
  }

  handleReadyForQuery(): void {
    this.settle(this.rowError);
  }
}

export function createPreparedReads(pool: pg.Pool, parserFor: (oid: number) => Parser): DriverQueries {
  const statements = new Map<string, Statement>();
  const statementFor = (text: string) => {
    let statement = statements.get(text);
    if (!statement) {
      statement = { name: `read_${statements.size}`, text, columns: undefined };
      statements.set(text, statement);
    }
    return statement;
  };

  async function run<Row>(text: string, params: unknown[]) {
    const statement = statementFor(text);
    const values = params.map(postgresTextParameter);
    const client = await pool.connect();
    // A checked-out client's connection errors (PostgreSQL restarting, the connection killed) are emitted on the
    // client, where nothing else listens while it is out of the pool: unheard they would end the process. The read
    // itself fails through `handleError`.
    const ignoreConnectionError = () => {};
    client.on("error", ignoreConnectionError);
    let read: PreparedRead<Row> | undefined;
    try {
      await new Promise<void>((resolve, reject) => {
        read = new PreparedRead<Row>(statement, values, parserFor, (error) =>
          error === undefined ? resolve() : reject(error),
        );
        client.query(read);
      });
    } catch (error) {
      // As pg's pool does for a failed query: the connection (and what it prepared) is not reused.
      client.removeListener("error", ignoreConnectionError);
      client.release(error instanceof Error ? error : true);
      throw error;
    }
    client.removeListener("error", ignoreConnectionError);
    client.release();
    const { columns, rows } = read as PreparedRead<Row>;
    return { fields: (columns as Columns).fields, rows };
  }

  return { arrays: (text, params) => run<unknown[]>(text, params) };
}
