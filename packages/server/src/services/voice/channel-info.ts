/**
 * The ephemeral fields of voice channels (status, voice_start_time): not part of the channel object, read by
 * Request Channel Info (op 43) and changed by `PUT /channels/{id}/voice-status`. Kept in memory, per process.
 */
export const channelInfo = new Map<string, { status: string | null; voice_start_time: number | null }>();
