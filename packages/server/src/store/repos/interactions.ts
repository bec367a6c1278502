import { Repo } from './repo.js';
import { id, idOrNull } from '../schema.js';
import { num, parseJson } from '../json.js';

/** pending: delivered, waiting for the initial response; acknowledged: answered; failed: timed out or refused. */
export type InteractionState = 'pending' | 'acknowledged' | 'failed';

/** What later steps (responses, follow-ups, modal submits) need to know about the interaction. */
export interface InteractionData {
  nonce: string | null;
  session_id: string | null;
  context: 0 | 1 | 2;
  /** authorizing_integration_owners, string values. */
  owners: Record<string, string>;
  /** The app acts only through the user's installation here (owners has only "1"): follow-up cap applies. */
  user_install_only: boolean;
  /** USE_EXTERNAL_APPS denied for a user-installed app: every response is ephemeral. */
  force_ephemeral: boolean;
  /** Application commands: the command invoked (name includes subcommands, for the deprecated `interaction`). */
  command?: { id: string; name: string; full_name: string; type: number; target_id?: string };
  /** Component interactions (and modal submits opened from one): the message holding the component. */
  message_id?: string;
  custom_id?: string;
  /** Modal submits: the interaction that opened the modal and its metadata. */
  triggering?: Record<string, unknown>;
  /** The `message` field delivered with the interaction (component interactions). */
  message?: Record<string, unknown>;
  /** The callback type of the initial response. */
  response_type?: number;
  /** The deferred (loading) response has not been filled yet. */
  loading?: boolean;
  ephemeral?: boolean;
  /** An opened modal, until it is submitted. */
  modal?: { custom_id: string; title: string; components: unknown[] };
  /** interaction_metadata of response messages (without original_response_message_id). */
  metadata: Record<string, unknown>;
  /** The deprecated `interaction` field of response messages: {id, type, name, user, member?}. */
  legacy?: Record<string, unknown>;
  activity_instance_id?: string;
}

export interface InteractionRecord {
  id: string;
  application_id: string;
  type: number;
  user_id: string;
  guild_id: string | null;
  channel_id: string | null;
  state: InteractionState;
  original_message_id: string | null;
  followups: number;
  data: InteractionData;
  created_at: number;
}

/** A row of `interactions` as a record (its token hash left out). */
export function toInteraction(r: any): InteractionRecord {
  return {
    id: id(r.id),
    application_id: id(r.application_id),
    type: num(r.type),
    user_id: id(r.user_id),
    guild_id: idOrNull(r.guild_id),
    channel_id: idOrNull(r.channel_id),
    state: r.state as InteractionState,
    original_message_id: idOrNull(r.original_message_id),
    followups: num(r.followups),
    data: parseJson<InteractionData>(r.data, {} as InteractionData),
    created_at: num(r.created_at),
  };
}

/** Interactions, their tokens, responses and follow-ups. */
export class InteractionsRepo extends Repo {
  /** Stores a new interaction with the hash of its token (no follow-ups yet). */
  async insert(rec: InteractionRecord, tokenHash: string): Promise<void> {
    await this.db
      .insertInto('interactions')
      .values({
        id: rec.id,
        application_id: rec.application_id,
        token_hash: tokenHash,
        type: rec.type,
        user_id: rec.user_id,
        guild_id: rec.guild_id,
        channel_id: rec.channel_id,
        state: rec.state,
        original_message_id: rec.original_message_id,
        followups: 0,
        data: JSON.stringify(rec.data),
        created_at: rec.created_at,
      })
      .execute();
  }

  /** One interaction, or null. */
  async byId(interactionId: string): Promise<InteractionRecord | null> {
    const row = await this.db.selectFrom('interactions').selectAll().where('id', '=', interactionId).executeTakeFirst();
    return row ? toInteraction(row) : null;
  }

  /** One interaction with the stored hash of its token (for the caller to compare in constant time), or null. */
  async byIdWithTokenHash(interactionId: string): Promise<{ record: InteractionRecord; tokenHash: string } | null> {
    const row = await this.db.selectFrom('interactions').selectAll().where('id', '=', interactionId).executeTakeFirst();
    return row ? { record: toInteraction(row), tokenHash: row.token_hash } : null;
  }

  /** The interaction of an application whose token has this hash, or null. */
  async byAppAndTokenHash(applicationId: string, tokenHash: string): Promise<InteractionRecord | null> {
    const row = await this.db
      .selectFrom('interactions')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .where('application_id', '=', applicationId)
      .executeTakeFirst();
    return row ? toInteraction(row) : null;
  }

  /** Deletes the interactions created at or before `until`; returns how many. */
  async deleteCreatedUntil(until: number): Promise<number> {
    const r = await this.db.deleteFrom('interactions').where('created_at', '<=', until).executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  /**
   * Moves an interaction from state `from` to `to` (saving its data, and the original message id when given) in one
   * conditional write; false when it was not in `from` any more.
   */
  async transition(
    interactionId: string,
    from: InteractionState,
    to: InteractionState,
    data: InteractionData,
    originalMessageId?: string | null,
  ): Promise<boolean> {
    const values: { state: string; data: string; original_message_id?: string | null } = { state: to, data: JSON.stringify(data) };
    if (originalMessageId !== undefined) values.original_message_id = originalMessageId;
    const r = await this.db.updateTable('interactions').set(values).where('id', '=', interactionId).where('state', '=', from).executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** Saves an interaction's data (and the original message id when given) without a state change. */
  async save(interactionId: string, data: InteractionData, originalMessageId?: string | null): Promise<void> {
    const values: { data: string; original_message_id?: string | null } = { data: JSON.stringify(data) };
    if (originalMessageId !== undefined) values.original_message_id = originalMessageId;
    await this.db.updateTable('interactions').set(values).where('id', '=', interactionId).execute();
  }

  /** Records the original response message of an interaction (null: none). */
  async setOriginalMessage(interactionId: string, messageId: string | null): Promise<void> {
    await this.db.updateTable('interactions').set({ original_message_id: messageId }).where('id', '=', interactionId).execute();
  }

  /** Counts one more follow-up of an interaction; false (and nothing counted) when `max` were already sent. */
  async takeFollowup(interactionId: string, max: number | null): Promise<boolean> {
    let q = this.db
      .updateTable('interactions')
      .set((eb) => ({ followups: eb('followups', '+', 1) }))
      .where('id', '=', interactionId);
    if (max !== null) q = q.where('followups', '<', max);
    const r = await q.executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** Gives back a follow-up counted by `takeFollowup` (the follow-up was not sent). */
  async returnFollowup(interactionId: string): Promise<void> {
    await this.db
      .updateTable('interactions')
      .set((eb) => ({ followups: eb('followups', '-', 1) }))
      .where('id', '=', interactionId)
      .execute();
  }

  /** Deletes every interaction of a guild. */
  async deleteInGuild(guildId: string): Promise<void> {
    await this.db.deleteFrom('interactions').where('guild_id', '=', guildId).execute();
  }
}
