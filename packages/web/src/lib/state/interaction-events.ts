import type { Snowflake } from '../api/types.js';
import { dropLocal, patchLocal } from './message-events.js';
import type { PendingInteraction, Store } from './store.js';

/**
 * The person's side of interactions: INTERACTION_CREATE / SUCCESS / FAILURE by nonce, the modal the app opened,
 * and autocomplete choices. Failure texts are the official client's.
 */

export const FAILURE_TEXT = {
  command: 'The application did not respond',
  component: 'This interaction failed',
} as const;

export function trackInteraction(store: Store, p: PendingInteraction): void {
  store.update('interactions', p.nonce, () => p);
}

function patchByNonce(store: Store, nonce: string | undefined, patch: Partial<PendingInteraction>): PendingInteraction | null {
  if (!nonce) return null;
  const prev = store.state.interactions.get(nonce);
  if (!prev) return null;
  const next = { ...prev, ...patch };
  store.update('interactions', nonce, () => next);
  return next;
}

export function onInteractionCreate(store: Store, d: { id: Snowflake; nonce?: string }): void {
  patchByNonce(store, d.nonce, { id: d.id, state: 'created' });
}

export function onInteractionSuccess(store: Store, d: { id: Snowflake; nonce?: string }): void {
  const p = patchByNonce(store, d.nonce, { id: d.id, state: 'succeeded' });
  // The command's echo gives way to the app's answer (a message, a modal, or a "thinking" placeholder).
  if (p?.kind === 'command') dropLocal(store, p.channelId, p.nonce);
}

export function onInteractionFailure(store: Store, d: { id: Snowflake; nonce?: string; reason_code?: number }): void {
  const p = patchByNonce(store, d.nonce, {
    id: d.id,
    state: 'failed',
    error: FAILURE_TEXT[d.nonce && store.state.interactions.get(d.nonce)?.kind === 'command' ? 'command' : 'component'],
  });
  if (p?.kind === 'command') patchLocal(store, p.channelId, p.nonce, { state: 'failed', error: FAILURE_TEXT.command });
}

export function onModalCreate(store: Store, d: any): void {
  if (d.nonce) patchByNonce(store, d.nonce, { id: d.id, state: 'succeeded' });
  const p = d.nonce ? store.state.interactions.get(d.nonce) : undefined;
  if (p?.kind === 'command') dropLocal(store, p.channelId, p.nonce);
  store.set({
    modal: {
      id: d.id,
      applicationId: d.application?.id,
      channelId: d.channel_id,
      guildId: d.guild_id ?? null,
      customId: d.custom_id,
      title: d.title,
      components: d.components ?? [],
    },
  });
}

export function onAutocomplete(store: Store, d: { nonce?: string; choices?: { name: string; value: string | number }[] }): void {
  if (!d.nonce) return;
  store.set({ autocomplete: { nonce: d.nonce, choices: d.choices ?? [] } });
}
