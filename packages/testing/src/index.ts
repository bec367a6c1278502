export { startAccord, type StartOptions } from './start.js';
export { Accord, type WorldSnapshot } from './accord.js';
export { AccordApiError } from './api.js';
export { Person, type AppRef, type MessageInput, type MessageWait } from './person.js';
export type { World, WorldApp, WorldSpec, AppSpec } from './world.js';
export type { AppWatch, Clock, Faults, InspectorEntry } from './dev.js';
export { toMs, type Duration } from './duration.js';
export type { ClockScheduler } from './scheduler.js';
