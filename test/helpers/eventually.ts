/**
 * Calls `probe` until it answers `expected`, at most `attempts` times 50 ms apart, and returns every answer: a test
 * asserts the last one, and a failure shows the sequence. The default waits about 20 s, not a second: what is awaited
 * (a cache cleared by another instance's event, a pool reconnecting) arrives late on a loaded host, and a right
 * answer that arrives late is still right; a wrong one shows as the sequence or as the test's own time-out.
 */
export async function eventually<Answer>(probe: () => Promise<Answer>, expected: Answer, attempts = 400) {
  const seen: Answer[] = [];
  for (let attempt = 0; attempt < attempts; attempt++) {
    seen.push(await probe());
    if (seen.at(-1) === expected) return seen;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return seen;
}
