import type { APIUser } from '../../lib/api/types.js';
import { useSession, useStore } from '../../lib/session.js';
import type { GuildState } from '../../lib/state/guild-state.js';
import { displayName, toast, type MenuEntry } from '../../lib/ui/index.js';
import { moderationApi } from './moderation-api.js';
import { memberRights, timeoutEnd } from './moderation.js';
import { BanDialog, KickDialog, RemoveTimeoutDialog, TimeoutDialog, type ModerationCalls } from './ModerationDialogs.js';
import { NicknameDialog } from './NicknameDialog.js';
import { RolesDialog } from './RolesDialog.js';

export type ModAction = 'nick' | 'roles' | 'timeout' | 'untimeout' | 'kick' | 'ban';
export interface ModRequest {
  user: APIUser;
  action: ModAction;
}

/**
 * The member actions the acting person may take on `user` (moderation.ts decides), as menu entries: the member
 * list's context menu and the profile popout show the same ones. Nothing is listed for a plain member.
 */
export function memberActionItems(g: GuildState, meId: string, user: APIUser, open: (r: ModRequest) => void): MenuEntry[] {
  const rights = memberRights(g, meId, user.id);
  const name = displayName(user);
  const timedOut = timeoutEnd(g.members.get(user.id)?.communication_disabled_until) !== null;
  const items: MenuEntry[] = [];
  const add = (label: string, action: ModAction, danger = false) => items.push({ label, danger, onSelect: () => open({ user, action }) });
  if (rights.nick) add('Change Nickname', 'nick');
  if (rights.roles.length) add('Roles', 'roles');
  if (rights.timeout) add(timedOut ? 'Remove Timeout' : `Timeout ${name}`, timedOut ? 'untimeout' : 'timeout', !timedOut);
  if (rights.kick) add(`Kick ${name}`, 'kick', true);
  if (rights.ban) add(`Ban ${name}`, 'ban', true);
  return items;
}

/** The dialog of one member action, wired to the API; errors show in the dialog, success closes it. */
export function ModerationDialog({ guildId, request, onClose }: { guildId: string; request: ModRequest; onClose: () => void }) {
  const { api } = useSession();
  const me = useStore((s) => s.me)!;
  const guild = useStore((s) => s.guilds.get(guildId));
  if (!guild) return null;
  const { user, action } = request;
  const mod = moderationApi(api, guildId);
  const calls: ModerationCalls = {
    kick: (reason) => mod.kick(user.id, reason),
    ban: (seconds, reason) => mod.ban(user.id, seconds, reason),
    timeout: (until, reason) => mod.timeout(user.id, until, reason),
  };
  const done = (words: string) => (ok: boolean) => {
    if (ok) toast(words);
    onClose();
  };
  const name = displayName(user);
  const member = guild.members.get(user.id);
  switch (action) {
    case 'kick':
      return <KickDialog user={user} guildName={guild.name} calls={calls} onDone={done(`${name} was kicked.`)} />;
    case 'ban':
      return <BanDialog user={user} guildName={guild.name} calls={calls} onDone={done(`${name} was banned.`)} />;
    case 'timeout':
      return <TimeoutDialog user={user} calls={calls} onDone={done(`${name} was timed out.`)} />;
    case 'untimeout':
      return (
        <RemoveTimeoutDialog
          user={user}
          until={timeoutEnd(member?.communication_disabled_until) ?? Date.now()}
          calls={calls}
          onDone={done(`${name}'s timeout was removed.`)}
        />
      );
    case 'roles':
      return (
        <RolesDialog
          guildId={guildId}
          user={user}
          roles={memberRights(guild, me.id, user.id).roles}
          setRole={(roleId, add) => mod.setRole(user.id, roleId, add)}
          onClose={onClose}
        />
      );
    case 'nick':
      return (
        <NicknameDialog
          user={user}
          current={member?.nick ?? null}
          self={user.id === me.id}
          save={(nick) => mod.nick(user.id, user.id === me.id, nick)}
          onClose={onClose}
        />
      );
  }
}
