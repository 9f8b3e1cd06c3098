// The container's HEALTHCHECK and CI's readiness probe (.ci/production-start): exits 0 when this instance's
// /readyz answers 200 within 3 s, 1 otherwise. Plain node, because the runtime image has no curl or wget.
const port = process.env.PORT || "4000";
try {
  const response = await fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(3000) });
  process.exit(response.status === 200 ? 0 : 1);
} catch {
  process.exit(1);
}
