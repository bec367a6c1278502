/** Voice faults by bot user id, as the media hosts apply them (plain data: it is posted to the media threads). */
export type VoiceFaultTable = Record<string, { loss: number; jitterMs: number }>;

/**
 * What becomes of one forwarded packet between two voice members under the table: -1 lost, else the ms it is held
 * back (0: sent now). The sender's fault and the receiver's both apply, as two lossy links would.
 */
export function packetFate(table: VoiceFaultTable, fromUserId: string, toUserId: string, random: () => number = Math.random): number {
  let delay = 0;
  for (const f of [table[fromUserId], table[toUserId]]) {
    if (!f) continue;
    if (f.loss > 0 && random() < f.loss) return -1;
    if (f.jitterMs > 0) delay += random() * f.jitterMs;
  }
  return Math.round(delay);
}
