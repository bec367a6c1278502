export * from './permissions.js';
export * from './intents.js';
export * from './gateway.js';
export * from './snowflake.js';
export * from './social.js';
export * from './voice.js';
