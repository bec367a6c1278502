/**
 * Property test: the permission engine (@accord/protocol permissions.ts) against a small reference model written
 * from the documented algorithm (docs `topics/permissions.mdx`, "Permission Overwrites" pseudocode and "Implicit
 * Permissions"; reference wire-values.md §1), over random guilds, roles, members, overwrites and timeouts.
 *
 * The model shares nothing with the engine: its bit numbers are written here from the docs' table, and it follows the
 * pseudocode step by step (keyed lookups, not the engine's loops). Text channels are compared exactly. For voice
 * channels the docs only say that denying CONNECT "implicitly denies other permissions"; the exact set is not
 * documented, so there the property checks the documented part: with CONNECT the answer is the text answer, without it
 * the answer never grants more than the text answer and never SPEAK.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ALL_PERMISSIONS, channelPermissions, guildPermissions, type Overwrite, type PermissionSubject } from '@accord/protocol';

// ---- the model -------------------------------------------------------------------------------------------------

const bit = (n: number) => 1n << BigInt(n);
const ADMINISTRATOR = bit(3);
const VIEW_CHANNEL = bit(10);
const SEND_MESSAGES = bit(11);
const SEND_TTS_MESSAGES = bit(12);
const EMBED_LINKS = bit(14);
const ATTACH_FILES = bit(15);
const READ_MESSAGE_HISTORY = bit(16);
const MENTION_EVERYONE = bit(17);
const CONNECT = bit(20);
const SPEAK = bit(21);
/** Every defined permission: bits 0–52, bit 47 unassigned. */
const ALL = Array.from({ length: 53 }, (_, n) => n)
  .filter((n) => n !== 47)
  .reduce((a, n) => a | bit(n), 0n);

interface Guild {
  id: string;
  ownerId: string;
  roles: Map<string, bigint>;
}
interface Member {
  userId: string;
  roles: string[];
  timedOutUntil: number | null;
}
interface Ow {
  id: string;
  type: 0 | 1;
  allow: bigint;
  deny: bigint;
}

/** compute_base_permissions(member, guild) */
function modelBase(member: Member, guild: Guild): bigint {
  if (guild.ownerId === member.userId) return ALL;
  let permissions = guild.roles.get(guild.id)!;
  for (const role of member.roles) permissions |= guild.roles.get(role)!;
  if ((permissions & ADMINISTRATOR) === ADMINISTRATOR) return ALL;
  return permissions;
}

/** compute_overwrites(base_permissions, member, channel), then the implicit rules and the timeout rule. */
function modelChannel(member: Member, guild: Guild, overwrites: Ow[], now: number): bigint {
  const base = modelBase(member, guild);
  if ((base & ADMINISTRATOR) === ADMINISTRATOR) return ALL;
  const byId = new Map(overwrites.map((o) => [o.id, o]));
  let permissions = base;
  const everyone = byId.get(guild.id);
  if (everyone) {
    permissions &= ~everyone.deny;
    permissions |= everyone.allow;
  }
  let allow = 0n;
  let deny = 0n;
  for (const roleId of member.roles) {
    const o = byId.get(roleId);
    if (o) {
      allow |= o.allow;
      deny |= o.deny;
    }
  }
  permissions &= ~deny;
  permissions |= allow;
  const own = byId.get(member.userId);
  if (own) {
    permissions &= ~own.deny;
    permissions |= own.allow;
  }
  // Implicit: nothing without VIEW_CHANNEL; no mention/TTS/files/embeds without SEND_MESSAGES.
  if (!(permissions & VIEW_CHANNEL)) return 0n;
  if (!(permissions & SEND_MESSAGES)) permissions &= ~(MENTION_EVERYONE | SEND_TTS_MESSAGES | ATTACH_FILES | EMBED_LINKS);
  // Timed out: only VIEW_CHANNEL and READ_MESSAGE_HISTORY (owner and administrators returned above).
  if (member.timedOutUntil !== null && member.timedOutUntil > now) permissions &= VIEW_CHANNEL | READ_MESSAGE_HISTORY;
  return permissions;
}

// ---- generators ------------------------------------------------------------------------------------------------

const GUILD = '100';
const USERS = ['1', '2', '3', '4'];
const ROLES = ['201', '202', '203', '204', '205'];
const NOW = Date.UTC(2026, 5, 1);

/** A permission set: sometimes none or all, usually a few bits, ADMINISTRATOR now and then. */
const perms = fc.oneof(
  { arbitrary: fc.constant(0n), weight: 1 },
  { arbitrary: fc.constant(ALL), weight: 1 },
  {
    arbitrary: fc
      .uniqueArray(
        fc.integer({ min: 0, max: 52 }).filter((n) => n !== 47),
        { maxLength: 12 },
      )
      .map((bits) => bits.reduce((a, n) => a | bit(n), 0n)),
    weight: 6,
  },
  { arbitrary: fc.bigInt({ min: 0n, max: bit(53) - 1n }).map((v) => v & ALL), weight: 2 },
);

const world = fc.record({
  owner: fc.constantFrom(...USERS),
  everyone: perms,
  roles: fc.array(perms, { minLength: ROLES.length, maxLength: ROLES.length }),
  member: fc.record({
    userId: fc.constantFrom(...USERS),
    roles: fc.subarray(ROLES),
    timedOutUntil: fc.option(fc.constantFrom(NOW - 1, NOW, NOW + 1, NOW + 3_600_000), { nil: null }),
  }),
  // At most one overwrite per target (ids are unique snowflakes; a role's overwrite has type 0, a member's type 1).
  overwrites: fc.uniqueArray(fc.record({ target: fc.constantFrom(GUILD, ...ROLES, ...USERS), allow: perms, deny: perms }), {
    selector: (o) => o.target,
    maxLength: 8,
  }),
});

type World = typeof world extends fc.Arbitrary<infer W> ? W : never;

function modelInputs(w: World): { guild: Guild; member: Member; overwrites: Ow[] } {
  const roles = new Map<string, bigint>([[GUILD, w.everyone], ...ROLES.map((id, i) => [id, w.roles[i]] as [string, bigint])]);
  const overwrites = w.overwrites.map((o) => ({ id: o.target, type: (USERS.includes(o.target) ? 1 : 0) as 0 | 1, allow: o.allow, deny: o.deny }));
  return { guild: { id: GUILD, ownerId: w.owner, roles }, member: { ...w.member }, overwrites };
}

function engineInputs(w: World): { subject: PermissionSubject; overwrites: Overwrite[] } {
  const m = modelInputs(w);
  return {
    subject: {
      userId: w.member.userId,
      guildId: GUILD,
      ownerId: w.owner,
      rolePermissions: m.guild.roles,
      memberRoleIds: w.member.roles,
      timeoutUntil: w.member.timedOutUntil,
    },
    overwrites: m.overwrites.map((o) => ({ id: o.id, type: o.type, allow: o.allow.toString(), deny: o.deny.toString() })),
  };
}

const RUNS = Number(process.env.PERMISSION_RUNS ?? 5000);
const show = (v: bigint) => `${v} (bits ${[...Array(53).keys()].filter((n) => v & bit(n)).join(',')})`;

test('the model and the engine agree on what "all permissions" is', () => {
  assert.equal(ALL_PERMISSIONS, ALL);
});

test('property: channel permissions in text channels equal the documented algorithm', () => {
  fc.assert(
    fc.property(world, (w) => {
      const m = modelInputs(w);
      const e = engineInputs(w);
      const expected = modelChannel(m.member, m.guild, m.overwrites, NOW);
      const got = channelPermissions(e.subject, e.overwrites, { now: NOW });
      assert.equal(got, expected, `engine ${show(got)}\nmodel  ${show(expected)}`);
    }),
    { numRuns: RUNS },
  );
});

test('property: guild-level permissions equal the base permissions (timeout applied)', () => {
  fc.assert(
    fc.property(world, (w) => {
      const m = modelInputs(w);
      const e = engineInputs(w);
      let expected = modelBase(m.member, m.guild);
      if (expected !== ALL && m.member.timedOutUntil !== null && m.member.timedOutUntil > NOW) expected &= VIEW_CHANNEL | READ_MESSAGE_HISTORY;
      assert.equal(guildPermissions(e.subject, NOW), expected);
    }),
    { numRuns: RUNS },
  );
});

test('property: voice channels: with CONNECT as in text channels; without it never more, and never SPEAK', () => {
  fc.assert(
    fc.property(world, (w) => {
      const m = modelInputs(w);
      const e = engineInputs(w);
      const text = modelChannel(m.member, m.guild, m.overwrites, NOW);
      const voice = channelPermissions(e.subject, e.overwrites, { voice: true, now: NOW });
      if (text & CONNECT) assert.equal(voice, text);
      else {
        assert.equal(voice & ~text, 0n, 'never grants more than the text answer');
        assert.equal(voice & SPEAK, 0n, 'no speaking without CONNECT');
      }
    }),
    { numRuns: RUNS },
  );
});

test('the model is not vacuous: the generated worlds cover owners, administrators, timeouts, denials and grants', () => {
  const seen = { owner: 0, admin: 0, none: 0, some: 0, timedOut: 0, memberOverwrite: 0 };
  fc.assert(
    fc.property(world, (w) => {
      const m = modelInputs(w);
      const r = modelChannel(m.member, m.guild, m.overwrites, NOW);
      if (w.owner === w.member.userId) seen.owner++;
      else if (modelBase(m.member, m.guild) === ALL) seen.admin++;
      if (r === 0n) seen.none++;
      else if (r !== ALL) seen.some++;
      if (w.member.timedOutUntil !== null && w.member.timedOutUntil > NOW) seen.timedOut++;
      if (m.overwrites.some((o) => o.id === w.member.userId)) seen.memberOverwrite++;
    }),
    { numRuns: 2000, seed: 42 },
  );
  for (const [k, n] of Object.entries(seen)) assert.ok(n > 20, `${k}: ${n}`);
});
