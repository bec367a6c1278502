/**
 * Deleting a guild leaves nothing of it behind: every table of the store is scanned afterwards for any cell naming the
 * guild, its channels, roles, messages, invites, template or vanity code. The guild is first given one of each kind of
 * thing that lives outside its core rows: a template, a vanity URL, settings, a join request, an invite with target
 * users and roles, a poll vote, a guild command with permissions, an interaction, follower links both ways (the follower
 * webhook it fed in another guild goes too, with WEBHOOKS_UPDATE there) and a lobby linked to one of its channels
 * (unlinked, LOBBY_UPDATE).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { startTestServer, type TestServer } from './helpers/server.js';
import { register } from './helpers/fixtures.js';
import { until } from './helpers/wait.js';
import { issueToken } from '../src/services/identity/tokens.js';
import type { BusEvent } from '../src/bus/bus.js';

let t: TestServer;
const events: BusEvent[] = [];
before(async () => {
  t = await startTestServer();
  t.server.ctx.bus.subscribe((e) => events.push(e));
});
after(async () => t?.close());

/** Every table of the store with its columns (SQLite or PostgreSQL). */
async function tables(): Promise<Map<string, string[]>> {
  const db = t.server.ctx.repos.store.db;
  const rows = process.env.DATABASE_URL
    ? (
        await sql<{
          t: string;
          c: string;
        }>`select table_name as t, column_name as c from information_schema.columns where table_schema = current_schema()`.execute(db)
      ).rows
    : (
        await sql<{
          t: string;
          c: string;
        }>`select m.name as t, p.name as c from sqlite_master m join pragma_table_info(m.name) p where m.type = 'table'`.execute(db)
      ).rows;
  const out = new Map<string, string[]>();
  for (const r of rows) out.set(r.t, [...(out.get(r.t) ?? []), r.c]);
  return out;
}

/** `table.column = value` for every cell equal to one of `needles`. */
async function cellsNaming(needles: Set<string>): Promise<string[]> {
  const found: string[] = [];
  for (const [table, cols] of await tables()) {
    const rows = await t.server.ctx.repos.store.db
      .selectFrom(table as any)
      .selectAll()
      .execute();
    for (const row of rows as Record<string, unknown>[]) {
      for (const c of cols) if (row[c] != null && needles.has(String(row[c]))) found.push(`${table}.${c} = ${String(row[c])}`);
    }
  }
  return found;
}

test('deleting a guild removes everything that names it, in every table', { timeout: 60_000 }, async () => {
  const owner = { token: t.world.users[0].token };
  const bot = { token: t.world.botToken, bot: true };
  const g = t.world.guildId;
  const text = t.world.textChannelId;
  const ok = (r: { status: number; text: string }, what: string) => assert.ok(r.status >= 200 && r.status < 300, `${what}: ${r.status} ${r.text}`);

  // Another guild of the same owner, to follow and be followed.
  const other = await t.api('/guilds', { ...owner, method: 'POST', body: { name: 'Elsewhere' } });
  ok(other, 'second guild');
  const h = other.body.id as string;
  const hText = (await t.api(`/guilds/${h}/channels`, owner)).body.find((c: any) => c.type === 0).id as string;
  const hNews = await t.api(`/guilds/${h}/channels`, { ...owner, method: 'POST', body: { name: 'h-news', type: 5 } });
  ok(hNews, 'announcement channel in the other guild');

  const news = await t.api(`/guilds/${g}/channels`, { ...owner, method: 'POST', body: { name: 'news', type: 5 } });
  ok(news, 'announcement channel');
  const fedOut = await t.api(`/channels/${news.body.id}/followers`, { ...owner, method: 'POST', body: { webhook_channel_id: hText } });
  ok(fedOut, 'the other guild follows ours');
  ok(await t.api(`/channels/${hNews.body.id}/followers`, { ...owner, method: 'POST', body: { webhook_channel_id: text } }), 'ours follows the other');

  const template = await t.api(`/guilds/${g}/templates`, { ...owner, method: 'POST', body: { name: 'kit' } });
  ok(template, 'template');
  ok(await t.api(`/guilds/${g}/vanity-url`, { ...owner, method: 'PATCH', body: { code: 'doomed-guild' } }), 'vanity');
  ok(await t.api(`/guilds/${g}/welcome-screen`, { ...owner, method: 'PATCH', body: { enabled: true, description: 'hi' } }), 'welcome screen');
  const guild = (await t.api(`/guilds/${g}`, owner)).body;
  ok(await t.api(`/guilds/${g}`, { ...owner, method: 'PATCH', body: { features: [...guild.features, 'MEMBER_VERIFICATION_GATE_ENABLED'] } }), 'gate');
  const applicant = await register(t, 'applicant');
  ok(await t.api(`/guilds/${g}/requests/@me`, { token: applicant.token, method: 'PUT', body: { form_responses: [] } }), 'join request');

  const role = await t.api(`/guilds/${g}/roles`, { ...owner, method: 'POST', body: { name: 'granted' } });
  ok(role, 'role');
  const form = new FormData();
  form.append('payload_json', JSON.stringify({ max_age: 0, role_ids: [role.body.id] }));
  form.append('target_users_file', new Blob([`user_id\n${applicant.id}\n`], { type: 'text/csv' }), 'targets.csv');
  const invite = await t.api(`/channels/${text}/invites`, { ...owner, method: 'POST', body: form });
  ok(invite, 'invite with targets and roles');

  const poll = await t.api(`/channels/${text}/messages`, {
    ...owner,
    method: 'POST',
    body: { poll: { question: { text: 'q' }, answers: [{ poll_media: { text: 'a' } }, { poll_media: { text: 'b' } }], duration: 1 } },
  });
  ok(poll, 'poll');
  ok(await t.api(`/channels/${text}/polls/${poll.body.id}/answers/@me`, { ...owner, method: 'PUT', body: { answer_ids: ['1'] } }), 'vote');

  const cmd = await t.api(`/applications/${t.world.applicationId}/guilds/${g}/commands`, {
    ...bot,
    method: 'POST',
    body: { name: 'local', description: 'guild command' },
  });
  ok(cmd, 'guild command');
  const perms = `Bearer ${await issueToken(t.server.ctx, t.world.users[0].id, 'bearer', { applicationId: t.world.applicationId, scopes: ['applications.commands.permissions.update'] })}`;
  ok(
    await t.api(`/applications/${t.world.applicationId}/guilds/${g}/commands/${cmd.body.id}/permissions`, {
      token: perms,
      method: 'PUT',
      body: { permissions: [{ id: role.body.id, type: 1, permission: true }] },
    }),
    'command permissions',
  );
  const from = events.length;
  ok(
    await t.api('/interactions', {
      ...owner,
      method: 'POST',
      body: {
        type: 2,
        application_id: t.world.applicationId,
        guild_id: g,
        channel_id: text,
        session_id: 's',
        nonce: '1',
        data: { id: cmd.body.id, name: 'local', type: 1, version: cmd.body.version },
      },
    }),
    'interaction',
  );
  await until(() => events.slice(from).find((e) => e.t === 'INTERACTION_CREATE' && e.d.token), 5000, 'INTERACTION_CREATE');

  // A lobby linked to one of the guild's channels.
  const lobby = await t.api('/lobbies', { ...bot, method: 'POST', body: { members: [{ id: t.world.users[0].id, flags: 1 }] } });
  ok(lobby, 'lobby');
  const linker = `Bearer ${await issueToken(t.server.ctx, t.world.users[0].id, 'bearer', { applicationId: t.world.applicationId, scopes: ['lobbies.write', 'guilds'] })}`;
  ok(await t.api(`/lobbies/${lobby.body.id}/channel-linking`, { token: linker, method: 'PATCH', body: { channel_id: text } }), 'lobby link');

  // What names the guild, collected before it goes.
  const needles = new Set<string>([g, template.body.code, 'doomed-guild', invite.body.code, poll.body.id, cmd.body.id, role.body.id, fedOut.body.webhook_id]);
  for (const c of (await t.api(`/guilds/${g}/channels`, owner)).body) needles.add(c.id);
  for (const r of (await t.api(`/guilds/${g}/roles`, owner)).body) needles.add(r.id);
  for (const m of (await t.api(`/channels/${text}/messages?limit=100`, owner)).body) needles.add(m.id);
  assert.ok((await cellsNaming(needles)).length > 20, 'the set-up wrote rows naming the guild');

  const mark = events.length;
  const del = await t.api(`/guilds/${g}`, { ...owner, method: 'DELETE' });
  assert.equal(del.status, 204, del.text);

  // The lobby is unlinked by the runtime (it follows GUILD_DELETE): the barrier before scanning the store.
  await until(() => events.slice(mark).find((e) => e.t === 'LOBBY_UPDATE' && e.d.id === lobby.body.id && !e.d.linked_channel), 5000, 'LOBBY_UPDATE unlinked');
  assert.deepEqual(await cellsNaming(needles), [], 'no row names the deleted guild or anything of it');

  // The other guild lost the follower webhook our channel fed, and was told.
  assert.ok(events.slice(mark).some((e) => e.t === 'WEBHOOKS_UPDATE' && e.d.channel_id === hText && e.guild_id === h));
  assert.ok(!(await t.api(`/channels/${hText}/webhooks`, owner)).body.some((w: any) => w.id === fedOut.body.webhook_id));
  // Codes answer as unknown.
  const tpl = await t.api(`/guilds/templates/${template.body.code}`, owner);
  assert.equal(tpl.status, 404, tpl.text);
  assert.equal((await t.api('/invites/doomed-guild', owner)).status, 404);
  assert.equal((await t.api(`/invites/${invite.body.code}`, owner)).status, 404);
  // The other guild itself is intact.
  assert.equal((await t.api(`/guilds/${h}`, owner)).status, 200);
});
