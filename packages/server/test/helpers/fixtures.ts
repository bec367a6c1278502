import assert from 'node:assert/strict';
import type { TestServer } from './server.js';
import { devHeaders } from './server.js';

/** Small media and world set-ups shared by the expressions, events, audit log and AutoMod tests. */

/** A 1x1 PNG. */
export const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
/** A 1x1 GIF. */
export const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
export const dataUri = (b: Buffer, type = 'image/png') => `data:${type};base64,${b.toString('base64')}`;

/** Silent MPEG-1 Layer III audio of about `seconds` (128 kb/s, 44.1 kHz). */
export function mp3(seconds: number): Buffer {
  const frame = Buffer.alloc(417);
  frame.set([0xff, 0xfb, 0x90, 0xc4]);
  return Buffer.concat(Array.from({ length: Math.max(1, Math.round((seconds * 44100) / 1152)) }, () => frame));
}

/** A minimal Lottie document. */
export const LOTTIE = Buffer.from(JSON.stringify({ v: '5.7.4', fr: 30, ip: 0, op: 30, w: 320, h: 320, layers: [] }));

/** Moves the dev clock (the server runs with dev: true). */
export async function setClock(t: TestServer, iso: string): Promise<void> {
  const r = await fetch(`${t.server.url}/__dev/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...devHeaders(t) },
    body: JSON.stringify({ set: iso }),
  });
  assert.equal(r.status, 200, await r.text());
}

/** Back to the real time. */
export const resetClock = (t: TestServer) => setClock(t, new Date().toISOString());

export const BEFORE_CUTOVER = '2026-02-22T00:00:00.000Z';
export const AFTER_CUTOVER = '2026-02-24T00:00:00.000Z';

/** A second app whose bot the owner installs with exactly `permissions` (its managed role carries them). */
export async function installBot(t: TestServer, name: string, permissions: bigint): Promise<{ appId: string; userId: string; token: string }> {
  const owner = t.world.users[0];
  const app = await t.api('/applications', { method: 'POST', token: owner.token, body: { name } });
  assert.equal(app.status, 200, app.text);
  const token = (await t.api(`/applications/${app.body.id}/bot/reset`, { method: 'POST', token: owner.token })).body.token;
  const ok = await t.api(`/oauth2/authorize?client_id=${app.body.id}&scope=bot&permissions=${permissions}`, {
    method: 'POST',
    token: owner.token,
    body: { guild_id: t.world.guildId, permissions: permissions.toString(), authorize: true },
  });
  assert.equal(ok.status, 200, ok.text);
  const me = await t.api('/users/@me', { token, bot: true });
  return { appId: app.body.id, userId: me.body.id, token };
}

/** Removes permission bits from @everyone (the owner edits the role). */
export async function stripEveryone(t: TestServer, bits: bigint): Promise<void> {
  const owner = t.world.users[0];
  const roles = await t.api(`/guilds/${t.world.guildId}/roles`, { token: owner.token });
  const everyone = roles.body.find((r: any) => r.id === t.world.guildId);
  const next = BigInt(everyone.permissions) & ~bits;
  const r = await t.api(`/guilds/${t.world.guildId}/roles/${t.world.guildId}`, { method: 'PATCH', token: owner.token, body: { permissions: next.toString() } });
  assert.equal(r.status, 200, r.text);
}

/** Sends a multipart request (FormData) with a bot or user token. */
export async function multipart(t: TestServer, path: string, form: FormData, auth: { token: string; bot?: boolean }, method = 'POST') {
  return t.api(path, { method, token: auth.token, bot: auth.bot, body: form });
}

/**
 * A multipart body written by hand whose `payload_json` part carries `Content-Type: application/json`, as Discord's
 * "Uploading Files" example and Eris send it (undici's FormData cannot give a text part its own type).
 */
export function typedForm(payload: string, file?: { name: string; data: string }): { body: Buffer; type: string } {
  const boundary = `accord${Math.random().toString(16).slice(2)}`;
  const parts = [`--${boundary}\r\nContent-Disposition: form-data; name="payload_json"\r\nContent-Type: application/json\r\n\r\n${payload}\r\n`];
  if (file)
    parts.push(`--${boundary}\r\nContent-Disposition: form-data; name="files[0]"; filename="${file.name}"\r\nContent-Type: text/plain\r\n\r\n${file.data}\r\n`);
  return { body: Buffer.from(`${parts.join('')}--${boundary}--\r\n`), type: `multipart/form-data; boundary=${boundary}` };
}

/** Sends a typedForm body, with an Authorization header or none (interaction tokens travel in the path). */
export async function sendTypedForm(t: TestServer, path: string, form: { body: Buffer; type: string }, method = 'POST', auth: string | null = null) {
  const headers: Record<string, string> = { 'content-type': form.type };
  if (auth) headers.authorization = auth;
  const res = await fetch(`${t.server.url}/api/v10${path}`, { method, headers, body: form.body });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, text };
}

/** Asserts an API error: HTTP status and JSON code, showing the body when they differ. */
export function expectError(r: { status: number; body: any }, status: number, code: number): void {
  assert.equal(r.status, status, JSON.stringify(r.body));
  assert.equal(r.body?.code, code, JSON.stringify(r.body));
}

/** Registers a new person and returns their id and raw token. */
export async function register(t: TestServer, username: string): Promise<{ id: string; token: string }> {
  const r = await t.api('/auth/register', { method: 'POST', body: { username, password: 'password-123' } });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  const me = await t.api('/users/@me', { token: r.body.token });
  return { id: me.body.id, token: r.body.token };
}
