import type { CompiledQuery, Kysely } from 'kysely';
import type { SqliteExec } from './sqlite.js';

interface Pending {
  statements: readonly CompiledQuery[];
  resolve(): void;
  reject(err: unknown): void;
}

/**
 * Group commit for SQLite: the atomic writes submitted in one event-loop turn go to disk in one transaction, since a
 * commit costs far more than the statements it holds. When one write fails, the batch is written again with each
 * write in its own savepoint, so each still succeeds or fails alone and is never half-written; every submitter gets
 * its own result once the transaction is committed.
 */
export class GroupCommit {
  private pending: Pending[] = [];
  private scheduled = false;

  constructor(
    private readonly exec: SqliteExec,
    private readonly db: Kysely<any>,
  ) {}

  /** Resolves once the statements are committed, all of them; rejects with their error when none was written. */
  submit(statements: readonly CompiledQuery[]): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ statements, resolve, reject });
      if (this.scheduled) return;
      this.scheduled = true;
      setImmediate(() => this.flush()); // after this turn's I/O callbacks: every request read in it joins the batch
    });
  }

  private flush(): void {
    if (!this.exec.raw.inTransaction) return this.writeNow();
    // A Kysely transaction holds the connection across awaits: write as soon as it lets go of it.
    this.db
      .connection()
      .execute(async () => this.writeNow())
      .catch((err) => {
        const batch = this.take();
        for (const p of batch) p.reject(err);
      });
  }

  private take(): Pending[] {
    const batch = this.pending;
    this.pending = [];
    this.scheduled = false;
    return batch;
  }

  private writeNow(): void {
    const batch = this.take();
    const failed = new Map<Pending, unknown>();
    try {
      if (!this.writeOptimistically(batch)) this.writeEachAlone(batch, failed);
    } catch (err) {
      this.rollback();
      for (const p of batch) p.reject(failed.get(p) ?? err);
      return;
    }
    for (const p of batch) {
      if (failed.has(p)) p.reject(failed.get(p));
      else p.resolve();
    }
  }

  /**
   * The whole batch in one transaction, without a savepoint per write (writes almost never fail). False when one
   * failed: nothing is committed then, and the batch is written again write by write.
   */
  private writeOptimistically(batch: Pending[]): boolean {
    this.run('BEGIN');
    try {
      for (const p of batch) this.runAll(p);
    } catch (err) {
      if (batch.length === 1) throw err;
      this.rollback();
      return false;
    }
    this.run('COMMIT');
    return true;
  }

  /** Each write in its own savepoint, so each succeeds or fails alone and none is half-written. */
  private writeEachAlone(batch: Pending[], failed: Map<Pending, unknown>): void {
    this.run('BEGIN');
    for (const p of batch) {
      this.run('SAVEPOINT group_commit');
      try {
        this.runAll(p);
        this.run('RELEASE group_commit');
      } catch (err) {
        // Some errors (a full disk, I/O) end the whole transaction: then nothing of the batch is written.
        if (!this.exec.raw.inTransaction) throw err;
        this.run('ROLLBACK TO group_commit');
        this.run('RELEASE group_commit');
        failed.set(p, err);
      }
    }
    this.run('COMMIT');
  }

  private run(text: string): void {
    this.exec.run(text, []);
  }

  private rollback(): void {
    if (!this.exec.raw.inTransaction) return;
    try {
      this.run('ROLLBACK');
    } catch {
      /* the connection is gone: nothing was committed either way */
    }
  }

  private runAll(p: Pending): void {
    for (const q of p.statements) this.exec.run(q.sql, q.parameters);
  }
}

/**
 * Runs the statements as one transaction: on SQLite through the group commit, on PostgreSQL in a transaction of its
 * own (the pool's connections already write concurrently).
 */
export async function writeAtomically(store: { db: Kysely<any>; groupCommit?: GroupCommit }, statements: readonly CompiledQuery[]): Promise<void> {
  if (store.groupCommit) return store.groupCommit.submit(statements);
  await store.db.transaction().execute(async (trx) => {
    for (const q of statements) await trx.executeQuery(q);
  });
}
