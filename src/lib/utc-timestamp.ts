const isDigit = (code: number) => code >= 48 && code <= 57;

/** The number the two ASCII digits of `text` at `index` write. */
const twoDigits = (text: string, index: number) => (text.charCodeAt(index) - 48) * 10 + text.charCodeAt(index + 1) - 48;

/** Fraction digits a millisecond needs. */
const millisecondDigits = 3;

/**
 * `timestamp` text as PostgreSQL prints it (`2026-01-31 12:34:56`, then up to three fraction digits), read as UTC.
 * The nested reads and long lists parse thousands per request, and building an ISO string for `Date`'s parser cost
 * three times as much as reading the digits; any other form (`infinity`, years before 100 or past 9999, BC, more
 * fraction digits) goes to that parser.
 */
export function parseUtcTimestamp(text: string): Date {
  const length = text.length;
  const regular =
    length >= 19 &&
    length !== 20 &&
    length <= 20 + millisecondDigits &&
    text.charCodeAt(4) === 45 &&
    text.charCodeAt(10) === 32 &&
    (length === 19 || text.charCodeAt(19) === 46) &&
    text.charCodeAt(0) !== 48;
  if (!regular) return new Date(`${text.replace(" ", "T")}Z`);
  let milliseconds = 0;
  for (let index = 20, scale = 100; index < length; index++, scale /= 10) {
    const code = text.charCodeAt(index);
    if (!isDigit(code)) return new Date(`${text.replace(" ", "T")}Z`);
    milliseconds += (code - 48) * scale;
  }
  const year = twoDigits(text, 0) * 100 + twoDigits(text, 2);
  return new Date(
    Date.UTC(
      year,
      twoDigits(text, 5) - 1,
      twoDigits(text, 8),
      twoDigits(text, 11),
      twoDigits(text, 14),
      twoDigits(text, 17),
      milliseconds,
    ),
  );
}
