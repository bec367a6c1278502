/**
 * Emoji (guild and application), stickers and sticker packs, and the soundboard: CRUD, limits, permissions (with the
 * CREATE_GUILD_EXPRESSIONS cutover of 2026-02-23 on both sides), gateway events, CDN bytes.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { RawGateway } from './helpers/gateway-client.js';
import {
  AFTER_CUTOVER,
  BEFORE_CUTOVER,
  GIF,
  LOTTIE,
  PNG,
  dataUri,
  installBot,
  mp3,
  multipart,
  resetClock,
  setClock,
  stripEveryone,
} from './helpers/fixtures.js';

const P = { MANAGE_GUILD_EXPRESSIONS: 1n << 30n, CREATE_GUILD_EXPRESSIONS: 1n << 43n, VIEW_CHANNEL: 1n << 10n };

let t: TestServer;
let gw: RawGateway;
const bot = () => ({ token: t.world.botToken, bot: true });
const alice = () => ({ token: t.world.users[0].token });
const bob = () => ({ token: t.world.users[1].token });
const g = () => t.world.guildId;

before(async () => {
  t = await startTestServer({ overrides: { dev: true } });
  gw = await RawGateway.connect(t.server.url);
  await gw.identify(t.world.botToken, { intents: (1 << 0) | (1 << 3) });
  await gw.dispatch('GUILD_CREATE');
});

after(async () => {
  gw?.close();
  await t?.close();
});

const stickerForm = (file: Buffer, name = 'wave', type = 'image/png', filename = 'wave.png') => {
  const form = new FormData();
  form.append('name', name);
  form.append('tags', 'wave');
  form.append('description', 'A wave');
  form.append('file', new Blob([file], { type }), filename);
  return form;
};

test('guild emoji: create (201), list, get, edit, delete; GUILD_EMOJIS_UPDATE; the guild object and the CDN carry it', async () => {
  const created = await t.api(`/guilds/${g()}/emojis`, { method: 'POST', ...bot(), body: { name: 'party_parrot', image: dataUri(PNG) } });
  assert.equal(created.status, 201, created.text);
  const e = created.body;
  assert.equal(e.name, 'party_parrot');
  assert.deepEqual(e.roles, []);
  assert.equal(e.animated, false);
  assert.equal(e.require_colons, true);
  assert.equal(e.managed, false);
  assert.equal(e.available, true);
  assert.equal(e.user.id, t.world.botUserId);
  const ev = await gw.dispatch('GUILD_EMOJIS_UPDATE', (d) => d.emojis.some((x: any) => x.id === e.id));
  assert.equal(ev.guild_id, g());

  const list = await t.api(`/guilds/${g()}/emojis`, bot());
  assert.equal(list.status, 200);
  assert.ok(
    list.body.some((x: any) => x.id === e.id && x.user?.id === t.world.botUserId),
    'uploader shown to expression managers',
  );
  // Bob has CREATE_GUILD_EXPRESSIONS from @everyone, so he sees uploaders in the list; on GET of someone else's emoji he does not.
  const asBob = await t.api(`/guilds/${g()}/emojis/${e.id}`, bob());
  assert.equal(asBob.status, 200);
  assert.equal(asBob.body.user, undefined);

  const guild = await t.api(`/guilds/${g()}`, bot());
  assert.ok(guild.body.emojis.some((x: any) => x.id === e.id));

  const cdn = await fetch(`${t.server.url}/emojis/${e.id}.png`);
  assert.equal(cdn.status, 200);
  assert.equal(cdn.headers.get('content-type'), 'image/png');
  assert.deepEqual(Buffer.from(await cdn.arrayBuffer()), PNG);
  assert.equal((await fetch(`${t.server.url}/emojis/${e.id}.webp`)).status, 200);
  assert.equal((await fetch(`${t.server.url}/emojis/123.png`)).status, 404);

  const roles = await t.api(`/guilds/${g()}/roles`, bot());
  const someRole = roles.body.find((r: any) => r.id !== g());
  const patched = await t.api(`/guilds/${g()}/emojis/${e.id}`, { method: 'PATCH', ...bot(), body: { name: 'parrot', roles: [someRole.id] } });
  assert.equal(patched.status, 200, patched.text);
  assert.equal(patched.body.name, 'parrot');
  assert.deepEqual(patched.body.roles, [someRole.id]);
  const badRole = await t.api(`/guilds/${g()}/emojis/${e.id}`, { method: 'PATCH', ...bot(), body: { roles: ['1234'] } });
  assert.equal(badRole.body.code, 50035);

  const gif = await t.api(`/guilds/${g()}/emojis`, { method: 'POST', ...bot(), body: { name: 'dance', image: dataUri(GIF, 'image/gif') } });
  assert.equal(gif.status, 201);
  assert.equal(gif.body.animated, true);

  assert.equal((await t.api(`/guilds/${g()}/emojis/${e.id}`, { method: 'DELETE', ...bot() })).status, 204);
  await gw.dispatch('GUILD_EMOJIS_UPDATE', (d) => !d.emojis.some((x: any) => x.id === e.id));
  const gone = await t.api(`/guilds/${g()}/emojis/${e.id}`, bot());
  assert.equal(gone.status, 404);
  assert.equal(gone.body.code, 10014);
  assert.equal((await fetch(`${t.server.url}/emojis/${e.id}.png`)).status, 404);
});

test('guild emoji validation: name 2-32 of [A-Za-z0-9_], image data 256 KiB, known image formats', async () => {
  const bad = async (body: unknown, key: string, code: string) => {
    const r = await t.api(`/guilds/${g()}/emojis`, { method: 'POST', ...bot(), body });
    assert.equal(r.status, 400, r.text);
    assert.equal(r.body.code, 50035);
    assert.equal(r.body.errors[key]._errors[0].code, code, r.text);
  };
  await bad({ name: 'x', image: dataUri(PNG) }, 'name', 'BASE_TYPE_BAD_LENGTH');
  await bad({ name: 'no spaces', image: dataUri(PNG) }, 'name', 'STRING_TYPE_REGEX');
  await bad({ name: 'okname', image: 'not a data uri' }, 'image', 'IMAGE_INVALID');
  await bad({ name: 'okname', image: dataUri(Buffer.from('plain text'), 'image/png') }, 'image', 'IMAGE_INVALID');
  await bad({ name: 'okname', image: dataUri(Buffer.concat([PNG, Buffer.alloc(257 * 1024)])) }, 'image', 'BINARY_TYPE_MAX_SIZE');
  const missing = await t.api(`/guilds/${g()}/emojis`, { method: 'POST', ...bot(), body: { name: 'okname' } });
  assert.equal(missing.body.errors.image._errors[0].code, 'BASE_TYPE_REQUIRED');
});

test('guild emoji limits: 50 static and 50 animated slots at premium tier 0 (30008 / 30018)', async () => {
  const db = t.server.ctx.repos.store.db;
  const existing = await db.selectFrom('emojis').select(['animated']).where('guild_id', '=', g()).execute();
  const rows = (animated: number, n: number) =>
    Array.from({ length: n }, (_, i) => ({
      id: t.server.ctx.ids.next(),
      guild_id: g(),
      application_id: null,
      name: `fill_${animated}_${i}`,
      user_id: null,
      roles: '[]',
      animated,
      available: 1,
      created_at: 0,
    }));
  const staticCount = existing.filter((r) => Number(r.animated) === 0).length;
  const animCount = existing.filter((r) => Number(r.animated) === 1).length;
  const fill = [...rows(0, 50 - staticCount), ...rows(1, 50 - animCount)];
  await db.insertInto('emojis').values(fill).execute();
  const s = await t.api(`/guilds/${g()}/emojis`, { method: 'POST', ...bot(), body: { name: 'one_more', image: dataUri(PNG) } });
  assert.equal(s.status, 400);
  assert.equal(s.body.code, 30008);
  const a = await t.api(`/guilds/${g()}/emojis`, { method: 'POST', ...bot(), body: { name: 'one_more', image: dataUri(GIF, 'image/gif') } });
  assert.equal(a.body.code, 30018);
  await db
    .deleteFrom('emojis')
    .where(
      'id',
      'in',
      fill.map((r) => r.id),
    )
    .execute();
});

test('emoji permissions: own emoji with CREATE_GUILD_EXPRESSIONS, others need MANAGE_GUILD_EXPRESSIONS', async () => {
  const mine = await t.api(`/guilds/${g()}/emojis`, { method: 'POST', ...bob(), body: { name: 'bobs', image: dataUri(PNG) } });
  assert.equal(mine.status, 201, mine.text);
  assert.equal((await t.api(`/guilds/${g()}/emojis/${mine.body.id}`, { method: 'PATCH', ...bob(), body: { name: 'bobs2' } })).status, 200);
  const theirs = await t.api(`/guilds/${g()}/emojis`, { method: 'POST', ...bot(), body: { name: 'bots', image: dataUri(PNG) } });
  const denied = await t.api(`/guilds/${g()}/emojis/${theirs.body.id}`, { method: 'PATCH', ...bob(), body: { name: 'mine_now' } });
  assert.equal(denied.status, 403);
  assert.equal(denied.body.code, 50013);
  assert.equal((await t.api(`/guilds/${g()}/emojis/${theirs.body.id}`, { method: 'DELETE', ...bob() })).body.code, 50013);
  // The bot manages every emoji.
  assert.equal((await t.api(`/guilds/${g()}/emojis/${mine.body.id}`, { method: 'DELETE', ...bot() })).status, 204);
  assert.equal((await t.api(`/guilds/${g()}/emojis/${theirs.body.id}`, { method: 'DELETE', ...bot() })).status, 204);
  const outsider = await t.api(`/guilds/${g()}/emojis`, { method: 'POST', token: 'x', body: { name: 'nope', image: dataUri(PNG) } });
  assert.equal(outsider.status, 401);
});

test('application emoji: bot-token CRUD under {items}, unique names, 2000 per app, other apps refused', async () => {
  const app = t.world.applicationId;
  const c = await t.api(`/applications/${app}/emojis`, { method: 'POST', ...bot(), body: { name: 'app_smile', image: dataUri(PNG) } });
  assert.equal(c.status, 201, c.text);
  assert.equal(c.body.user.id, t.world.botUserId);
  assert.deepEqual(c.body.roles, []);
  const dup = await t.api(`/applications/${app}/emojis`, { method: 'POST', ...bot(), body: { name: 'app_smile', image: dataUri(PNG) } });
  assert.equal(dup.body.code, 50035);
  assert.equal(dup.body.errors.name._errors[0].code, 'APPLICATION_EMOJI_NAME_ALREADY_TAKEN');
  const list = await t.api(`/applications/${app}/emojis`, bot());
  assert.equal(list.status, 200);
  assert.ok(Array.isArray(list.body.items));
  assert.ok(list.body.items.some((x: any) => x.id === c.body.id));
  assert.equal((await t.api(`/applications/${app}/emojis/${c.body.id}`, bot())).body.name, 'app_smile');
  const renamed = await t.api(`/applications/${app}/emojis/${c.body.id}`, { method: 'PATCH', ...bot(), body: { name: 'app_grin' } });
  assert.equal(renamed.body.name, 'app_grin');
  assert.equal((await fetch(`${t.server.url}/emojis/${c.body.id}.png`)).status, 200);
  // Not a guild emoji.
  assert.equal((await t.api(`/guilds/${g()}/emojis/${c.body.id}`, bot())).status, 404);

  const other = await installBot(t, 'Other App', P.VIEW_CHANNEL);
  const foreign = await t.api(`/applications/${app}/emojis`, { token: other.token, bot: true });
  assert.equal(foreign.status, 403);
  assert.equal(foreign.body.code, 20012);
  assert.equal((await t.api(`/applications/99999999999999999999/emojis`, bot())).body.code, 10002);

  const db = t.server.ctx.repos.store.db;
  const count = Number(
    (
      await db
        .selectFrom('emojis')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('application_id', '=', app)
        .executeTakeFirstOrThrow()
    ).n,
  );
  const fill = Array.from({ length: 2000 - count }, (_, i) => ({
    id: t.server.ctx.ids.next(),
    guild_id: null,
    application_id: app,
    name: `fill_${i}`,
    user_id: null,
    roles: '[]',
    animated: 0,
    available: 1,
    created_at: 0,
  }));
  for (let i = 0; i < fill.length; i += 400)
    await db
      .insertInto('emojis')
      .values(fill.slice(i, i + 400))
      .execute();
  const full = await t.api(`/applications/${app}/emojis`, { method: 'POST', ...bot(), body: { name: 'too_many', image: dataUri(PNG) } });
  assert.equal(full.status, 400);
  assert.equal(full.body.code, 30008);
  await db.deleteFrom('emojis').where('application_id', '=', app).where('name', 'like', 'fill_%').execute();
  assert.equal((await t.api(`/applications/${app}/emojis/${c.body.id}`, { method: 'DELETE', ...bot() })).status, 204);
  assert.equal((await t.api(`/applications/${app}/emojis/${c.body.id}`, bot())).body.code, 10014);
});

test('guild stickers: multipart upload (PNG, GIF; Lottie only for VERIFIED/PARTNERED), edit, delete, GUILD_STICKERS_UPDATE, GET /stickers/{id}', async () => {
  const png = await multipart(t, `/guilds/${g()}/stickers`, stickerForm(PNG), bot());
  assert.equal(png.status, 201, png.text);
  assert.equal(png.body.type, 2);
  assert.equal(png.body.format_type, 1);
  assert.equal(png.body.guild_id, g());
  assert.equal(png.body.tags, 'wave');
  assert.equal(png.body.description, 'A wave');
  assert.equal(png.body.available, true);
  await gw.dispatch('GUILD_STICKERS_UPDATE', (d) => d.stickers.some((s: any) => s.id === png.body.id));
  const gif = await multipart(t, `/guilds/${g()}/stickers`, stickerForm(GIF, 'dance', 'image/gif', 'd.gif'), bot());
  assert.equal(gif.body.format_type, 4);

  const lottie = await multipart(t, `/guilds/${g()}/stickers`, stickerForm(LOTTIE, 'anim', 'application/json', 'a.json'), bot());
  assert.equal(lottie.status, 400);
  assert.equal(lottie.body.code, 50035);
  await t.server.ctx.repos.store.db
    .updateTable('guilds')
    .set({ features: JSON.stringify(['VERIFIED']) })
    .where('id', '=', g())
    .execute();
  const lottieOk = await multipart(t, `/guilds/${g()}/stickers`, stickerForm(LOTTIE, 'anim', 'application/json', 'a.json'), bot());
  assert.equal(lottieOk.status, 201, lottieOk.text);
  assert.equal(lottieOk.body.format_type, 3);
  await t.server.ctx.repos.store.db.updateTable('guilds').set({ features: '[]' }).where('id', '=', g()).execute();

  const text = await multipart(t, `/guilds/${g()}/stickers`, stickerForm(Buffer.from('hello'), 'texty', 'text/plain', 't.txt'), bot());
  assert.equal(text.status, 400);
  const noFile = new FormData();
  noFile.append('name', 'nofile');
  noFile.append('tags', 'x');
  assert.equal((await multipart(t, `/guilds/${g()}/stickers`, noFile, bot())).body.errors.file._errors[0].code, 'BASE_TYPE_REQUIRED');
  const shortName = await multipart(t, `/guilds/${g()}/stickers`, stickerForm(PNG, 'x'), bot());
  assert.equal(shortName.body.errors.name._errors[0].code, 'BASE_TYPE_BAD_LENGTH');

  const list = await t.api(`/guilds/${g()}/stickers`, bot());
  assert.equal(list.body.length, 3);
  assert.ok(list.body.every((s: any) => s.user?.id === t.world.botUserId));
  const one = await t.api(`/guilds/${g()}/stickers/${png.body.id}`, bot());
  assert.equal(one.body.name, 'wave');
  const pub = await t.api(`/stickers/${png.body.id}`, bot());
  assert.equal(pub.body.id, png.body.id);
  assert.equal(pub.body.user, undefined);
  const guild = await t.api(`/guilds/${g()}`, bot());
  assert.equal(guild.body.stickers.length, 3);

  const cdn = await fetch(`${t.server.url}/stickers/${png.body.id}.png`);
  assert.deepEqual(Buffer.from(await cdn.arrayBuffer()), PNG);

  const patched = await t.api(`/guilds/${g()}/stickers/${png.body.id}`, { method: 'PATCH', ...bot(), body: { name: 'waving', description: null } });
  assert.equal(patched.status, 200, patched.text);
  assert.equal(patched.body.name, 'waving');
  assert.equal(patched.body.description, null);

  // Slots: 5 at premium tier 0.
  for (const n of ['s4', 's5']) assert.equal((await multipart(t, `/guilds/${g()}/stickers`, stickerForm(PNG, n), bot())).status, 201);
  const full = await multipart(t, `/guilds/${g()}/stickers`, stickerForm(PNG, 's6'), bot());
  assert.equal(full.body.code, 30039);

  // Messages: sticker_ids become sticker_items; unknown stickers are refused.
  const sent = await t.api(`/channels/${t.world.textChannelId}/messages`, { method: 'POST', ...bot(), body: { sticker_ids: [png.body.id] } });
  assert.equal(sent.status, 200, sent.text);
  assert.deepEqual(sent.body.sticker_items, [{ id: png.body.id, name: 'waving', format_type: 1 }]);
  const unknown = await t.api(`/channels/${t.world.textChannelId}/messages`, { method: 'POST', ...bot(), body: { sticker_ids: ['12345'] } });
  assert.equal(unknown.body.code, 50081);

  for (const s of (await t.api(`/guilds/${g()}/stickers`, bot())).body) {
    assert.equal((await t.api(`/guilds/${g()}/stickers/${s.id}`, { method: 'DELETE', ...bot() })).status, 204);
  }
  assert.equal((await t.api(`/guilds/${g()}/stickers/${png.body.id}`, bot())).body.code, 10060);
  assert.equal((await t.api(`/stickers/${png.body.id}`, bot())).body.code, 10060);
});

test('standard sticker packs: GET /sticker-packs, /sticker-packs/{id}, /stickers/{id}, and the Lottie on the CDN', async () => {
  const packs = await t.api('/sticker-packs', bot());
  assert.equal(packs.status, 200);
  const pack = packs.body.sticker_packs[0];
  assert.ok(pack.stickers.length > 0);
  assert.equal(pack.stickers[0].type, 1);
  assert.equal(pack.stickers[0].pack_id, pack.id);
  assert.equal((await t.api('/sticker-packs')).status, 200, 'no token needed');
  assert.equal((await t.api(`/sticker-packs/${pack.id}`, bot())).body.name, pack.name);
  assert.equal((await t.api('/sticker-packs/1', bot())).body.code, 10061);
  const std = await t.api(`/stickers/${pack.stickers[0].id}`, bot());
  assert.equal(std.body.format_type, 3);
  const lottie = await fetch(`${t.server.url}/stickers/${pack.stickers[0].id}.json`);
  assert.equal(lottie.status, 200);
  assert.ok(Array.isArray(((await lottie.json()) as { layers: unknown }).layers));
  const sent = await t.api(`/channels/${t.world.textChannelId}/messages`, { method: 'POST', ...bot(), body: { sticker_ids: [pack.stickers[0].id] } });
  assert.equal(sent.body.sticker_items[0].id, pack.stickers[0].id);
});

test('soundboard: defaults, guild CRUD ({items}), MP3/Ogg up to 5.2 s, events, CDN, Request Soundboard Sounds', async () => {
  const defaults = await t.api('/soundboard-default-sounds', bot());
  assert.equal(defaults.status, 200);
  assert.ok(defaults.body.length >= 1);
  assert.equal(defaults.body[0].sound_id, '1');
  assert.equal(defaults.body[0].guild_id, undefined);
  assert.equal((await fetch(`${t.server.url}/soundboard-sounds/1`)).headers.get('content-type'), 'audio/mpeg');

  const created = await t.api(`/guilds/${g()}/soundboard-sounds`, {
    method: 'POST',
    ...bot(),
    body: { name: 'honk', sound: dataUri(mp3(1), 'audio/mpeg'), volume: 0.5, emoji_name: '🦆' },
  });
  assert.equal(created.status, 201, created.text);
  const s = created.body;
  assert.equal(s.name, 'honk');
  assert.equal(s.volume, 0.5);
  assert.equal(s.emoji_name, '🦆');
  assert.equal(s.emoji_id, null);
  assert.equal(s.guild_id, g());
  assert.equal(s.available, true);
  assert.equal(s.user.id, t.world.botUserId);
  await gw.dispatch('GUILD_SOUNDBOARD_SOUND_CREATE', (d) => d.sound_id === s.sound_id);

  const long = await t.api(`/guilds/${g()}/soundboard-sounds`, { method: 'POST', ...bot(), body: { name: 'long', sound: dataUri(mp3(6), 'audio/mpeg') } });
  assert.equal(long.body.code, 50124);
  const png = await t.api(`/guilds/${g()}/soundboard-sounds`, { method: 'POST', ...bot(), body: { name: 'pic', sound: dataUri(PNG) } });
  assert.equal(png.body.code, 50123);
  const loud = await t.api(`/guilds/${g()}/soundboard-sounds`, {
    method: 'POST',
    ...bot(),
    body: { name: 'loud', sound: dataUri(mp3(1), 'audio/mpeg'), volume: 2 },
  });
  assert.equal(loud.body.code, 50035);
  const short = await t.api(`/guilds/${g()}/soundboard-sounds`, { method: 'POST', ...bot(), body: { name: 'x', sound: dataUri(mp3(1), 'audio/mpeg') } });
  assert.equal(short.body.errors.name._errors[0].code, 'BASE_TYPE_BAD_LENGTH');

  const list = await t.api(`/guilds/${g()}/soundboard-sounds`, bot());
  assert.deepEqual(
    list.body.items.map((x: any) => x.sound_id),
    [s.sound_id],
  );
  assert.equal((await t.api(`/guilds/${g()}/soundboard-sounds/${s.sound_id}`, bot())).body.name, 'honk');
  const cdn = await fetch(`${t.server.url}/soundboard-sounds/${s.sound_id}`);
  assert.equal(cdn.status, 200);
  assert.deepEqual(Buffer.from(await cdn.arrayBuffer()), mp3(1));

  const patched = await t.api(`/guilds/${g()}/soundboard-sounds/${s.sound_id}`, { method: 'PATCH', ...bot(), body: { volume: 1, name: 'honk honk' } });
  assert.equal(patched.body.volume, 1);
  assert.equal(patched.body.name, 'honk honk');
  await gw.dispatch('GUILD_SOUNDBOARD_SOUND_UPDATE', (d) => d.name === 'honk honk');

  gw.send(31, { guild_ids: [g()] });
  const reply = await gw.dispatch('SOUNDBOARD_SOUNDS', (d) => d.guild_id === g());
  assert.deepEqual(
    reply.soundboard_sounds.map((x: any) => x.sound_id),
    [s.sound_id],
  );

  assert.equal((await t.api(`/guilds/${g()}/soundboard-sounds/${s.sound_id}`, { method: 'DELETE', ...bot() })).status, 204);
  const del = await gw.dispatch('GUILD_SOUNDBOARD_SOUND_DELETE', (d) => d.sound_id === s.sound_id);
  assert.equal(del.guild_id, g());
  assert.equal((await t.api(`/guilds/${g()}/soundboard-sounds/${s.sound_id}`, bot())).body.code, 10097);
});

test('CREATE_GUILD_EXPRESSIONS: MANAGE_GUILD_EXPRESSIONS alone creates emoji, stickers and sounds before 2026-02-23, not after', async () => {
  // A bot holding MANAGE_GUILD_EXPRESSIONS but not CREATE_GUILD_EXPRESSIONS (which @everyone no longer grants).
  await stripEveryone(t, P.CREATE_GUILD_EXPRESSIONS);
  const manager = await installBot(t, 'Expression Manager', P.VIEW_CHANNEL | P.MANAGE_GUILD_EXPRESSIONS);
  const as = { token: manager.token, bot: true };
  try {
    await setClock(t, BEFORE_CUTOVER);
    const e = await t.api(`/guilds/${g()}/emojis`, { method: 'POST', ...as, body: { name: 'legacy', image: dataUri(PNG) } });
    assert.equal(e.status, 201, e.text);
    const s = await multipart(t, `/guilds/${g()}/stickers`, stickerForm(PNG, 'legacy'), as);
    assert.equal(s.status, 201, s.text);
    const snd = await t.api(`/guilds/${g()}/soundboard-sounds`, { method: 'POST', ...as, body: { name: 'legacy', sound: dataUri(mp3(1), 'audio/mpeg') } });
    assert.equal(snd.status, 201, snd.text);

    await setClock(t, AFTER_CUTOVER);
    const e2 = await t.api(`/guilds/${g()}/emojis`, { method: 'POST', ...as, body: { name: 'modern', image: dataUri(PNG) } });
    assert.equal(e2.status, 403);
    assert.equal(e2.body.code, 50013);
    assert.equal((await multipart(t, `/guilds/${g()}/stickers`, stickerForm(PNG, 'modern'), as)).body.code, 50013);
    assert.equal(
      (await t.api(`/guilds/${g()}/soundboard-sounds`, { method: 'POST', ...as, body: { name: 'modern', sound: dataUri(mp3(1), 'audio/mpeg') } })).body.code,
      50013,
    );
    // Managing existing expressions still works with MANAGE_GUILD_EXPRESSIONS.
    assert.equal((await t.api(`/guilds/${g()}/emojis/${e.body.id}`, { method: 'PATCH', ...as, body: { name: 'still_mine' } })).status, 200);
    assert.equal((await t.api(`/guilds/${g()}/stickers/${s.body.id}`, { method: 'DELETE', ...as })).status, 204);
    assert.equal((await t.api(`/guilds/${g()}/soundboard-sounds/${snd.body.sound_id}`, { method: 'DELETE', ...as })).status, 204);
    // With CREATE_GUILD_EXPRESSIONS (the seed bot has it) creation works after the cutover.
    const ok = await t.api(`/guilds/${g()}/emojis`, { method: 'POST', ...bot(), body: { name: 'modern_ok', image: dataUri(PNG) } });
    assert.equal(ok.status, 201);
  } finally {
    await resetClock(t);
  }
});

test('malformed expression bodies never give a 5xx', async () => {
  const fc = (await import('fast-check')).default;
  const garbage = fc.oneof(
    fc.anything(),
    fc.constantFrom(null, '', [], {}, -1, 1e300, '99999999999999999999999', 'data:image/png;base64,', 'data:;base64,AAAA'),
  );
  const paths: [string, string, string[]][] = [
    [`/guilds/${g()}/emojis`, 'POST', ['name', 'image', 'roles']],
    [`/applications/${t.world.applicationId}/emojis`, 'POST', ['name', 'image']],
    [`/guilds/${g()}/soundboard-sounds`, 'POST', ['name', 'sound', 'volume', 'emoji_id', 'emoji_name']],
    [`/guilds/${g()}/stickers/99999999999999999999`, 'PATCH', ['name', 'tags', 'description']],
  ];
  for (const [path, method, fields] of paths) {
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.constantFrom(...fields), garbage), async (body) => {
        const r = await t.api(path, { method, ...bot(), body });
        assert.ok(r.status < 500, `${method} ${path} ${JSON.stringify(body)} -> ${r.status} ${r.text}`);
      }),
      { numRuns: 30 },
    );
  }
  for (const id of ['abc', '99999999999999999999', '-1']) {
    for (const p of [
      `/guilds/${g()}/emojis/${id}`,
      `/guilds/${g()}/stickers/${id}`,
      `/guilds/${g()}/soundboard-sounds/${id}`,
      `/stickers/${id}`,
      `/sticker-packs/${id}`,
      `/applications/${id}/emojis`,
    ]) {
      const r = await t.api(p, bot());
      assert.ok(r.status === 404 || r.status === 403, `${p} -> ${r.status}`);
    }
  }
});

test('deleting a guild removes its emoji, stickers, sounds and their bytes', async () => {
  const made = await t.api('/guilds', { method: 'POST', ...alice(), body: { name: 'Short-lived' } });
  assert.equal(made.status, 201, made.text);
  const gid = made.body.id;
  const e = (await t.api(`/guilds/${gid}/emojis`, { method: 'POST', ...alice(), body: { name: 'temp', image: dataUri(PNG) } })).body;
  const s = (await multipart(t, `/guilds/${gid}/stickers`, stickerForm(PNG, 'temp'), alice())).body;
  const snd = (await t.api(`/guilds/${gid}/soundboard-sounds`, { method: 'POST', ...alice(), body: { name: 'temp', sound: dataUri(mp3(1), 'audio/mpeg') } }))
    .body;
  assert.ok(e.id && s.id && snd.sound_id);
  assert.equal((await t.api(`/guilds/${gid}`, { method: 'DELETE', ...alice() })).status, 204);
  const db = t.server.ctx.repos.store.db;
  assert.equal((await db.selectFrom('emojis').select('id').where('guild_id', '=', gid).execute()).length, 0);
  assert.equal((await db.selectFrom('stickers').select('id').where('guild_id', '=', gid).execute()).length, 0);
  assert.equal((await db.selectFrom('soundboard_sounds').select('id').where('guild_id', '=', gid).execute()).length, 0);
  assert.equal((await db.selectFrom('expression_assets').select('id').where('id', 'in', [e.id, s.id, snd.sound_id]).execute()).length, 0);
  assert.equal((await db.selectFrom('audit_log_entries').select('id').where('guild_id', '=', gid).execute()).length, 0);
  assert.equal((await fetch(`${t.server.url}/emojis/${e.id}.png`)).status, 404);
});
