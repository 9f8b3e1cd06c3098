import type { ExecutionResult } from "graphql";
import { isAsyncIterable, type Plugin } from "graphql-yoga";

/** A result processor, as `onResultProcess` sets one (yoga does not export the type by name). */
type ResultProcessor = Parameters<Parameters<NonNullable<Plugin["onResultProcess"]>>[0]["setResultProcessor"]>[0];

/** Apollo's heartbeat interval: an empty part keeps proxies from closing a quiet stream. */
const heartbeatMs = 5_000;

const boundary = "graphql";
/**
 * Each part is followed by its delimiter at once: a client reads a part when the delimiter after it arrives, so an
 * event must not wait for the next one (or a heartbeat). The closing delimiter is the last one plus `--`.
 */
const partHead = "\r\ncontent-type: application/json; charset=utf-8\r\n\r\n";
const delimiter = `\r\n--${boundary}`;

/** Whether the Accept header asks for Apollo's multipart subscriptions (`multipart/mixed;subscriptionSpec=1.0`). */
function asksForMultipartSubscription(accept: string | null): boolean {
  return (accept ?? "")
    .replace(/\s/g, "")
    .toLowerCase()
    .split(",")
    .some((entry) => {
      const [mediaType, ...parameters] = entry.split(";");
      return (
        mediaType === "multipart/mixed" && parameters.some((parameter) => /^subscriptionspec="?1\.0"?$/.test(parameter))
      );
    });
}

/** The events of a subscription as Apollo's multipart parts: `{ payload }` each, `{}` heartbeats, a closing boundary. */
const answerParts: ResultProcessor = (result, fetchAPI) => {
  const encoder = new fetchAPI.TextEncoder();
  const events: AsyncIterator<ExecutionResult> | undefined = isAsyncIterable(result)
    ? (result as AsyncIterable<ExecutionResult>)[Symbol.asyncIterator]()
    : undefined;
  let single = isAsyncIterable(result) ? undefined : (result as ExecutionResult);
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  const part = (value: unknown) => encoder.encode(partHead + JSON.stringify(value) + delimiter);
  const stream = new fetchAPI.ReadableStream<Uint8Array>({
    start(controller) {
      // A first part at once: the client learns the stream is open (some wait for a first byte).
      controller.enqueue(encoder.encode(delimiter));
      controller.enqueue(part({}));
      heartbeat = setInterval(() => {
        if (controller.desiredSize !== null && controller.desiredSize > 0) controller.enqueue(part({}));
      }, heartbeatMs);
    },
    async pull(controller) {
      const next = events ? await events.next() : { done: single === undefined, value: single };
      single = undefined;
      if (!next.done && next.value) {
        const { data, errors, extensions } = next.value;
        controller.enqueue(part({ payload: { data, errors, extensions } }));
        return;
      }
      clearInterval(heartbeat);
      controller.enqueue(encoder.encode("--\r\n"));
      controller.close();
    },
    async cancel() {
      clearInterval(heartbeat);
      await events?.return?.();
    },
  });
  return new fetchAPI.Response(stream, {
    status: 200,
    headers: {
      "Content-Type": `multipart/mixed; boundary="${boundary}"; subscriptionSpec="1.0"`,
      "Cache-Control": "no-cache",
    },
  });
};

/**
 * Subscriptions over Apollo Client's multipart HTTP protocol (its `HttpLink` sends `Accept:
 * multipart/mixed;subscriptionSpec=1.0`), beside server-sent events and WebSocket: yoga answers subscriptions in
 * `text/event-stream` only, and 406 to that Accept header. The subscription ran through the whole pipeline already
 * (limits, the per-person cap, masking); this only writes its events in Apollo's parts.
 */
export function multipartSubscriptions(): Plugin {
  const subscriptionRequests = new WeakSet<Request>();
  return {
    onSubscribe({ args }) {
      const { request } = args.contextValue as { request?: Request };
      if (request) subscriptionRequests.add(request);
    },
    onResultProcess({ request, setResultProcessor }) {
      if (!subscriptionRequests.has(request) || !asksForMultipartSubscription(request.headers.get("accept"))) return;
      setResultProcessor(answerParts, "multipart/mixed");
    },
  };
}
