import { readableError } from '../lib/api/errors.js';
import type { Api } from '../lib/api/routes.js';
import type { APIApplicationCommand, Channel, Snowflake } from '../lib/api/types.js';
import { FAILURE_TEXT, trackInteraction } from '../lib/state/interaction-events.js';
import { addLocal, patchLocal } from '../lib/state/message-events.js';
import { makeNonce } from '../lib/state/snowflake.js';
import type { PendingInteraction, Store } from '../lib/state/store.js';

/**
 * The person's side of interactions, exactly as the official client sends it: `POST /interactions` with the
 * Gateway session id and a nonce, files as multipart. The answer arrives over the Gateway (INTERACTION_CREATE /
 * SUCCESS / FAILURE, the app's message or modal), which the store folds in by nonce.
 */

interface Where {
  channel: Channel;
  applicationId: Snowflake;
}

async function send(
  api: Api,
  store: Store,
  where: Where,
  type: number,
  data: Record<string, unknown>,
  p: Omit<PendingInteraction, 'nonce' | 'channelId' | 'state'>,
  extra: Record<string, unknown> = {},
  files?: File[],
) {
  const nonce = makeNonce();
  trackInteraction(store, { ...p, nonce, channelId: where.channel.id, state: 'sending' });
  const body = {
    type,
    application_id: where.applicationId,
    channel_id: where.channel.id,
    ...(where.channel.guild_id ? { guild_id: where.channel.guild_id } : {}),
    session_id: store.state.sessionId ?? 'web',
    nonce,
    data,
    ...extra,
  };
  try {
    await api.interactions.create(body, files);
  } catch (err) {
    trackInteraction(store, { ...p, nonce, channelId: where.channel.id, state: 'failed', error: readableError(err) });
    throw err;
  }
  return nonce;
}

export interface CommandRun {
  command: APIApplicationCommand;
  appName: string;
  /** The options tree as the interaction wants it (subcommands nested). */
  options: unknown[];
  /** "/name sub value…" shown in the local echo. */
  display: string;
  files?: File[];
}

/** A slash command: a local "Sending command…" echo until the app answers, or "did not respond" when it fails. */
export async function runCommand(api: Api, store: Store, channel: Channel, run: CommandRun): Promise<void> {
  const nonce = makeNonce();
  addLocal(store, { nonce, channelId: channel.id, kind: 'command', content: run.display, appName: run.appName, state: 'sending', createdAt: Date.now() });
  trackInteraction(store, { nonce, kind: 'command', channelId: channel.id, state: 'sending' });
  const data: Record<string, unknown> = { id: run.command.id, name: run.command.name, type: 1, version: run.command.version, options: run.options };
  if (run.files?.length) data.attachments = run.files.map((f, i) => ({ id: String(i), filename: f.name }));
  try {
    await api.interactions.create(
      {
        type: 2,
        application_id: run.command.application_id,
        channel_id: channel.id,
        ...(channel.guild_id ? { guild_id: channel.guild_id } : {}),
        session_id: store.state.sessionId ?? 'web',
        nonce,
        data,
      },
      run.files,
    );
  } catch (err) {
    patchLocal(store, channel.id, nonce, { state: 'failed', error: readableError(err) || FAILURE_TEXT.command });
    trackInteraction(store, { nonce, kind: 'command', channelId: channel.id, state: 'failed', error: readableError(err) });
  }
}

/** A user or message context-menu command on a target. */
export async function runContextCommand(
  api: Api,
  store: Store,
  channel: Channel,
  command: APIApplicationCommand,
  appName: string,
  targetId: Snowflake,
): Promise<void> {
  const nonce = makeNonce();
  addLocal(store, { nonce, channelId: channel.id, kind: 'command', content: command.name, appName, state: 'sending', createdAt: Date.now() });
  trackInteraction(store, { nonce, kind: 'command', channelId: channel.id, state: 'sending' });
  try {
    await api.interactions.create({
      type: 2,
      application_id: command.application_id,
      channel_id: channel.id,
      ...(channel.guild_id ? { guild_id: channel.guild_id } : {}),
      session_id: store.state.sessionId ?? 'web',
      nonce,
      data: { id: command.id, name: command.name, type: command.type, version: command.version, target_id: targetId },
    });
  } catch (err) {
    patchLocal(store, channel.id, nonce, { state: 'failed', error: readableError(err) });
  }
}

/** Autocomplete for the focused option; choices come back as APPLICATION_COMMAND_AUTOCOMPLETE_RESPONSE. */
export function requestAutocomplete(api: Api, store: Store, channel: Channel, command: APIApplicationCommand, options: unknown[]): Promise<string> {
  return send(
    api,
    store,
    { channel, applicationId: command.application_id },
    4,
    { id: command.id, name: command.name, type: 1, version: command.version, options },
    { kind: 'autocomplete' },
  );
}

/** A button click or a select menu choice on an app's message. */
export function clickComponent(
  api: Api,
  store: Store,
  channel: Channel,
  message: { id: Snowflake; flags?: number; application_id?: Snowflake; author: { id: Snowflake } },
  component: { custom_id: string; type: number },
  values?: string[],
): Promise<string> {
  const applicationId = message.application_id ?? message.author.id;
  return send(
    api,
    store,
    { channel, applicationId },
    3,
    { component_type: component.type, custom_id: component.custom_id, ...(values ? { values } : {}) },
    { kind: 'component', messageId: message.id, customId: component.custom_id },
    { message_id: message.id, message_flags: message.flags ?? 0 },
  );
}

/** Submits the open modal with what the person entered; File Upload files go as multipart. */
export function submitModal(
  api: Api,
  store: Store,
  channel: Channel,
  modal: { id: Snowflake; applicationId: Snowflake; customId: string },
  components: unknown[],
  files: File[],
): Promise<string> {
  const data: Record<string, unknown> = { id: modal.id, custom_id: modal.customId, components };
  if (files.length) data.attachments = files.map((f, i) => ({ id: String(i), filename: f.name }));
  return send(api, store, { channel, applicationId: modal.applicationId }, 5, data, { kind: 'modal' }, {}, files);
}
