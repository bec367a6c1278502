import type { Channel } from '../../lib/api/types.js';
import { useStore } from '../../lib/session.js';
import { Avatar, displayName, Empty, Icon } from '../../lib/ui/index.js';

/** A voice channel: who is connected, with muted and deafened marks. Joining voice from the browser is not offered. */
export function VoiceView({ channel }: { channel: Channel }) {
  const guild = useStore((s) => (channel.guild_id ? s.guilds.get(channel.guild_id) : undefined));
  const users = useStore((s) => s.users);
  const states = [...(guild?.voiceStates.values() ?? [])].filter((v) => v.channel_id === channel.id);
  if (!states.length)
    return (
      <Empty icon="speaker" title="No one is here yet">
        When people join this voice channel from a voice client, they show up here.
      </Empty>
    );
  return (
    <div className="voicegrid">
      {states.map((v) => {
        const u = guild?.members.get(v.user_id)?.user ?? users.get(v.user_id);
        return (
          <div key={v.user_id} className="voicegrid__tile">
            <Avatar user={u} size={80} />
            <div className="voicegrid__name">{guild?.members.get(v.user_id)?.nick ?? displayName(u)}</div>
            <div className="row muted">
              {v.mute || v.self_mute ? (
                <span aria-label="Muted" title="Muted">
                  <Icon name="micOff" size={18} />
                </span>
              ) : null}
              {v.deaf || v.self_deaf ? (
                <span aria-label="Deafened" title="Deafened">
                  <Icon name="headphonesOff" size={18} />
                </span>
              ) : null}
            </div>
          </div>
        );
      })}
    </div>
  );
}
