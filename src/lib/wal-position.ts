/**
 * A PostgreSQL write-ahead log position (`pg_lsn`, written `16/B374D848`: the high and low 32 bits in hex) as a
 * number that compares: a replica has replayed a write when its replay position is at least the write's.
 */
export function walPosition(text: string): bigint {
  const match = /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/.exec(text);
  if (!match) throw new Error(`Not a WAL position: ${JSON.stringify(text)}`);
  return (BigInt(`0x${match[1]}`) << 32n) | BigInt(`0x${match[2]}`);
}
