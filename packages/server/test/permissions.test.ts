import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ALL_PERMISSIONS, CUTOVERS, P, basePermissions, channelPermissions, has, type PermissionSubject } from '@accord/protocol';

const G = '100';
const now = Date.UTC(2026, 10, 20);
const subject = (over: Partial<PermissionSubject> = {}): PermissionSubject => ({
  userId: '7',
  guildId: G,
  ownerId: '1',
  rolePermissions: new Map([
    [G, P.VIEW_CHANNEL | P.SEND_MESSAGES | P.READ_MESSAGE_HISTORY],
    ['r1', P.MANAGE_MESSAGES],
    ['r2', P.EMBED_LINKS],
    ['admin', P.ADMINISTRATOR],
  ]),
  memberRoleIds: [],
  ...over,
});
const ow = (id: string, type: 0 | 1, allow: bigint, deny: bigint) => ({ id, type, allow: allow.toString(), deny: deny.toString() });

test('every defined bit ORs to the documented total', () => {
  assert.equal(ALL_PERMISSIONS, 8866461766385663n);
});

test('the owner and ADMINISTRATOR get everything, overwrites notwithstanding', () => {
  const deny = [ow(G, 0, 0n, P.VIEW_CHANNEL)];
  assert.equal(channelPermissions(subject({ userId: '1' }), deny, { now }), ALL_PERMISSIONS);
  assert.equal(channelPermissions(subject({ memberRoleIds: ['admin'] }), deny, { now }), ALL_PERMISSIONS);
});

test('base = @everyone | roles', () => {
  assert.equal(
    basePermissions(subject({ memberRoleIds: ['r1', 'r2'] })),
    P.VIEW_CHANNEL | P.SEND_MESSAGES | P.READ_MESSAGE_HISTORY | P.MANAGE_MESSAGES | P.EMBED_LINKS,
  );
});

test('overwrite order: @everyone, then roles (deny before allow), then the member', () => {
  const s = subject({ memberRoleIds: ['r1', 'r2'] });
  // @everyone denies send; a role allows it back; the member overwrite denies embeds.
  const perms = channelPermissions(
    s,
    [ow(G, 0, 0n, P.SEND_MESSAGES), ow('r2', 0, P.SEND_MESSAGES, 0n), ow('r1', 0, 0n, P.SEND_MESSAGES | P.ADD_REACTIONS), ow('7', 1, 0n, P.EMBED_LINKS)],
    { now },
  );
  assert.ok(perms & P.SEND_MESSAGES, 'a role allow beats a role deny');
  assert.equal(perms & P.EMBED_LINKS, 0n);
  // A member allow wins over role denies.
  const allowed = channelPermissions(s, [ow('r1', 0, 0n, P.ATTACH_FILES), ow('7', 1, P.ATTACH_FILES, 0n)], { now });
  assert.ok(allowed & P.ATTACH_FILES);
});

test('implicit denials: no VIEW_CHANNEL means nothing; no SEND_MESSAGES drops what depends on it', () => {
  assert.equal(channelPermissions(subject(), [ow(G, 0, 0n, P.VIEW_CHANNEL)], { now }), 0n);
  const noSend = channelPermissions(subject({ memberRoleIds: ['r2'] }), [ow(G, 0, P.MENTION_EVERYONE | P.ATTACH_FILES, P.SEND_MESSAGES)], { now });
  assert.equal(noSend & (P.EMBED_LINKS | P.ATTACH_FILES | P.MENTION_EVERYONE), 0n);
  const voice = channelPermissions(subject({ rolePermissions: new Map([[G, P.VIEW_CHANNEL | P.SPEAK]]) }), [], { voice: true, now });
  assert.equal(voice & P.SPEAK, 0n, 'no CONNECT in voice drops SPEAK');
});

test('a timed-out member keeps only VIEW_CHANNEL and READ_MESSAGE_HISTORY', () => {
  const perms = channelPermissions(subject({ timeoutUntil: now + 60_000, memberRoleIds: ['r1'] }), [], { now });
  assert.equal(perms, P.VIEW_CHANNEL | P.READ_MESSAGE_HISTORY);
  const over = channelPermissions(subject({ timeoutUntil: now - 1, memberRoleIds: ['r1'] }), [], { now });
  assert.ok(over & P.SEND_MESSAGES);
});

test('split permissions are judged against the clock: old grants lapse at the cutover', () => {
  const before = CUTOVERS.pinSplit - 1;
  assert.equal(has(P.MANAGE_MESSAGES, P.PIN_MESSAGES, before), true);
  assert.equal(has(P.MANAGE_MESSAGES, P.PIN_MESSAGES, CUTOVERS.pinSplit), false);
  assert.equal(has(P.PIN_MESSAGES, P.PIN_MESSAGES, CUTOVERS.pinSplit), true);
  const split = CUTOVERS.permissionSplit;
  assert.equal(has(P.MANAGE_GUILD_EXPRESSIONS, P.CREATE_GUILD_EXPRESSIONS, split - 1), true);
  assert.equal(has(P.MANAGE_GUILD_EXPRESSIONS, P.CREATE_GUILD_EXPRESSIONS, split), false);
  assert.equal(has(P.MANAGE_EVENTS, P.CREATE_EVENTS, split - 1), true);
  assert.equal(has(P.MANAGE_EVENTS, P.CREATE_EVENTS, split), false);
  assert.equal(has(P.MANAGE_CHANNELS, P.BYPASS_SLOWMODE, split - 1), true);
  assert.equal(has(P.MANAGE_CHANNELS, P.BYPASS_SLOWMODE, split), false);
});
