import type { Ctx } from '../services/context.js';
import { readSnapshotFile, writeSnapshotFile, type Snapshot } from '../store/snapshot.js';

/** The clock of a `--deterministic` server stands here until moved. */
export const DETERMINISTIC_START = Date.parse('2026-01-01T00:00:00.000Z');

export function worldSnapshot(ctx: Ctx): Promise<Snapshot> {
  return ctx.repos.snapshot(ctx.clock.now(), ctx.ids.last());
}

/**
 * `--import`: the world becomes the snapshot's, ids continue after the newest it holds, and the clock never stands
 * before the time it was taken (a frozen clock resumes there).
 */
export async function importWorld(ctx: Ctx, file: string): Promise<void> {
  const snapshot = readSnapshotFile(file);
  await ctx.repos.restore(snapshot);
  if (snapshot.last_id) ctx.ids.continueAfter(snapshot.last_id);
  if (snapshot.clock > ctx.clock.now()) ctx.clock.set(snapshot.clock);
}

/** `--export-on-exit`: the world written as the server stops. */
export async function exportWorld(ctx: Ctx, file: string): Promise<void> {
  writeSnapshotFile(file, await worldSnapshot(ctx));
}
