const twoDigits = Array.from({ length: 100 }, (_, value) => String(value).padStart(2, "0"));
const threeDigits = Array.from({ length: 1000 }, (_, value) => String(value).padStart(3, "0"));

/**
 * `date.toISOString()`, written in JavaScript for the years 1000-9999: V8's own is a C++ builtin formatting through
 * snprintf, several times slower than this (docs/performance.md), and a list of a thousand change requests
 * serializes two timestamps each. Other years (and invalid dates, which throw) go to the builtin.
 */
export function isoTimestamp(date: Date): string {
  const year = date.getUTCFullYear();
  if (!(year >= 1000 && year <= 9999)) return date.toISOString();
  return `${year}-${twoDigits[date.getUTCMonth() + 1]}-${twoDigits[date.getUTCDate()]}T${twoDigits[date.getUTCHours()]}:${twoDigits[date.getUTCMinutes()]}:${twoDigits[date.getUTCSeconds()]}.${threeDigits[date.getUTCMilliseconds()]}Z`;
}
