import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { startTestServer, type TestServer, type ApiOptions } from './helpers/server.js';
import { issueToken } from '../src/services/identity/tokens.js';
import { getApplication, updateApplication } from '../src/services/identity/applications.js';
import { getCommand, listCommandsFor, commandPermissionsFor, canUseCommand, ensureEntryPoint } from '../src/services/apps/commands/index.js';
import { P } from '@accord/protocol';
import type { BusEvent } from '../src/bus/bus.js';
import { ApiError } from '../src/core/errors.js';
import { Checker } from '../src/services/apps/components/check.js';
import { validateCommand } from '../src/services/apps/commands/validate.js';

let t: TestServer;
let app: string;
let guild: string;
let alice: string; // owns the guild and the app
let bob: string; // plain member
const events: BusEvent[] = [];

before(async () => {
  t = await startTestServer();
  app = t.world.applicationId;
  guild = t.world.guildId;
  alice = t.world.users[0].token;
  bob = t.world.users[1].token;
  t.server.ctx.bus.subscribe((e) => events.push(e));
});
after(async () => t?.close());

const asBot = (o: ApiOptions = {}): ApiOptions => ({ token: t.world.botToken, bot: true, ...o });
const G = () => `/applications/${app}/commands`;
const GG = () => `/applications/${app}/guilds/${guild}/commands`;
const post = (path: string, body: unknown, o: ApiOptions = asBot()) => t.api(path, { method: 'POST', body, ...o });
const put = (path: string, body: unknown, o: ApiOptions = asBot()) => t.api(path, { method: 'PUT', body, ...o });
const bearer = (userIndex: number, scopes: string[], applicationId = app) =>
  issueToken(t.server.ctx, t.world.users[userIndex].id, 'bearer', { applicationId, scopes }).then((tok) => ({ token: `Bearer ${tok}` }));

/** The `_errors` codes at a path of a 50035 body. */
function codesAt(body: any, path: (string | number)[]): string[] {
  let node = body?.errors;
  for (const k of path) node = node?.[String(k)];
  return (node?._errors ?? []).map((e: any) => e.code);
}
function assertFormError(res: { status: number; body: any }, path: (string | number)[], code: string) {
  assert.equal(res.status, 400, JSON.stringify(res.body));
  assert.equal(res.body.code, 50035);
  assert.ok(codesAt(res.body, path).includes(code), `expected ${code} at ${path.join('.') || '_errors'}: ${JSON.stringify(res.body.errors)}`);
}
async function clearGlobal() {
  const r = await put(G(), []);
  assert.equal(r.status, 200, r.text);
}

describe('global commands', () => {
  test('create, read, list, patch and delete', async () => {
    await clearGlobal();
    const made = await post(G(), {
      name: 'ping',
      description: 'Replies with pong',
      options: [
        { type: 3, name: 'text', description: 'What to echo', required: true, min_length: 1, max_length: 20 },
        { type: 5, name: 'loud', description: 'Shout it' },
      ],
    });
    assert.equal(made.status, 201, made.text);
    const c = made.body;
    assert.match(c.id, /^\d+$/);
    assert.match(c.version, /^\d+$/);
    assert.equal(c.application_id, app);
    assert.equal(c.type, 1);
    assert.equal(c.name, 'ping');
    assert.equal(c.description, 'Replies with pong');
    assert.equal(c.default_member_permissions, null);
    assert.equal(c.dm_permission, true);
    assert.equal(c.contexts, null);
    assert.deepEqual(c.integration_types, [0]);
    assert.equal(c.nsfw, false);
    assert.equal('guild_id' in c, false);
    assert.deepEqual(c.options, [
      { type: 3, name: 'text', description: 'What to echo', required: true, min_length: 1, max_length: 20 },
      { type: 5, name: 'loud', description: 'Shout it' },
    ]);

    const one = await t.api(`${G()}/${c.id}`, asBot());
    assert.equal(one.status, 200);
    assert.deepEqual(one.body, c);
    const list = await t.api(G(), asBot());
    assert.deepEqual(
      list.body.map((x: any) => x.id),
      [c.id],
    );
    const owner = await t.api(G(), { token: alice });
    assert.equal(owner.status, 200, 'the owner reads with a user token');

    const patched = await t.api(`${G()}/${c.id}`, asBot({ method: 'PATCH', body: { description: 'Pong!', default_member_permissions: '32', nsfw: true } }));
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.body.id, c.id);
    assert.notEqual(patched.body.version, c.version);
    assert.equal(patched.body.description, 'Pong!');
    assert.equal(patched.body.default_member_permissions, '32');
    assert.equal(patched.body.nsfw, true);
    assert.equal(patched.body.options.length, 2, 'fields not sent are kept');
    const badPatch = await t.api(`${G()}/${c.id}`, asBot({ method: 'PATCH', body: { name: 'Bad Name' } }));
    assertFormError(badPatch, ['name'], 'STRING_TYPE_REGEX');
    const other = await post(G(), { name: 'pong', description: 'other' });
    const clash = await t.api(`${G()}/${c.id}`, asBot({ method: 'PATCH', body: { name: 'pong', type: 2 } }));
    assert.equal(clash.status, 400);
    assert.equal(clash.body.code, 40041, 'renaming onto another command of the same type');
    const renamed = await t.api(`${G()}/${other.body.id}`, asBot({ method: 'PATCH', body: { name: 'pong2' } }));
    assert.equal(renamed.body.name, 'pong2');
    assert.equal((await t.api(`${G()}/${other.body.id}`, asBot({ method: 'DELETE' }))).status, 204);

    const del = await t.api(`${G()}/${c.id}`, asBot({ method: 'DELETE' }));
    assert.equal(del.status, 204);
    const gone = await t.api(`${G()}/${c.id}`, asBot());
    assert.equal(gone.status, 404);
    assert.equal(gone.body.code, 10063);
    assert.equal((await t.api(`${G()}/${c.id}`, asBot({ method: 'DELETE' }))).body.code, 10063);
    assert.equal((await t.api(`${G()}/nope`, asBot())).body.code, 10063);
  });

  test('POST with an existing name and type overwrites it (200); a new one is created (201)', async () => {
    await clearGlobal();
    const a = await post(G(), { name: 'echo', description: 'one' });
    assert.equal(a.status, 201);
    const again = await post(G(), { name: 'echo', description: 'two' });
    assert.equal(again.status, 200);
    assert.equal(again.body.id, a.body.id);
    assert.equal(again.body.description, 'two');
    assert.notEqual(again.body.version, a.body.version);
    const other = await post(G(), { name: 'echo2', description: 'three' });
    assert.equal(other.status, 201);
    const sameNameOtherType = await post(G(), { name: 'echo', type: 2 });
    assert.equal(sameNameOtherType.status, 201, 'names are unique per type');
    const list = await t.api(G(), asBot());
    assert.equal(list.body.length, 3);
  });

  test('who may manage commands', async () => {
    assert.equal((await t.api(G(), { token: bob })).body.code, 20012);
    assert.equal((await t.api(`/applications/123/commands`, asBot())).body.code, 10002);
    assert.equal((await t.api(G())).status, 401);
    const ccToken = await bearer(0, ['applications.commands.update']);
    const viaBearer = await post(G(), { name: 'bearer-made', description: 'x' }, ccToken);
    assert.ok([200, 201].includes(viaBearer.status), viaBearer.text);
    const noScope = await bearer(0, ['identify']);
    assert.equal((await t.api(G(), noScope)).status, 403);
  });

  test('integration_types defaults to the app installation contexts; contexts stay as given', async () => {
    await clearGlobal();
    const ctx = t.server.ctx;
    const record = (await getApplication(ctx, app))!;
    await updateApplication(ctx, record, { extra: { integration_types_config: { '0': {}, '1': {} } } });
    try {
      const c = await post(G(), { name: 'both', description: 'x' });
      assert.deepEqual(c.body.integration_types, [0, 1]);
      assert.equal(c.body.contexts, null);
      const d = await post(G(), { name: 'given', description: 'x', integration_types: [1], contexts: [1, 2], dm_permission: false });
      assert.deepEqual(d.body.integration_types, [1]);
      assert.deepEqual(d.body.contexts, [1, 2]);
      assert.equal(d.body.dm_permission, false);
    } finally {
      await updateApplication(ctx, (await getApplication(ctx, app))!, { extra: { integration_types_config: { '0': {} } } });
    }
    const e = await post(G(), { name: 'guildonly', description: 'x' });
    assert.deepEqual(e.body.integration_types, [0]);
    assertFormError(await post(G(), { name: 'bad', description: 'x', contexts: [3] }), ['contexts', 0], 'BASE_TYPE_CHOICES');
    assertFormError(await post(G(), { name: 'bad', description: 'x', integration_types: [] }), ['integration_types'], 'BASE_TYPE_BAD_LENGTH');
  });

  test('localizations: full maps on single responses and with ?with_localizations=true', async () => {
    await clearGlobal();
    const c = await post(G(), {
      name: 'hello',
      description: 'Says hello',
      name_localizations: { fr: 'bonjour' },
      description_localizations: { fr: 'Dit bonjour' },
      options: [
        {
          type: 3,
          name: 'who',
          description: 'Whom',
          name_localizations: { de: 'wer' },
          choices: [{ name: 'All', value: 'all', name_localizations: { fr: 'Tous' } }],
        },
      ],
    });
    assert.equal(c.status, 201, c.text);
    assert.deepEqual(c.body.name_localizations, { fr: 'bonjour' });
    const plain = (await t.api(G(), asBot())).body[0];
    assert.equal('name_localizations' in plain, false);
    assert.equal('description_localizations' in plain, false);
    assert.equal('name_localizations' in plain.options[0], false);
    assert.deepEqual(plain.options[0].choices, [{ name: 'All', value: 'all' }]);
    const full = (await t.api(`${G()}?with_localizations=true`, asBot())).body[0];
    assert.deepEqual(full.name_localizations, { fr: 'bonjour' });
    assert.deepEqual(full.description_localizations, { fr: 'Dit bonjour' });
    assert.deepEqual(full.options[0].name_localizations, { de: 'wer' });
    assertFormError(await post(G(), { name: 'x', description: 'x', name_localizations: { xx: 'y' } }), ['name_localizations', 'xx'], 'BASE_TYPE_CHOICES');
    assertFormError(
      await post(G(), { name: 'x', description: 'x', name_localizations: { fr: 'Bad Name' } }),
      ['name_localizations', 'fr'],
      'STRING_TYPE_REGEX',
    );
  });
});

describe('validation', () => {
  const opt = (name: string, extra: Record<string, unknown> = {}) => ({ type: 3, name, description: `about ${name}`, ...extra });

  test('names', async () => {
    assertFormError(await post(G(), { name: 'bad name', description: 'x' }), ['name'], 'STRING_TYPE_REGEX');
    assertFormError(await post(G(), { name: 'Ping', description: 'x' }), ['name'], 'APPLICATION_COMMAND_INVALID_NAME');
    assertFormError(await post(G(), { name: 'x'.repeat(33), description: 'x' }), ['name'], 'BASE_TYPE_BAD_LENGTH');
    assertFormError(await post(G(), { description: 'x' }), ['name'], 'BASE_TYPE_REQUIRED');
    assertFormError(await post(G(), { name: 'ok', description: 'x', options: [opt('Upper')] }), ['options', 0, 'name'], 'APPLICATION_COMMAND_INVALID_NAME');
    // Letters of other scripts, apostrophes and hyphens are fine; so is mixed case for context menus.
    for (const name of ['héllo', "it's", 'नमस्ते', 'สวัสดี', 'a-b_c', '名前']) assert.equal((await post(G(), { name, description: 'x' })).status, 201, name);
    assert.equal((await post(G(), { name: 'Report User!', type: 2 })).status, 201);
    assertFormError(await post(G(), { name: 'x'.repeat(33), type: 3 }), ['name'], 'BASE_TYPE_BAD_LENGTH');
    await clearGlobal();
  });

  test('descriptions', async () => {
    assertFormError(await post(G(), { name: 'a' }), ['description'], 'BASE_TYPE_REQUIRED');
    assertFormError(await post(G(), { name: 'a', description: '' }), ['description'], 'BASE_TYPE_BAD_LENGTH');
    assertFormError(await post(G(), { name: 'a', description: 'x'.repeat(101) }), ['description'], 'BASE_TYPE_BAD_LENGTH');
    assertFormError(await post(G(), { name: 'Inspect', type: 2, description: 'not allowed' }), ['description'], 'BASE_TYPE_MAX_LENGTH');
    assertFormError(await post(G(), { name: 'Inspect', type: 3, options: [opt('x')] }), ['options'], 'BASE_TYPE_MAX_LENGTH');
    assert.equal((await post(G(), { name: 'Inspect', type: 3, description: '' })).status, 201);
    await clearGlobal();
  });

  test('options: count, order, uniqueness, choices and autocomplete, ranges, nesting', async () => {
    const many = Array.from({ length: 26 }, (_, i) => opt(`o${i}`));
    assertFormError(await post(G(), { name: 'a', description: 'x', options: many }), ['options'], 'BASE_TYPE_MAX_LENGTH');
    assertFormError(
      await post(G(), { name: 'a', description: 'x', options: [opt('o1'), opt('o2', { required: true })] }),
      ['options', 1],
      'APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID',
    );
    assertFormError(
      await post(G(), { name: 'a', description: 'x', options: [opt('o1'), opt('o1')] }),
      ['options', 1, 'name'],
      'APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS',
    );
    assertFormError(await post(G(), { name: 'a', description: 'x', options: [opt('o1', { type: 12 })] }), ['options', 0, 'type'], 'BASE_TYPE_CHOICES');
    assertFormError(
      await post(G(), { name: 'a', description: 'x', options: [opt('o1', { description: '' })] }),
      ['options', 0, 'description'],
      'BASE_TYPE_BAD_LENGTH',
    );
    const choices = Array.from({ length: 26 }, (_, i) => ({ name: `c${i}`, value: `v${i}` }));
    assertFormError(await post(G(), { name: 'a', description: 'x', options: [opt('o', { choices })] }), ['options', 0, 'choices'], 'BASE_TYPE_MAX_LENGTH');
    assertFormError(
      await post(G(), { name: 'a', description: 'x', options: [opt('o', { choices: choices.slice(0, 2), autocomplete: true })] }),
      ['options', 0, 'autocomplete'],
      'APPLICATION_COMMAND_OPTION_AUTOCOMPLETE_CHOICES_EXCLUSIVE',
    );
    assertFormError(
      await post(G(), { name: 'a', description: 'x', options: [{ type: 5, name: 'b', description: 'x', choices: [{ name: 'y', value: true }] }] }),
      ['options', 0, 'choices'],
      'APPLICATION_COMMAND_OPTION_CHOICES_NOT_ALLOWED',
    );
    assertFormError(
      await post(G(), { name: 'a', description: 'x', options: [{ type: 4, name: 'n', description: 'x', choices: [{ name: 'half', value: 1.5 }] }] }),
      ['options', 0, 'choices', 0, 'value'],
      'NUMBER_TYPE_COERCE',
    );
    assertFormError(
      await post(G(), { name: 'a', description: 'x', options: [{ type: 4, name: 'n', description: 'x', min_value: 5, max_value: 1 }] }),
      ['options', 0, 'min_value'],
      'NUMBER_TYPE_MAX',
    );
    assertFormError(
      await post(G(), { name: 'a', description: 'x', options: [opt('s', { max_length: 6001 })] }),
      ['options', 0, 'max_length'],
      'NUMBER_TYPE_MAX',
    );
    assertFormError(
      await post(G(), { name: 'a', description: 'x', options: [{ type: 7, name: 'c', description: 'x', channel_types: [99] }] }),
      ['options', 0, 'channel_types', 0],
      'BASE_TYPE_CHOICES',
    );
    const sub = (name: string, options: unknown[] = []) => ({ type: 1, name, description: 'sub', options });
    assertFormError(
      await post(G(), { name: 'a', description: 'x', options: [sub('s'), opt('o')] }),
      ['options', 1, 'type'],
      'APPLICATION_COMMAND_OPTIONS_TYPE_INVALID',
    );
    assertFormError(
      await post(G(), { name: 'a', description: 'x', options: [sub('s', [sub('deeper')])] }),
      ['options', 0, 'options', 0, 'type'],
      'BASE_TYPE_CHOICES',
    );
    assertFormError(
      await post(G(), { name: 'a', description: 'x', options: [{ type: 2, name: 'g', description: 'group', options: [opt('o')] }] }),
      ['options', 0, 'options', 0, 'type'],
      'BASE_TYPE_CHOICES',
    );
    assertFormError(
      await post(G(), { name: 'a', description: 'x', options: [{ type: 2, name: 'g', description: 'group' }] }),
      ['options', 0, 'options'],
      'BASE_TYPE_REQUIRED',
    );
    const nested = await post(G(), {
      name: 'admin',
      description: 'x',
      options: [
        {
          type: 2,
          name: 'user',
          description: 'users',
          options: [
            sub('ban', [
              { type: 6, name: 'target', description: 't', required: true },
              { type: 4, name: 'days', description: 'd', min_value: 0, max_value: 7 },
            ]),
          ],
        },
        sub('stats', [opt('q', { autocomplete: true })]),
      ],
    });
    assert.equal(nested.status, 201, nested.text);
    assert.deepEqual(nested.body.options[0].options[0].options[1], { type: 4, name: 'days', description: 'd', min_value: 0, max_value: 7 });
    assert.equal(nested.body.options[1].options[0].autocomplete, true);
    await clearGlobal();
  });

  test('combined size over 8000 is APPLICATION_COMMAND_TOO_LARGE at errors._errors', async () => {
    const options = Array.from({ length: 25 }, (_, i) =>
      opt(`o${i}`, { description: 'd'.repeat(100), choices: Array.from({ length: 25 }, (_, j) => ({ name: `c${j}`.padEnd(100, 'x'), value: `v${j}` })) }),
    );
    const r = await post(G(), { name: 'big', description: 'x', options });
    assertFormError(r, [], 'APPLICATION_COMMAND_TOO_LARGE');
  });

  test('default_member_permissions is a permission string or null', async () => {
    const a = await post(G(), { name: 'perm', description: 'x', default_member_permissions: 8 });
    assert.equal(a.body.default_member_permissions, '8');
    const zero = await post(G(), { name: 'perm0', description: 'x', default_member_permissions: '0' });
    assert.equal(zero.body.default_member_permissions, '0');
    assertFormError(
      await post(G(), { name: 'perm', description: 'x', default_member_permissions: 'admin' }),
      ['default_member_permissions'],
      'NUMBER_TYPE_COERCE',
    );
    assertFormError(
      await post(G(), { name: 'perm', description: 'x', default_member_permissions: (1n << 60n).toString() }),
      ['default_member_permissions'],
      'NUMBER_TYPE_MAX',
    );
    await clearGlobal();
  });

  test('at most 15 USER commands: the 16th is 30032; 100 CHAT_INPUT per scope', async () => {
    for (let i = 0; i < 15; i++) assert.equal((await post(G(), { name: `User ${i}`, type: 2 })).status, 201);
    const sixteenth = await post(G(), { name: 'User 15', type: 2 });
    assert.equal(sixteenth.status, 400);
    assert.equal(sixteenth.body.code, 30032);
    assert.equal((await post(G(), { name: 'User 3', type: 2 })).status, 200, 'overwriting an existing one is not a new command');
    assert.equal((await post(G(), { name: 'Message 0', type: 3 })).status, 201, 'limits are per type');
    const tooMany = await put(
      G(),
      Array.from({ length: 101 }, (_, i) => ({ name: `c${i}`, description: 'x' })),
    );
    assert.equal(tooMany.body.code, 30032);
    await clearGlobal();
  });

  test('PRIMARY_ENTRY_POINT: global only, one per app, handler required', async () => {
    await clearGlobal();
    const ep = await post(G(), { name: 'Launch', description: 'Launch the activity', type: 4, handler: 2 });
    assert.equal(ep.status, 201, ep.text);
    assert.equal(ep.body.handler, 2);
    assert.equal(ep.body.type, 4);
    const second = await post(G(), { name: 'other', description: 'x', type: 4, handler: 1 });
    assert.equal(second.status, 400);
    assert.equal(second.body.code, 30032);
    assert.equal((await post(G(), { name: 'Launch', description: 'edited', type: 4, handler: 1 })).status, 200, 'the same name overwrites');
    assertFormError(await post(G(), { name: 'nohandler', description: 'x', type: 4 }), ['handler'], 'BASE_TYPE_REQUIRED');
    assertFormError(await post(G(), { name: 'badhandler', description: 'x', type: 4, handler: 3 }), ['handler'], 'BASE_TYPE_CHOICES');
    assertFormError(await post(GG(), { name: 'guildlaunch', description: 'x', type: 4, handler: 2 }), ['type'], 'BASE_TYPE_CHOICES');
    assertFormError(await post(G(), { name: 'launch2', description: 'x', type: 4, handler: 1, options: [opt('o')] }), ['options'], 'BASE_TYPE_MAX_LENGTH');
    await clearGlobal();
    const ctx = t.server.ctx;
    const auto = await ensureEntryPoint(ctx, (await getApplication(ctx, app))!);
    assert.deepEqual([auto.name, auto.type, auto.handler], ['Launch', 4, 2]);
    assert.equal((await ensureEntryPoint(ctx, (await getApplication(ctx, app))!)).id, auto.id, 'only one');
    await clearGlobal();
  });
});

describe('bulk overwrite', () => {
  test('keeps ids of commands matched by name and type, replaces the rest, in one transaction', async () => {
    await clearGlobal();
    const first = await put(G(), [
      { name: 'alpha', description: 'a' },
      { name: 'beta', description: 'b' },
      { name: 'Alpha', type: 2 },
    ]);
    assert.equal(first.status, 200, first.text);
    const [alpha, beta, ctxMenu] = first.body;
    const second = await put(G(), [
      { name: 'alpha', description: 'a' },
      { name: 'gamma', description: 'g' },
      { name: 'Alpha', type: 2 },
      { id: beta.id, name: 'beta2', description: 'renamed by id' },
    ]);
    assert.equal(second.status, 200, second.text);
    const byName = Object.fromEntries(second.body.map((c: any) => [`${c.type}:${c.name}`, c]));
    assert.equal(byName['1:alpha'].id, alpha.id);
    assert.equal(byName['1:alpha'].version, alpha.version, 'an unchanged command keeps its version');
    assert.equal(byName['2:Alpha'].id, ctxMenu.id);
    assert.equal(byName['1:beta2'].id, beta.id, 'an item may name the command it replaces by id');
    assert.notEqual(byName['1:beta2'].version, beta.version);
    assert.ok(![alpha.id, beta.id, ctxMenu.id].includes(byName['1:gamma'].id));
    const list = await t.api(G(), asBot());
    assert.deepEqual(list.body.map((c: any) => c.name).sort(), ['Alpha', 'alpha', 'beta2', 'gamma']);

    // One bad item: nothing changes.
    const bad = await put(G(), [
      { name: 'delta', description: 'd' },
      { name: 'Bad', description: 'x' },
    ]);
    assertFormError(bad, [1, 'name'], 'APPLICATION_COMMAND_INVALID_NAME');
    const dup = await put(G(), [
      { name: 'same', description: 'd' },
      { name: 'same', description: 'x' },
    ]);
    assertFormError(dup, [1], 'APPLICATION_COMMANDS_DUPLICATE_NAME');
    assertFormError(await put(G(), { name: 'x' }), [], 'LIST_TYPE_CONVERT');
    const after = await t.api(G(), asBot());
    assert.deepEqual(after.body.map((c: any) => c.id).sort(), list.body.map((c: any) => c.id).sort());

    const empty = await put(G(), []);
    assert.deepEqual(empty.body, []);
    assert.deepEqual((await t.api(G(), asBot())).body, []);
  });
});

describe('guild commands', () => {
  test('CRUD under the guild; no global-only fields; the bot must be in the guild', async () => {
    const made = await post(GG(), { name: 'local', description: 'guild only', contexts: [0], integration_types: [0], dm_permission: false });
    assert.equal(made.status, 201, made.text);
    assert.equal(made.body.guild_id, guild);
    for (const k of ['contexts', 'integration_types', 'dm_permission']) assert.equal(k in made.body, false, k);
    const again = await post(GG(), { name: 'local', description: 'guild only 2' });
    assert.equal(again.status, 200);
    assert.equal(again.body.id, made.body.id);
    assert.deepEqual(
      (await t.api(GG(), asBot())).body.map((c: any) => c.id),
      [made.body.id],
    );
    assert.equal((await post(G(), { name: 'local', description: 'same name globally' })).status, 201, 'global and guild scopes are separate');
    assert.equal((await t.api(`${G()}/${made.body.id}`, asBot())).body.code, 10063, 'a guild command is not reachable as global');
    const patched = await t.api(`${GG()}/${made.body.id}`, asBot({ method: 'PATCH', body: { description: 'patched' } }));
    assert.equal(patched.body.description, 'patched');
    const bulk = await put(GG(), [
      { name: 'local', description: 'bulk' },
      { name: 'other', description: 'o' },
    ]);
    assert.equal(bulk.body[0].id, made.body.id);

    const ctx = t.server.ctx;
    assert.deepEqual((await listCommandsFor(ctx, app, guild)).map((c) => c.name).sort(), ['local', 'local', 'other']);
    assert.deepEqual(
      (await listCommandsFor(ctx, app, null)).map((c) => c.name),
      ['local'],
    );
    assert.equal((await getCommand(ctx, app, made.body.id))?.guild_id, guild);
    assert.equal(await getCommand(ctx, app, '1'), null);

    assert.equal((await t.api(`${GG()}/${made.body.id}`, asBot({ method: 'DELETE' }))).status, 204);
    const notIn = await t.api(`/applications/${app}/guilds/123456789012345678/commands`, asBot());
    assert.equal(notIn.status, 403);
    assert.equal(notIn.body.code, 50001);
    await put(GG(), []);
    await clearGlobal();
  });
});

describe('permissions', () => {
  test('GET/PUT with a Bearer token of a manager; bots refused; event to the bot', async () => {
    const cmd = (await post(GG(), { name: 'secret', description: 'x' })).body;
    const P_ = (cid: string) => `${GG()}/${cid}/permissions`;
    const missing = await t.api(P_(cmd.id), asBot());
    assert.equal(missing.status, 404);
    assert.equal(missing.body.code, 10066);
    assert.deepEqual((await t.api(`${GG()}/permissions`, asBot())).body, []);

    const body = {
      permissions: [
        { id: guild, type: 1, permission: false },
        { id: t.world.users[1].id, type: 2, permission: true },
        { id: (BigInt(guild) - 1n).toString(), type: 3, permission: true },
      ],
    };
    const byBot = await put(P_(cmd.id), body);
    assert.equal(byBot.status, 403);
    assert.equal(byBot.body.code, 20001);
    const noScope = await put(P_(cmd.id), body, await bearer(0, ['identify']));
    assert.equal(noScope.status, 403);
    const notManager = await put(P_(cmd.id), body, await bearer(1, ['applications.commands.permissions.update']));
    assert.equal(notManager.status, 403);
    assert.equal(notManager.body.code, 50013);

    const tok = await bearer(0, ['applications.commands.permissions.update']);
    const before = events.length;
    const ok = await put(P_(cmd.id), body, tok);
    assert.equal(ok.status, 200, ok.text);
    assert.deepEqual(ok.body, { id: cmd.id, application_id: app, guild_id: guild, permissions: body.permissions });
    const ev = events.slice(before).find((e) => e.t === 'APPLICATION_COMMAND_PERMISSIONS_UPDATE');
    assert.ok(ev);
    assert.deepEqual(ev!.d, ok.body);
    assert.deepEqual(ev!.user_ids, [t.world.botUserId]);

    assert.deepEqual((await t.api(P_(cmd.id), asBot())).body, ok.body);
    assert.deepEqual((await t.api(`${GG()}/permissions`, asBot())).body, [ok.body]);
    assert.deepEqual((await t.api(P_(cmd.id), tok)).body, ok.body, 'the bearer token reads them too');
    const fromService = await commandPermissionsFor(t.server.ctx, app, guild, cmd.id);
    assert.deepEqual(fromService, { command: body.permissions, application: null });

    // App-wide overwrites use the application id as the command id.
    const appWide = await put(P_(app), { permissions: [{ id: guild, type: 1, permission: true }] }, tok);
    assert.equal(appWide.status, 200, appWide.text);
    assert.equal((await t.api(`${GG()}/permissions`, asBot())).body.length, 2);

    const tooMany = await put(P_(cmd.id), { permissions: Array.from({ length: 101 }, (_, i) => ({ id: String(1000 + i), type: 2, permission: true })) }, tok);
    assertFormError(tooMany, ['permissions'], 'BASE_TYPE_MAX_LENGTH');
    assertFormError(await put(P_(cmd.id), { permissions: [{ id: guild, type: 4, permission: true }] }, tok), ['permissions', 0, 'type'], 'BASE_TYPE_CHOICES');
    assertFormError(await put(P_(cmd.id), { permissions: [{ id: guild, type: 1 }] }, tok), ['permissions', 0, 'permission'], 'BASE_TYPE_REQUIRED');
    assertFormError(
      await put(P_(cmd.id), { permissions: [{ id: '42', type: 1, permission: true }] }, tok),
      ['permissions', 0, 'id'],
      'APPLICATION_COMMAND_PERMISSIONS_INVALID_ID',
    );
    assertFormError(await put(P_(cmd.id), {}, tok), ['permissions'], 'BASE_TYPE_REQUIRED');
    assert.equal((await put(P_('999'), body, tok)).body.code, 10063);

    const cleared = await put(P_(cmd.id), { permissions: [] }, tok);
    assert.deepEqual(cleared.body.permissions, []);
    assert.equal((await t.api(P_(cmd.id), asBot())).body.code, 10066);
    await put(P_(app), { permissions: [] }, tok);
    await put(GG(), []);
  });
});

describe('command index and use checks', () => {
  test('guild index filters by default_member_permissions and overwrites; user index lists user installs', async () => {
    const ctx = t.server.ctx;
    await clearGlobal();
    const open = (await post(GG(), { name: 'open', description: 'x' })).body;
    const admins = (await post(GG(), { name: 'admins', description: 'x', default_member_permissions: '0' })).body;
    const managers = (await post(GG(), { name: 'managers', description: 'x', default_member_permissions: String(P.MANAGE_GUILD) })).body;
    const denied = (await post(GG(), { name: 'denied', description: 'x' })).body;
    const userApp = (await post(G(), { name: 'everywhere', description: 'x', integration_types: [0, 1], contexts: [0, 1, 2] })).body;
    const dmOnly = (await post(G(), { name: 'dmonly', description: 'x', contexts: [1] })).body;
    const tok = await bearer(0, ['applications.commands.permissions.update']);
    await put(`${GG()}/${denied.id}/permissions`, { permissions: [{ id: t.world.users[1].id, type: 2, permission: false }] }, tok);

    const names = (r: any) => r.body.application_commands.map((c: any) => c.name).sort();
    const forBob = await t.api(`/guilds/${guild}/application-command-index`, { token: bob });
    assert.equal(forBob.status, 200, forBob.text);
    assert.deepEqual(names(forBob), ['everywhere', 'open']);
    assert.deepEqual(forBob.body.applications, [{ id: app, name: 'Dev Bot', icon: null, description: '', bot_id: t.world.botUserId }]);
    assert.match(forBob.body.version, /^\d+$/);
    const forAlice = await t.api(`/guilds/${guild}/application-command-index`, { token: alice });
    assert.deepEqual(names(forAlice), ['admins', 'denied', 'everywhere', 'managers', 'open']);
    assert.equal((await t.api(`/guilds/${guild}/application-command-index`, asBot())).status, 403);
    assert.equal((await t.api(`/guilds/123/application-command-index`, { token: bob })).body.code, 10004);

    // Bob gets a role allowed on the managers command.
    assert.equal(await canUseCommand(ctx, { command: (await getCommand(ctx, app, managers.id))!, guildId: guild, userId: t.world.users[1].id }), false);
    await put(`${GG()}/${managers.id}/permissions`, { permissions: [{ id: guild, type: 1, permission: true }] }, tok);
    assert.equal(await canUseCommand(ctx, { command: (await getCommand(ctx, app, managers.id))!, guildId: guild, userId: t.world.users[1].id }), true);
    // A channel deny on the open command, in one channel only.
    await put(`${GG()}/${open.id}/permissions`, { permissions: [{ id: t.world.textChannelId, type: 3, permission: false }] }, tok);
    const openCmd = (await getCommand(ctx, app, open.id))!;
    assert.equal(await canUseCommand(ctx, { command: openCmd, guildId: guild, userId: t.world.users[1].id, channelId: t.world.textChannelId }), false);
    assert.equal(await canUseCommand(ctx, { command: openCmd, guildId: guild, userId: t.world.users[1].id, channelId: t.world.voiceChannelId }), true);
    assert.equal(
      await canUseCommand(ctx, { command: (await getCommand(ctx, app, admins.id))!, guildId: guild, userId: t.world.users[0].id }),
      true,
      'the owner may use admin commands',
    );

    const noneYet = await t.api('/users/@me/application-command-index', { token: bob });
    assert.deepEqual(noneYet.body, { applications: [], application_commands: [], version: '0' });
    await ctx.repos.store.db
      .insertInto('oauth_grants')
      .values({ application_id: app, user_id: t.world.users[1].id, scopes: 'applications.commands', integration_type: 1, created_at: ctx.clock.now() })
      .execute();
    const userIndex = await t.api('/users/@me/application-command-index', { token: bob });
    assert.deepEqual(
      userIndex.body.application_commands.map((c: any) => c.id),
      [userApp.id],
    );
    assert.equal(userIndex.body.applications[0].id, app);
    assert.equal(userIndex.body.version, userApp.version);
    assert.ok(dmOnly.id);

    await ctx.repos.store.db.deleteFrom('oauth_grants').where('application_id', '=', app).where('user_id', '=', t.world.users[1].id).execute();
    await ctx.repos.store.db.deleteFrom('command_permissions').where('application_id', '=', app).execute();
    await put(GG(), []);
    await clearGlobal();
  });
});

describe('robustness', () => {
  const junk = fc.oneof(
    fc.constant(null),
    fc.integer(),
    fc.double(),
    fc.string(),
    fc.boolean(),
    fc.constant([]),
    fc.constant({}),
    fc.constant('Bad Name'),
    fc.constant(1e300),
  );
  const { option } = fc.letrec((tie) => ({
    option: fc.record(
      {
        type: fc.oneof(fc.integer({ min: 0, max: 12 }), junk),
        name: fc.oneof(fc.constantFrom('a', 'b', 'A', "it's"), junk),
        description: fc.oneof(fc.constant('d'), junk),
        required: fc.oneof(fc.boolean(), junk),
        autocomplete: fc.oneof(fc.boolean(), junk),
        choices: fc.oneof(
          fc.array(
            fc.record(
              {
                name: fc.oneof(fc.string(), junk),
                value: fc.oneof(fc.string(), fc.integer(), fc.double(), junk),
                name_localizations: fc.oneof(fc.dictionary(fc.constantFrom('fr', 'xx', '__proto__'), fc.oneof(fc.string(), junk)), junk),
              },
              { requiredKeys: [] },
            ),
            { maxLength: 3 },
          ),
          junk,
        ),
        options: fc.oneof(fc.array(tie('option'), { maxLength: 3 }), junk),
        min_value: fc.oneof(fc.double(), junk),
        max_value: fc.oneof(fc.double(), junk),
        min_length: fc.oneof(fc.integer(), junk),
        max_length: fc.oneof(fc.integer(), junk),
        channel_types: fc.oneof(fc.array(fc.integer({ min: -1, max: 20 }), { maxLength: 3 }), junk),
        name_localizations: fc.oneof(fc.dictionary(fc.constantFrom('fr', 'de', 'xx'), fc.oneof(fc.string(), junk)), junk),
      },
      { requiredKeys: [] },
    ),
  }));
  const command = fc.record(
    {
      type: fc.oneof(fc.integer({ min: 0, max: 5 }), junk),
      name: fc.oneof(fc.constantFrom('cmd', 'Cmd'), junk),
      description: fc.oneof(fc.constant('d'), junk),
      options: fc.oneof(fc.array(option, { maxLength: 4 }), junk),
      default_member_permissions: fc.oneof(fc.constantFrom('0', '8', '-1', '99999999999999999999'), junk),
      contexts: fc.oneof(fc.array(fc.integer({ min: -1, max: 3 }), { maxLength: 4 }), junk),
      integration_types: fc.oneof(fc.array(fc.integer({ min: -1, max: 2 }), { maxLength: 3 }), junk),
      handler: fc.oneof(fc.integer({ min: 0, max: 3 }), junk),
      nsfw: fc.oneof(fc.boolean(), junk),
      dm_permission: fc.oneof(fc.boolean(), junk),
      name_localizations: fc.oneof(fc.dictionary(fc.constantFrom('fr', 'de', 'xx', 'constructor'), fc.oneof(fc.string(), junk)), junk),
    },
    { requiredKeys: [] },
  );

  test('validation only ever answers 50035', () => {
    fc.assert(
      fc.property(fc.oneof(command, junk), fc.constantFrom('global', 'guild') as fc.Arbitrary<'global' | 'guild'>, (body, scope) => {
        const c = new Checker();
        validateCommand(c, body, [], { scope, defaultIntegrationTypes: [0] });
        try {
          c.throwIfAny();
        } catch (e) {
          if (!(e instanceof ApiError) || e.code !== 50035) throw e;
        }
      }),
      { numRuns: 1000 },
    );
  });

  test('random bodies on the routes never give a 5xx', async () => {
    const samples = fc.sample(fc.oneof(command, junk, fc.array(command, { maxLength: 3 })), 60);
    for (const body of samples) {
      for (const [method, path] of [
        ['POST', G()],
        ['PUT', G()],
        ['POST', GG()],
        ['PUT', `${GG()}/${app}/permissions`],
      ] as const) {
        const r = await t.api(path, { method, body, ...(path.endsWith('permissions') ? { token: alice } : asBot()) });
        assert.ok(r.status < 500, `${method} ${path} ${JSON.stringify(body)} → ${r.status} ${r.text}`);
      }
    }
    await put(G(), []);
    await put(GG(), []);
    await t.server.ctx.repos.store.db.deleteFrom('command_permissions').where('application_id', '=', app).execute();
  });
});
