import type { EventBus, Topic } from './bus.js';

const held = new WeakMap<EventBus, Map<Topic, Promise<void>>>();

/**
 * For caches of a guild's data: watches the guild's topic once and keeps watching, so changes made on other nodes
 * reach the cache's invalidation. Resolves once the topic's events flow; load after it, so no change is missed.
 */
export function watchForCache(bus: EventBus, topic: Topic): Promise<void> {
  let topics = held.get(bus);
  if (!topics) held.set(bus, (topics = new Map()));
  let ready = topics.get(topic);
  if (!ready) topics.set(topic, (ready = bus.watch(topic)));
  return ready;
}
