import type { GuildState } from '../../lib/state/store.js';
import { useStore } from '../../lib/session.js';
import { Avatar, displayName, Icon } from '../../lib/ui/index.js';
import { useVoice } from '../../voice/useVoice.js';

/** Who is connected to a voice channel, with muted and deafened marks (self or server). */
export function VoiceMembers({ guild, channelId }: { guild: GuildState; channelId: string }) {
  const users = useStore((s) => s.users);
  const { state: voice } = useVoice();
  const states = [...guild.voiceStates.values()].filter((v) => v.channel_id === channelId);
  if (!states.length) return null;
  return (
    <ul className="voice" aria-label="Connected">
      {states.map((v) => {
        const member = guild.members.get(v.user_id);
        const user = member?.user ?? users.get(v.user_id);
        const muted = v.mute || v.self_mute;
        const deaf = v.deaf || v.self_deaf;
        return (
          <li
            key={v.user_id}
            className={voice.channelId === channelId && voice.speaking.has(v.user_id) ? 'voice__user voice__user--speaking' : 'voice__user'}
            data-user={v.user_id}
          >
            <Avatar user={user} size={24} />
            <span className="ellipsis grow">{member?.nick ?? displayName(user)}</span>
            {muted ? (
              <span
                title={v.mute ? 'Server muted' : 'Muted'}
                className={v.mute ? 'voice__mark voice__mark--server' : 'voice__mark'}
                aria-label={v.mute ? 'Server muted' : 'Muted'}
              >
                <Icon name="micOff" size={16} />
              </span>
            ) : null}
            {deaf ? (
              <span
                title={v.deaf ? 'Server deafened' : 'Deafened'}
                className={v.deaf ? 'voice__mark voice__mark--server' : 'voice__mark'}
                aria-label={v.deaf ? 'Server deafened' : 'Deafened'}
              >
                <Icon name="headphonesOff" size={16} />
              </span>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
