import { EventEmitter, on } from 'node:events';
import type { PubSub } from 'type-graphql';

/**
 * An in-process PubSub for type-graphql topic subscriptions (buildSchema needs one as soon as a
 * Subscription exists). It reaches only this process: renderRun subscribes to the cross-process
 * run-events bus (LISTEN/NOTIFY) itself instead.
 */
export function createLocalPubSub(): PubSub {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  const channel = (topic: string, id?: unknown) => (id === undefined ? topic : `${topic}:${String(id)}`);
  return {
    publish(routingKey: string, ...args: unknown[]) {
      const [idOrPayload, payload] = args;
      if (args.length > 1) emitter.emit(channel(routingKey, idOrPayload), payload);
      else emitter.emit(channel(routingKey), idOrPayload);
    },
    subscribe(routingKey: string, dynamicId?: unknown): AsyncIterable<unknown> {
      const events = on(emitter, channel(routingKey, dynamicId));
      return {
        [Symbol.asyncIterator]: () => ({
          next: async () => {
            const result = await events.next();
            return result.done ? result : { value: (result.value as unknown[])[0], done: false };
          },
          return: async () => {
            await events.return?.();
            return { value: undefined, done: true };
          },
        }),
      };
    },
  };
}
