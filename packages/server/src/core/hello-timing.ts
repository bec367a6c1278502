/**
 * How long a WebSocket's HELLO waits after the 101 is written. Sent in the same tick, it often reaches the client in
 * the same read as the handshake's response, and clients that parse that read and drop the rest never see it; on the
 * real platform the network keeps them apart.
 */
export const HELLO_AFTER_UPGRADE_MS = 10;
