/**
 * A guild's icon, splash and banner (PATCH /guilds/{id} with a data URI, and guild create): the image is checked by
 * its content, stored, and served by the CDN at `/icons/{guild_id}/{hash}.png` (`/splashes/…`, `/banners/…`); a new
 * image retires the old hash, null removes it, bad data is 50035 IMAGE_INVALID, and only MANAGE_GUILD may change them.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { GIF, PNG, dataUri } from './helpers/fixtures.js';

const T = { timeout: 60_000 };
let t: TestServer;

before(async () => {
  t = await startTestServer();
});
after(() => t.close());

const alice = () => ({ token: t.world.users[0].token });
const bob = () => ({ token: t.world.users[1].token });
const patchGuild = (who: { token: string }, body: unknown) => t.api(`/guilds/${t.world.guildId}`, { method: 'PATCH', ...who, body });
const cdn = (path: string) => fetch(`${t.server.url}${path}`);

test('an icon set by PATCH is served by the CDN; a new one retires the old hash; null removes it', T, async () => {
  const set = await patchGuild(alice(), { icon: dataUri(PNG) });
  assert.equal(set.status, 200, set.text);
  assert.match(set.body.icon, /^[0-9a-f]{32}$/);
  const served = await cdn(`/icons/${t.world.guildId}/${set.body.icon}.png?size=96`);
  assert.equal(served.status, 200);
  assert.equal(served.headers.get('content-type'), 'image/png');
  assert.ok(Buffer.from(await served.arrayBuffer()).equals(PNG));

  const other = await patchGuild(alice(), { icon: dataUri(GIF, 'image/gif') });
  assert.equal(other.status, 200, other.text);
  assert.match(other.body.icon, /^[0-9a-f]{32}$/, 'a still GIF: no a_');
  assert.notEqual(other.body.icon, set.body.icon);
  const gif = await cdn(`/icons/${t.world.guildId}/${other.body.icon}.gif`);
  assert.equal(gif.status, 200);
  assert.equal(gif.headers.get('content-type'), 'image/gif');
  assert.equal((await cdn(`/icons/${t.world.guildId}/${set.body.icon}.png`)).status, 404, 'the old hash is gone');

  const removed = await patchGuild(alice(), { icon: null });
  assert.equal(removed.status, 200, removed.text);
  assert.equal(removed.body.icon, null);
  assert.equal((await cdn(`/icons/${t.world.guildId}/${other.body.icon}.gif`)).status, 404);
});

test('splash and banner are served at their own paths; a banner path serves a guild as well as a person', T, async () => {
  const r = await patchGuild(alice(), { splash: dataUri(PNG), banner: dataUri(PNG) });
  assert.equal(r.status, 200, r.text);
  assert.equal((await cdn(`/splashes/${t.world.guildId}/${r.body.splash}.png`)).status, 200);
  assert.equal((await cdn(`/banners/${t.world.guildId}/${r.body.banner}.png`)).status, 200);
  assert.equal((await cdn(`/icons/${t.world.guildId}/${r.body.splash}.png`)).status, 404, 'a splash is not an icon');
});

test('bad image data is 50035 IMAGE_INVALID and changes nothing; a member without MANAGE_GUILD is refused', T, async () => {
  const before = await t.api(`/guilds/${t.world.guildId}`, alice());
  const bad = await patchGuild(alice(), { name: 'renamed', icon: 'data:image/png;base64,bm90IGFuIGltYWdl' });
  assert.equal(bad.status, 400, bad.text);
  assert.equal(bad.body.code, 50035);
  assert.equal(bad.body.errors?.icon?._errors?.[0]?.code, 'IMAGE_INVALID');
  const after = await t.api(`/guilds/${t.world.guildId}`, alice());
  assert.equal(after.body.name, before.body.name, 'the refused patch renamed nothing');
  assert.equal(after.body.icon, before.body.icon);

  const refused = await patchGuild(bob(), { icon: dataUri(PNG) });
  assert.equal(refused.status, 403, refused.text);
  assert.equal(refused.body.code, 50013);
});

test('a guild created with an icon serves it', T, async () => {
  const created = await t.api('/guilds', { method: 'POST', ...alice(), body: { name: 'With an icon', icon: dataUri(PNG) } });
  assert.equal(created.status, 201, created.text);
  assert.match(created.body.icon, /^[0-9a-f]{32}$/);
  assert.equal((await cdn(`/icons/${created.body.id}/${created.body.icon}.png`)).status, 200);
  assert.equal((await t.api(`/guilds/${created.body.id}`, { method: 'DELETE', ...alice() })).status, 204);
  assert.equal((await cdn(`/icons/${created.body.id}/${created.body.icon}.png`)).status, 404, 'deleted with its guild');
});
