/** One GraphQL subscription over server-sent events (graphql-yoga's distinct-connections protocol). */
export interface SseSubscription {
  /** The next `next` event's payload (`{ data, errors }`), or null once the stream completed. */
  next(): Promise<{ data?: Record<string, unknown>; errors?: { message: string; extensions?: unknown }[] } | null>;
  close(): Promise<void>;
}

export async function subscribe(
  fetch: (request: Request) => Promise<Response>,
  url: string,
  token: string,
  query: string,
  variables: Record<string, unknown>,
): Promise<SseSubscription> {
  const response = await fetch(
    new Request(url, {
      method: "POST",
      headers: { accept: "text/event-stream", "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ query, variables }),
    }),
  );
  if (!response.ok || !response.body) throw new Error(`Subscription failed with ${response.status}`);
  return sseEvents(response.body);
}

/** Reads the events of an open subscription's response body. */
export function sseEvents(body: NonNullable<Response["body"]>): SseSubscription {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  return {
    async next() {
      for (;;) {
        const end = buffer.indexOf("\n\n");
        if (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event === "complete") return null;
          if (event === "next" && data) return JSON.parse(data);
          continue; // keep-alive comments
        }
        const chunk = await reader.read();
        if (chunk.done) return null;
        buffer += chunk.value;
      }
    },
    close: () => reader.cancel(),
  };
}
