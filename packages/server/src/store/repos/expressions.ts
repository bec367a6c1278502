import { Repo } from './repo.js';
import type { Kysely } from 'kysely';
import type { DB } from '../schema.js';
import type { EmojisTable, SoundboardSoundsTable, StickersTable } from '../tables/expressions.js';

/** Emojis, stickers, soundboard sounds and the asset bytes behind them. */
export class ExpressionsRepo extends Repo {
  /** Deletes a guild's emojis, stickers and soundboard sounds with their asset bytes. */
  async deleteInGuild(guildId: string): Promise<void> {
    for (const table of ['emojis', 'stickers', 'soundboard_sounds'] as const) {
      const ids = this.db.selectFrom(table).select('id').where('guild_id', '=', guildId);
      await this.db.deleteFrom('expression_assets').where('id', 'in', ids).execute();
      await this.db.deleteFrom(table).where('guild_id', '=', guildId).execute();
    }
  }

  /** Stores (replaces) the bytes behind an owner: an emoji, sticker, sound, event cover or app icon. */
  async putAsset(ownerId: string, a: { kind: string; contentType: string; hash: string | null; data: Buffer; createdAt: number }): Promise<void> {
    await this.db.deleteFrom('expression_assets').where('id', '=', ownerId).execute();
    await this.db
      .insertInto('expression_assets')
      .values({ id: ownerId, kind: a.kind, content_type: a.contentType, hash: a.hash, data: a.data, created_at: a.createdAt })
      .execute();
  }

  /** The bytes behind an owner with their kind, content type and hash, or null. */
  async readAsset(ownerId: string): Promise<{ kind: string; data: Buffer; contentType: string; hash: string | null } | null> {
    const row = await this.db.selectFrom('expression_assets').selectAll().where('id', '=', ownerId).executeTakeFirst();
    if (!row) return null;
    const data = Buffer.isBuffer(row.data) ? row.data : Buffer.from(row.data as any);
    return { kind: row.kind, data, contentType: row.content_type, hash: row.hash ?? null };
  }

  /** Deletes the bytes behind these owners. */
  async deleteAssets(ids: string[]): Promise<void> {
    if (ids.length) await this.db.deleteFrom('expression_assets').where('id', 'in', ids).execute();
  }

  /** A guild's emojis, by id. */
  async emojisOfGuild(guildId: string): Promise<EmojisTable[]> {
    return (await this.db.selectFrom('emojis').selectAll().where('guild_id', '=', guildId).orderBy('id').execute()) as EmojisTable[];
  }

  /** An emoji of this guild, or null. */
  async emojiInGuild(guildId: string, emojiId: string): Promise<EmojisTable | null> {
    return (
      ((await this.db.selectFrom('emojis').selectAll().where('id', '=', emojiId).where('guild_id', '=', guildId).executeTakeFirst()) as
        EmojisTable | undefined) ?? null
    );
  }

  /** An emoji of this application, or null. */
  async emojiOfApp(applicationId: string, emojiId: string): Promise<EmojisTable | null> {
    return (
      ((await this.db.selectFrom('emojis').selectAll().where('id', '=', emojiId).where('application_id', '=', applicationId).executeTakeFirst()) as
        EmojisTable | undefined) ?? null
    );
  }

  /** Any custom emoji (guild or application) by id, or null. */
  async emojiById(emojiId: string): Promise<EmojisTable | null> {
    return ((await this.db.selectFrom('emojis').selectAll().where('id', '=', emojiId).executeTakeFirst()) as EmojisTable | undefined) ?? null;
  }

  /** An application's emojis, by id. */
  async emojisOfApp(applicationId: string): Promise<EmojisTable[]> {
    return (await this.db.selectFrom('emojis').selectAll().where('application_id', '=', applicationId).orderBy('id').execute()) as EmojisTable[];
  }

  /** How many emojis an application has. */
  async countAppEmojis(applicationId: string): Promise<number> {
    const r = await this.db
      .selectFrom('emojis')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('application_id', '=', applicationId)
      .executeTakeFirst();
    return Number(r?.n ?? 0);
  }

  /** Whether another emoji of this application (not `except`) has this name. */
  async appEmojiNameTaken(applicationId: string, name: string, except: string | null): Promise<boolean> {
    let q = this.db.selectFrom('emojis').select('id').where('application_id', '=', applicationId).where('name', '=', name);
    if (except) q = q.where('id', '!=', except);
    return !!(await q.executeTakeFirst());
  }

  /** Inserts an emoji with its image, in one transaction. */
  async insertEmoji(row: EmojisTable, asset: { contentType: string; data: Buffer; createdAt: number }): Promise<void> {
    const run = async (db: Kysely<DB>) => {
      await db.insertInto('emojis').values(row).execute();
      await db.deleteFrom('expression_assets').where('id', '=', row.id).execute();
      await db
        .insertInto('expression_assets')
        .values({ id: row.id, kind: 'emoji', content_type: asset.contentType, hash: null, data: asset.data, created_at: asset.createdAt })
        .execute();
    };
    if (this.db.isTransaction) await run(this.db);
    else await this.db.transaction().execute(run);
  }

  /** Renames an emoji or changes its roles. */
  async patchEmoji(id: string, set: { name?: string; roles?: string }): Promise<void> {
    await this.db.updateTable('emojis').set(set).where('id', '=', id).execute();
  }

  /** Deletes an emoji with its image, in one transaction. */
  async deleteEmoji(id: string): Promise<void> {
    const run = async (db: Kysely<DB>) => {
      await db.deleteFrom('emojis').where('id', '=', id).execute();
      await db.deleteFrom('expression_assets').where('id', '=', id).execute();
    };
    if (this.db.isTransaction) await run(this.db);
    else await this.db.transaction().execute(run);
  }

  /** Any guild sticker by id, or null. */
  async stickerById(stickerId: string): Promise<StickersTable | null> {
    return ((await this.db.selectFrom('stickers').selectAll().where('id', '=', stickerId).executeTakeFirst()) as StickersTable | undefined) ?? null;
  }

  /** A guild's stickers, by id. */
  async stickersOfGuild(guildId: string): Promise<StickersTable[]> {
    return (await this.db.selectFrom('stickers').selectAll().where('guild_id', '=', guildId).orderBy('id').execute()) as StickersTable[];
  }

  /** A sticker of this guild, or null. */
  async stickerInGuild(guildId: string, stickerId: string): Promise<StickersTable | null> {
    return (
      ((await this.db.selectFrom('stickers').selectAll().where('id', '=', stickerId).where('guild_id', '=', guildId).executeTakeFirst()) as
        StickersTable | undefined) ?? null
    );
  }

  /** Inserts a sticker with its file, in one transaction. */
  async insertSticker(row: StickersTable, asset: { contentType: string; data: Buffer; createdAt: number }): Promise<void> {
    const run = async (db: Kysely<DB>) => {
      await db.insertInto('stickers').values(row).execute();
      await db.deleteFrom('expression_assets').where('id', '=', row.id).execute();
      await db
        .insertInto('expression_assets')
        .values({ id: row.id, kind: 'sticker', content_type: asset.contentType, hash: null, data: asset.data, created_at: asset.createdAt })
        .execute();
    };
    if (this.db.isTransaction) await run(this.db);
    else await this.db.transaction().execute(run);
  }

  /** Changes a sticker's name, tags or description. */
  async patchSticker(id: string, set: { name?: string; tags?: string; description?: string | null }): Promise<void> {
    await this.db.updateTable('stickers').set(set).where('id', '=', id).execute();
  }

  /** Deletes a sticker with its file, in one transaction. */
  async deleteSticker(id: string): Promise<void> {
    const run = async (db: Kysely<DB>) => {
      await db.deleteFrom('stickers').where('id', '=', id).execute();
      await db.deleteFrom('expression_assets').where('id', '=', id).execute();
    };
    if (this.db.isTransaction) await run(this.db);
    else await this.db.transaction().execute(run);
  }

  /** A guild's soundboard sounds, by id. */
  async soundsOfGuild(guildId: string): Promise<SoundboardSoundsTable[]> {
    return (await this.db.selectFrom('soundboard_sounds').selectAll().where('guild_id', '=', guildId).orderBy('id').execute()) as SoundboardSoundsTable[];
  }

  /** A soundboard sound of this guild, or null. */
  async soundInGuild(guildId: string, soundId: string): Promise<SoundboardSoundsTable | null> {
    return (
      ((await this.db.selectFrom('soundboard_sounds').selectAll().where('id', '=', soundId).where('guild_id', '=', guildId).executeTakeFirst()) as
        SoundboardSoundsTable | undefined) ?? null
    );
  }

  /** Inserts a soundboard sound with its audio, in one transaction. */
  async insertSound(row: SoundboardSoundsTable, asset: { contentType: string; data: Buffer; createdAt: number }): Promise<void> {
    const run = async (db: Kysely<DB>) => {
      await db.insertInto('soundboard_sounds').values(row).execute();
      await db.deleteFrom('expression_assets').where('id', '=', row.id).execute();
      await db
        .insertInto('expression_assets')
        .values({ id: row.id, kind: 'sound', content_type: asset.contentType, hash: null, data: asset.data, created_at: asset.createdAt })
        .execute();
    };
    if (this.db.isTransaction) await run(this.db);
    else await this.db.transaction().execute(run);
  }

  /** Changes a sound's name, volume or emoji. */
  async patchSound(id: string, set: Partial<SoundboardSoundsTable>): Promise<void> {
    await this.db.updateTable('soundboard_sounds').set(set).where('id', '=', id).execute();
  }

  /** Deletes a soundboard sound with its audio, in one transaction. */
  async deleteSound(id: string): Promise<void> {
    const run = async (db: Kysely<DB>) => {
      await db.deleteFrom('soundboard_sounds').where('id', '=', id).execute();
      await db.deleteFrom('expression_assets').where('id', '=', id).execute();
    };
    if (this.db.isTransaction) await run(this.db);
    else await this.db.transaction().execute(run);
  }
}
