/** Presences live in `bus/presence-state.ts` so services can count them; the Gateway writes them. */
export { MemoryPresences as Presences, type Presence, type PresenceState } from '../bus/presence-state.js';
