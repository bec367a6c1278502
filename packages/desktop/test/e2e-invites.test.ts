import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client as XhayperClient } from '@xhayper/discord-rpc';
// @ts-expect-error discord-rpc ships no types
import DiscordRpc from 'discord-rpc';
import { startTestServer, type TestServer } from '../../server/test/helpers/server.ts';
import { DesktopClient } from '../src/client.ts';
import { AutoApprovePrompter } from '../src/consent.ts';
import { until, waitEvent } from './helpers/world.ts';

/**
 * Ask to Join and activity invites between two people, each with their own local client and game on the same machine:
 * alice's game (@xhayper/discord-rpc) hosts a party; bob asks to join from his Accord client; alice's game hears
 * ACTIVITY_JOIN_REQUEST and answers with SEND_ACTIVITY_JOIN_INVITE; bob's game (discord-rpc) hears ACTIVITY_JOIN with
 * the join secret. Then an invite bob did not ask for is offered as ACTIVITY_INVITE and taken with ACCEPT_ACTIVITY_INVITE.
 */
/** The first argument of the next `event`. */
const first = (em: any, event: string) => waitEvent<any[]>(em, event).then((args) => args[0]);

describe('activity invites between two local clients (@xhayper/discord-rpc and discord-rpc)', { timeout: 60_000 }, () => {
  let t: TestServer;
  const dirs: string[] = [];
  const desktops: DesktopClient[] = [];
  let host: XhayperClient;
  let guest: any;
  let appId = '';
  const previous = process.env.XDG_RUNTIME_DIR;

  /** A local client for one person, serving IPC in its own directory (as on two machines). */
  async function localClient(token: string): Promise<{ desktop: DesktopClient; dir: string }> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'accord-ipc-'));
    dirs.push(dir);
    const desktop = await new DesktopClient({
      server: t.server.url,
      token,
      prompter: new AutoApprovePrompter(),
      websocket: false,
      env: { XDG_RUNTIME_DIR: dir },
    }).start();
    desktops.push(desktop);
    return { desktop, dir };
  }

  before(async () => {
    t = await startTestServer();
    appId = t.world.applicationId;
    const [alice, bob] = t.world.users;
    const a = await localClient(alice.token);
    const b = await localClient(bob.token);
    // Each game finds its person's local client through XDG_RUNTIME_DIR when it connects.
    process.env.XDG_RUNTIME_DIR = a.dir;
    host = new XhayperClient({ clientId: appId, transport: { type: 'ipc' } });
    await host.connect();
    process.env.XDG_RUNTIME_DIR = b.dir;
    guest = new DiscordRpc.Client({ transport: 'ipc' });
    await guest.login({ clientId: appId });
  });
  after(async () => {
    await host?.destroy().catch(() => {});
    await guest?.destroy().catch(() => {});
    for (const d of desktops) await d.stop();
    await t?.close();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
    if (previous === undefined) delete process.env.XDG_RUNTIME_DIR;
    else process.env.XDG_RUNTIME_DIR = previous;
  });

  it('Ask to Join: the host hears ACTIVITY_JOIN_REQUEST, answers with an invite, the guest hears ACTIVITY_JOIN', async () => {
    const [alice, bob] = t.world.users;
    const [aliceDesktop, bobDesktop] = desktops;
    await host.subscribe('ACTIVITY_JOIN_REQUEST');
    await guest.subscribe('ACTIVITY_JOIN');
    await host.user!.setActivity({ details: 'Ranked', state: 'In a party', partyId: 'party-77', partySize: 1, partyMax: 4, joinSecret: 'join-party-77' });
    // Bob's client sees alice's party in her presence (the secret never leaves alice's machine and the platform).
    const shown = await until(() => bobDesktop.state.activityOf(alice.id, appId));
    assert.deepEqual(shown.party, { id: 'party-77', size: [1, 4] });
    assert.equal(shown.secrets, undefined);

    // Bob asks to join from his Accord client: a join request (type 5) in their DM, with his user token.
    const request = first(host, 'ACTIVITY_JOIN_REQUEST');
    const ask = await t.api('/users/@me/activity-invites', {
      method: 'POST',
      token: bob.token,
      body: { recipient_id: alice.id, application_id: appId, type: 5, party_id: shown.party.id },
    });
    assert.equal(ask.status, 201, ask.text);
    const req = await request;
    assert.equal(req.user.id, bob.id);
    assert.equal(req.user.username, bob.username);
    assert.ok(aliceDesktop.core.joinRequests.has(`${appId}:${bob.id}`));

    // Alice's game accepts: the invite carries her join secret to bob, whose client joins because he asked.
    const joined = first(guest, 'ACTIVITY_JOIN');
    await host.user!.sendJoinInvite(bob.id);
    assert.deepEqual(await joined, { secret: 'join-party-77' });
    assert.equal(aliceDesktop.core.joinRequests.size, 0, 'the request is settled');
    // The invite was spent by bob's client.
    const again = await t.api(`/users/@me/activity-invites/${ask.body.message_id}/accept`, { method: 'POST', token: bob.token });
    assert.equal(again.status, 404);
  });

  it('an invite bob did not ask for is offered as ACTIVITY_INVITE and taken with ACCEPT_ACTIVITY_INVITE', async () => {
    const [alice, bob] = t.world.users;
    await guest.subscribe('ACTIVITY_INVITE');
    const offered = first(guest, 'ACTIVITY_INVITE');
    const sent = await host.request('ACTIVITY_INVITE_USER', { user_id: bob.id, type: 1, content: 'Come race with us', pid: process.pid });
    assert.equal(sent.data, null);
    const invite = await offered;
    assert.equal(invite.type, 1);
    assert.equal(invite.user.id, alice.id);
    assert.equal(invite.activity.party.id, 'party-77', "the sender's activity as her presence shows it");
    assert.match(invite.message_id, /^\d+$/);
    const joined = first(guest, 'ACTIVITY_JOIN');
    await guest.request('ACCEPT_ACTIVITY_INVITE', { type: 1, user_id: alice.id, channel_id: invite.channel_id, message_id: invite.message_id });
    assert.deepEqual(await joined, { secret: 'join-party-77' });
    // An invite is taken once; an activity without a join secret cannot invite.
    await assert.rejects(guest.request('ACCEPT_ACTIVITY_INVITE', { type: 1, message_id: invite.message_id }), (e: any) => e.code === 5005);
    await host.user!.setActivity({ details: 'Solo', state: 'Practice' });
    await assert.rejects(host.user!.sendJoinInvite(bob.id), (e: any) => /No eligible activity/.test(e.message));
  });
});
