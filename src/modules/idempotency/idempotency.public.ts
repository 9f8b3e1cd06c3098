/** The idempotency module's door: all that other modules and the app may use of it (docs/architecture.md). */
export {
  abandonIdempotentRequest,
  finishIdempotentRequest,
  requestHash,
  startIdempotentRequest,
} from "./idempotency.service.ts";
