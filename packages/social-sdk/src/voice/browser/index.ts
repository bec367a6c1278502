/**
 * The browser's voice core, shared by the SDK's browser voice engine and the Accord web client
 * (`@accord/social-sdk/browser-voice`): the voice gateway socket, the WebRTC peer with its remote descriptions, and DAVE
 * over encoded frames. davey itself loads from `@accord/social-sdk/browser-voice/davey`, on first use.
 */
export { VoicePeer, selectWebrtcProtocol, supportsEncodedTransforms, type FrameCrypto } from './peer.js';
export { buildAnswer, parseServerTransport, type RemoteStream, type ServerTransport } from './remote-sdp.js';
export { VoiceOp, VoiceSocket, type VoiceSocketHandlers } from './socket.js';
export { DaveOp } from '@accord/protocol';
export { E2ee, type E2eeSink } from './e2ee.js';
export type { DaveyModule, DaveySession } from './davey.js';
