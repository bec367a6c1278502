import { useSyncExternalStore } from 'react';
import type { APIUser, Channel, Message, Presence, Snowflake } from '../api/types.js';
import type { GatewayStatus } from '../gateway/socket.js';
import type { GuildState } from './guild-state.js';

export type { GuildState };

/**
 * Everything the client knows from READY, GUILD_CREATE and later dispatches, plus the messages it loaded over
 * HTTP. State is immutable: each change replaces the slices it touches, so `useStore(selector)` re-renders only
 * the components whose slice changed.
 */

export interface ChannelMessages {
  /** Oldest first. */
  items: Message[];
  /** Older messages exist on the server. */
  hasMore: boolean;
  loading: boolean;
  error: string | null;
}

/** A local echo of something the person did that has no server message yet (or failed). */
export interface LocalMessage {
  nonce: string;
  channelId: Snowflake;
  kind: 'message' | 'command';
  content: string;
  files?: string[];
  state: 'sending' | 'failed';
  error?: string;
  /** For commands: the app's name and the command's text. */
  appName?: string;
  createdAt: number;
}

/** An interaction the person started, keyed by nonce. */
export interface PendingInteraction {
  nonce: string;
  id?: Snowflake;
  kind: 'command' | 'component' | 'modal' | 'autocomplete';
  channelId: Snowflake;
  messageId?: Snowflake;
  customId?: string;
  state: 'sending' | 'created' | 'succeeded' | 'failed';
  error?: string;
}

export interface OpenModal {
  id: Snowflake;
  applicationId: Snowflake;
  channelId: Snowflake;
  guildId: Snowflake | null;
  customId: string;
  title: string;
  components: any[];
}

export interface State {
  status: GatewayStatus;
  statusDetail: string | null;
  me: APIUser | null;
  sessionId: string | null;
  guilds: Map<Snowflake, GuildState>;
  guildOrder: Snowflake[];
  privateChannels: Map<Snowflake, Channel>;
  users: Map<Snowflake, APIUser>;
  presences: Map<Snowflake, Presence>;
  messages: Map<Snowflake, ChannelMessages>;
  local: Map<Snowflake, LocalMessage[]>;
  /** Channel -> user -> typing until (ms). */
  typing: Map<Snowflake, Map<Snowflake, number>>;
  interactions: Map<string, PendingInteraction>;
  modal: OpenModal | null;
  autocomplete: { nonce: string; choices: { name: string; value: string | number }[] } | null;
  /** Bumped when pins change, per channel, so an open pin list reloads. */
  pinsVersion: Map<Snowflake, number>;
  /** How far the person has read in each channel (lib/state/read-states.ts). */
  readStates: Map<Snowflake, ReadState>;
}

/** A channel's read state: read through `lastMessageId`, with `mentionCount` mentions (or DM messages) since. */
export interface ReadState {
  lastMessageId: Snowflake | null;
  mentionCount: number;
}

export const initialState = (): State => ({
  status: 'connecting',
  statusDetail: null,
  me: null,
  sessionId: null,
  guilds: new Map(),
  guildOrder: [],
  privateChannels: new Map(),
  users: new Map(),
  presences: new Map(),
  messages: new Map(),
  local: new Map(),
  typing: new Map(),
  interactions: new Map(),
  modal: null,
  autocomplete: null,
  pinsVersion: new Map(),
  readStates: new Map(),
});

export class Store {
  private listeners = new Set<() => void>();
  private queued = false;
  state: State = initialState();

  subscribe = (fn: () => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };

  /** Replaces top-level slices; listeners run once per microtask however many updates happened. */
  set(patch: Partial<State>): void {
    this.state = { ...this.state, ...patch };
    if (this.queued) return;
    this.queued = true;
    queueMicrotask(() => {
      this.queued = false;
      for (const fn of this.listeners) fn();
    });
  }

  /** Copy-on-write update of one entry of a Map slice. */
  update<K extends keyof State, V>(key: K, id: string, fn: (prev: V | undefined) => V | undefined): void {
    const prev = this.state[key] as unknown as Map<string, V>;
    const next = new Map(prev);
    const v = fn(prev.get(id));
    if (v === undefined) next.delete(id);
    else next.set(id, v);
    this.set({ [key]: next } as Partial<State>);
  }

  reset(): void {
    this.state = initialState();
    for (const fn of this.listeners) fn();
  }
}

/** Subscribes a component to one slice of the store. The selector must return existing objects, not new ones. */
export function useStoreOf<T>(store: Store, selector: (s: State) => T): T {
  return useSyncExternalStore(
    store.subscribe,
    () => selector(store.state),
    () => selector(store.state),
  );
}
