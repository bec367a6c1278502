import { readableError } from '../api/errors.js';
import type { Api } from '../api/routes.js';
import type { Message, Snowflake } from '../api/types.js';
import { addLocal, dropLocal, emptyChannel, patchLocal, upsert } from './message-events.js';
import { makeNonce } from './snowflake.js';
import type { ChannelMessages, Store } from './store.js';

/** What the chat does with the API and the store together: load history, send, and echo locally. */

const PAGE = 50;

/** Loads the newest page the first time a channel opens; later opens use what the Gateway kept up to date. */
export async function openChannel(api: Api, store: Store, channelId: Snowflake): Promise<void> {
  const have = store.state.messages.get(channelId);
  if (have && (have.items.length || have.loading || !have.error)) return;
  store.update<'messages', ChannelMessages>('messages', channelId, () => ({ ...emptyChannel(), loading: true }));
  try {
    const page = await api.channels.messages(channelId, { limit: PAGE });
    store.update<'messages', ChannelMessages>('messages', channelId, (prev) => {
      // Messages that arrived over the Gateway while the page loaded are kept.
      let items = [...page].reverse();
      for (const m of prev?.items ?? []) items = upsert(items, m);
      return { items, hasMore: page.length === PAGE, loading: false, error: null };
    });
  } catch (err) {
    store.update<'messages', ChannelMessages>('messages', channelId, () => ({ ...emptyChannel(), hasMore: false, error: readableError(err) }));
  }
}

/** The page before the oldest loaded message (scrolling up). */
export async function loadOlder(api: Api, store: Store, channelId: Snowflake): Promise<void> {
  const have = store.state.messages.get(channelId);
  if (!have || have.loading || !have.hasMore || !have.items.length) return;
  store.update<'messages', ChannelMessages>('messages', channelId, (prev) => prev && { ...prev, loading: true });
  try {
    const page = await api.channels.messages(channelId, { before: have.items[0].id, limit: PAGE });
    store.update<'messages', ChannelMessages>(
      'messages',
      channelId,
      (prev) =>
        prev && {
          ...prev,
          items: [...[...page].reverse(), ...prev.items],
          hasMore: page.length === PAGE,
          loading: false,
        },
    );
  } catch (err) {
    store.update<'messages', ChannelMessages>('messages', channelId, (prev) => prev && { ...prev, loading: false, error: readableError(err) });
  }
}

export interface Outgoing {
  content: string;
  files?: File[];
  replyTo?: Snowflake | null;
  poll?: { question: string; answers: string[]; duration: number; multiselect: boolean };
}

/** Sends with a nonce and shows a local echo until MESSAGE_CREATE with that nonce arrives (or the send fails). */
export async function sendMessage(api: Api, store: Store, channelId: Snowflake, out: Outgoing): Promise<Message | null> {
  const nonce = makeNonce();
  addLocal(store, {
    nonce,
    channelId,
    kind: 'message',
    content: out.content || (out.poll ? `Poll: ${out.poll.question}` : ''),
    files: out.files?.map((f) => f.name),
    state: 'sending',
    createdAt: Date.now(),
  });
  const body: Record<string, unknown> = { content: out.content, nonce, enforce_nonce: true };
  if (out.replyTo) body.message_reference = { message_id: out.replyTo, fail_if_not_exists: false };
  if (out.files?.length) body.attachments = out.files.map((f, i) => ({ id: i, filename: f.name }));
  if (out.poll) {
    body.poll = {
      question: { text: out.poll.question },
      answers: out.poll.answers.map((a) => ({ poll_media: { text: a } })),
      duration: out.poll.duration,
      allow_multiselect: out.poll.multiselect,
    };
  }
  try {
    const m = await api.channels.send(channelId, body, out.files);
    dropLocal(store, channelId, nonce);
    const c = store.state.messages.get(channelId);
    if (c) store.update<'messages', ChannelMessages>('messages', channelId, () => ({ ...c, items: upsert(c.items, m) }));
    return m;
  } catch (err) {
    patchLocal(store, channelId, nonce, { state: 'failed', error: readableError(err) });
    return null;
  }
}
