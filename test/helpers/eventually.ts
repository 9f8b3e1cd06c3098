/**
 * Calls `probe` until it answers `expected`, at most `attempts` times 50 ms apart (about a second by default), and
 * returns every answer: a test asserts the last one, and a failure shows the sequence.
 */
export async function eventually<Answer>(probe: () => Promise<Answer>, expected: Answer, attempts = 20) {
  const seen: Answer[] = [];
  for (let attempt = 0; attempt < attempts; attempt++) {
    seen.push(await probe());
    if (seen.at(-1) === expected) return seen;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return seen;
}
