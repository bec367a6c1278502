import { useState, type FormEvent } from 'react';
import { P } from '@accord/protocol';
import { useSession, useStore } from '../../lib/session.js';
import { useAction } from '../../lib/use-action.js';
import { readableError } from '../../lib/api/errors.js';
import { channelPermissions, has } from '../../lib/state/permissions.js';
import { Banner, Button, Empty, Field, TextField, toast } from '../../lib/ui/index.js';
import { userSettingsApi } from './api.js';

/** Server Profiles: the person's nickname in each server (CHANGE_NICKNAME, or MANAGE_NICKNAMES). */
export function ServerProfileSection() {
  const guilds = useStore((s) => s.guilds);
  const order = useStore((s) => s.guildOrder);
  const list = order.map((id) => guilds.get(id)).filter((g) => g && !g.unavailable);
  const [guildId, setGuildId] = useState(list[0]?.id ?? '');
  if (!list.length)
    return (
      <Empty icon="users" title="No servers yet">
        Join or create a server to set a nickname there.
      </Empty>
    );
  return (
    <>
      <p className="muted usettings__lead">Show who you are in each of your servers: a nickname replaces your display name there.</p>
      <Field label="Choose a server">
        {(id) => (
          <select id={id} className="select" value={guildId} onChange={(e) => setGuildId(e.target.value)}>
            {list.map((g) => (
              <option key={g!.id} value={g!.id}>
                {g!.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      {guildId ? <NickForm key={guildId} guildId={guildId} /> : null}
    </>
  );
}

function NickForm({ guildId }: { guildId: string }) {
  const { api } = useSession();
  const me = useStore((s) => s.me)!;
  const guild = useStore((s) => s.guilds.get(guildId))!;
  const current = guild.members.get(me.id)?.nick ?? '';
  const [nick, setNick] = useState(current);
  const perms = channelPermissions(guild, me.id, undefined);
  const allowed = has(perms, P.CHANGE_NICKNAME) || has(perms, P.MANAGE_NICKNAMES);
  const save = useAction(async () => {
    await userSettingsApi(api).setNick(guildId, nick.trim() || null);
    toast('Your server profile was saved.');
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void save.run();
  };
  return (
    <form onSubmit={submit}>
      <TextField
        label="Server Nickname"
        value={nick}
        maxLength={32}
        placeholder={me.global_name ?? me.username}
        onChange={(e) => setNick(e.target.value)}
        disabled={!allowed}
        error={save.fieldError('nick')}
        hint={allowed ? 'Leave it empty to use your display name.' : 'You do not have permission to change your nickname in this server.'}
      />
      {save.error && !save.fieldError('nick') ? <Banner>{readableError(save.error)}</Banner> : null}
      <div className="usettings__buttons">
        <Button type="submit" busy={save.busy} disabled={!allowed || nick.trim() === current}>
          Save Nickname
        </Button>
      </div>
    </form>
  );
}
