import { CompiledQuery, type Kysely } from 'kysely';
import { prepareEverywhere } from './postgres.js';

/** One message create for the PostgreSQL group commit: its row (columns by name), its files, whether its channel is a thread. */
export interface PgMessageWrite {
  row: Record<string, unknown>;
  files: Record<string, unknown>[];
  thread: boolean;
}

interface Pending extends PgMessageWrite {
  resolve(): void;
  reject(err: unknown): void;
}

/**
 * The columns of a message row, in the order the batch statement lists them, with their PostgreSQL type (the batch
 * passes one array per column) and the value of a column the row leaves out (the table's default).
 */
const MESSAGE_COLUMNS: readonly (readonly [name: string, type: 'bigint' | 'integer' | 'text', absent: unknown])[] = [
  ['id', 'bigint', null],
  ['channel_id', 'bigint', null],
  ['guild_id', 'bigint', null],
  ['author_id', 'bigint', null],
  ['webhook_id', 'bigint', null],
  ['application_id', 'bigint', null],
  ['type', 'integer', 0],
  ['content', 'text', ''],
  ['tts', 'integer', 0],
  ['mention_everyone', 'integer', 0],
  ['mentions', 'text', '[]'],
  ['mention_roles', 'text', '[]'],
  ['attachments', 'text', '[]'],
  ['embeds', 'text', '[]'],
  ['components', 'text', '[]'],
  ['sticker_items', 'text', null],
  ['flags', 'integer', 0],
  ['nonce', 'text', null],
  ['pinned_at', 'bigint', null],
  ['edited_at', 'bigint', null],
  ['message_reference', 'text', null],
  ['extra', 'text', '{}'],
  ['created_at', 'bigint', null],
];
const FILE_COLUMNS = ['id', 'channel_id', 'filename', 'content_type', 'size', 'data', 'created_at'] as const;
/** Rows per statement (the messages travel as one array per column; files as parameters, 7 a row). */
const MAX_ROWS = 500;
/** Batch statements in flight at once (each waits for its commit to be flushed): more gather meanwhile. 4 measured best of 1, 2, 4, 8. */
const MAX_IN_FLIGHT = 4;

/**
 * Group commit for PostgreSQL: the message creates that arrive while the previous batch is being written (at least
 * those of two event-loop turns) go to the database as ONE statement, one round trip: a multi-row INSERT of the
 * messages (and their files), whose RETURNING feeds the UPDATE of their threads' counts when the batch has thread
 * messages. A channel's row is not written (its last message id is derived: repos/last-message.ts), so batches from
 * every process to one channel do not queue on its row lock. One statement is one implicit transaction: a batch is
 * written whole or not at all. When it fails, each create of it is written again alone, so each still succeeds or
 * fails by itself and is never half-written.
 */
export class PgGroupCommit {
  private pending: Pending[] = [];
  private inFlight = 0;
  private scheduled = false;

  constructor(private readonly db: Kysely<any>) {}

  /** Resolves once the message (with its files and channel update) is committed; rejects with its own error. */
  submit(write: PgMessageWrite): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ ...write, resolve, reject });
      if (this.scheduled) return;
      this.scheduled = true;
      // Written a turn later than it could be: the requests of the answers sent in this turn arrive in the next one
      // and join the statement (measured at C=32: 0.085 → 0.036 commits a message with 1 worker, 0.13 → 0.075 with 2).
      setImmediate(() =>
        setImmediate(() => {
          this.scheduled = false;
          this.drain();
        }),
      );
    });
  }

  private drain(): void {
    while (this.pending.length && this.inFlight < MAX_IN_FLIGHT) {
      const batch = this.pending.splice(0, MAX_ROWS);
      this.inFlight++;
      void this.write(batch).finally(() => {
        this.inFlight--;
        this.drain();
      });
    }
  }

  private async write(batch: Pending[]): Promise<void> {
    try {
      await this.db.executeQuery(batchStatement(batch));
    } catch (err) {
      if (batch.length === 1) return batch[0].reject(err);
      // One bad create (or a deadlock between batches) fails the statement: write each alone to find out whose.
      await Promise.all(
        batch.map((p) =>
          this.db.executeQuery(batchStatement([p])).then(
            () => p.resolve(),
            (e) => p.reject(e),
          ),
        ),
      );
      return;
    }
    for (const p of batch) p.resolve();
  }
}

/**
 * The statement of one batch: files, messages and their threads' counts in one implicit transaction. The messages go
 * as one array per column through unnest, so the statement's text is the same for any batch size (PostgreSQL parses a
 * short text instead of a VALUES list of 23 parameters a row).
 */
export function batchStatement(batch: readonly PgMessageWrite[]): CompiledQuery {
  const params: unknown[] = MESSAGE_COLUMNS.map(([name, , absent]) =>
    batch.map(({ row }) => {
      const v = row[name];
      return v === undefined ? absent : typeof v === 'boolean' ? (v ? 1 : 0) : v;
    }),
  );
  const files = batch.flatMap((w) => w.files);
  const threads = batch.some((w) => w.thread);
  if (!files.length) return CompiledQuery.raw(threads ? WITH_THREAD_COUNTS : INSERT_MESSAGES, params);
  const filesCte = `f AS (INSERT INTO "files" (${FILE_COLUMNS.map((c) => `"${c}"`).join(', ')}) VALUES ${fileTuples(files, params)})`;
  return CompiledQuery.raw(threads ? `WITH ${filesCte}, ${THREAD_COUNTS}` : `WITH ${filesCte} ${INSERT_MESSAGES}`, params);
}

const INSERT_MESSAGES =
  `INSERT INTO "messages" (${MESSAGE_COLUMNS.map(([c]) => `"${c}"`).join(', ')}) ` +
  `SELECT * FROM unnest(${MESSAGE_COLUMNS.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ')})`;

/** The messages, then their threads' last message and counts (other channels' rows are left alone). */
const THREAD_COUNTS =
  `m AS (${INSERT_MESSAGES} RETURNING "id", "channel_id") ` +
  'UPDATE "channels" SET ' +
  '"last_message_id" = CASE WHEN "channels"."last_message_id" IS NULL OR "channels"."last_message_id" < v.mx THEN v.mx ELSE "channels"."last_message_id" END, ' +
  '"message_count" = "channels"."message_count" + v.n, "total_message_sent" = "channels"."total_message_sent" + v.n ' +
  'FROM (SELECT "channel_id", max("id") AS mx, count(*)::int AS n FROM m GROUP BY "channel_id") v ' +
  'WHERE "channels"."id" = v."channel_id" AND "channels"."type" IN (10, 11, 12)';
const WITH_THREAD_COUNTS = `WITH ${THREAD_COUNTS}`;
// Batches without files, the usual ones: their texts never change, so every connection runs them prepared.
prepareEverywhere(INSERT_MESSAGES);
prepareEverywhere(WITH_THREAD_COUNTS);

/** The files' VALUES tuples, their parameters appended to `params`. */
function fileTuples(files: readonly Record<string, unknown>[], params: unknown[]): string {
  const value = (v: unknown) => {
    if (v === undefined) return 'DEFAULT';
    params.push(v);
    return `$${params.length}`;
  };
  return files.map((r) => `(${FILE_COLUMNS.map((c) => value(r[c])).join(', ')})`).join(', ');
}
