import { EventEmitter } from "node:events";
import type { Database } from "../db/database.ts";
import type { Logger } from "../platform/logger.ts";
import type { EventTopics, Topic } from "./topics.ts";

/** The one PostgreSQL channel every instance listens on; topic and key travel in the payload. */
const channel = "gateway_events";

interface Envelope {
  topic: Topic;
  key: string;
  payload: unknown;
}

/** Events of one topic and key, in order; iterating ends when `close` is called (or the consumer stops). */
export interface EventSubscription<Payload> extends AsyncIterableIterator<Payload> {
  close(): void;
}

/** Replays `first`, then `subscription`, until `until` holds; always stops listening when the consumer goes away. */
export async function* followedBy<Payload>(
  first: Payload[],
  subscription: EventSubscription<Payload>,
  until: (payload: Payload) => boolean,
): AsyncGenerator<Payload> {
  try {
    for (const payload of first) {
      yield payload;
      if (until(payload)) return;
    }
    for await (const payload of subscription) {
      yield payload;
      if (until(payload)) return;
    }
  } finally {
    subscription.close();
  }
}

export interface EventBus {
  /** Sends an event to the subscribers of `topic` and `key` on every instance (through NOTIFY). */
  publish<T extends Topic>(topic: T, key: string, payload: EventTopics[T]): Promise<void>;
  /** Listens from this call on (events published earlier are not replayed); read it with `for await`. */
  subscribe<T extends Topic>(topic: T, key: string): EventSubscription<EventTopics[T]>;
  /** False while this process's LISTEN connection is lost (being re-established): events would not reach it. */
  healthy(): boolean;
  /**
   * Calls `listener` when this process's LISTEN connection is back after a loss: events published in between never
   * arrived, so state kept up to date by events (a cache) is to be dropped then.
   */
  onEventsMissed(listener: () => void): void;
  close(): Promise<void>;
}

/** How events leave and reach this process: the database's LISTEN/NOTIFY, or memory for one-process work. */
type Transport = Pick<Database, "listen" | "notify">;

/** A bus that reaches this process only (CLI commands and tests with nobody listening elsewhere). */
export function inProcessEventBus(logger?: Logger): Promise<EventBus> {
  const emitter = new EventEmitter();
  return startEventBus(
    {
      async listen(name, onMessage) {
        emitter.on(name, onMessage);
        return { healthy: () => true, close: async () => void emitter.off(name, onMessage) };
      },
      async notify(name, payload) {
        emitter.emit(name, payload);
      },
    },
    logger,
  );
}

/** One LISTEN per process, fanned out in memory to the subscriptions of this process. */
export async function startEventBus(transport: Transport, logger?: Logger): Promise<EventBus> {
  const subscribers = new Map<string, Set<(payload: unknown) => void>>();
  const openSubscriptions = new Set<() => void>();
  const address = (topic: Topic, key: string) => `${topic}:${key}`;
  const missedListeners = new Set<() => void>();
  const eventsMissed = () => {
    for (const listener of missedListeners) listener();
  };

  const listening = await transport.listen(
    channel,
    (message) => {
      let envelope: Envelope;
      try {
        envelope = JSON.parse(message) as Envelope;
      } catch {
        logger?.warn("ignored a malformed event", { channel });
        return;
      }
      for (const deliver of subscribers.get(address(envelope.topic, envelope.key)) ?? []) deliver(envelope.payload);
    },
    (error) => logger?.warn("event connection lost; reconnecting", { channel, error: error.message }),
    () => {
      logger?.info("event connection back; state kept from events dropped", { channel });
      eventsMissed();
    },
  );

  return {
    async publish(topic, key, payload) {
      await transport.notify(channel, JSON.stringify({ topic, key, payload } satisfies Envelope));
    },

    subscribe<T extends Topic>(topic: T, key: string): EventSubscription<EventTopics[T]> {
      const queue: EventTopics[T][] = [];
      let wake: (() => void) | undefined;
      let closed = false;
      const target = address(topic, key);
      const deliver = (payload: unknown) => {
        queue.push(payload as EventTopics[T]);
        wake?.();
      };
      if (!subscribers.has(target)) subscribers.set(target, new Set());
      subscribers.get(target)?.add(deliver);

      const close = () => {
        if (closed) return;
        closed = true;
        openSubscriptions.delete(close);
        const set = subscribers.get(target);
        set?.delete(deliver);
        if (set?.size === 0) subscribers.delete(target);
        wake?.();
      };
      openSubscriptions.add(close);
      const subscription: EventSubscription<EventTopics[T]> = {
        close,
        async next() {
          while (queue.length === 0 && !closed) await new Promise<void>((resolve) => (wake = resolve));
          const value = queue.shift();
          return value === undefined ? { done: true, value: undefined } : { done: false, value };
        },
        async return() {
          close();
          return { done: true, value: undefined };
        },
        [Symbol.asyncIterator]() {
          return subscription;
        },
      };
      return subscription;
    },

    healthy: () => listening.healthy(),

    onEventsMissed(listener) {
      missedListeners.add(listener);
    },

    /** Ends every subscription (their streams finish) and stops listening. */
    async close() {
      missedListeners.clear();
      for (const close of [...openSubscriptions]) close();
      await listening.close();
    },
  };
}
