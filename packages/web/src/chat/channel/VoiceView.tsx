import type { Channel } from '../../lib/api/types.js';
import { useStore } from '../../lib/session.js';
import { Avatar, Button, displayName, Icon } from '../../lib/ui/index.js';
import { useVoice } from '../../voice/useVoice.js';
import { VerifyCode } from '../../voice/VerifyCode.js';

/** A voice channel: who is connected, who speaks, muted and deafened marks, and joining from the browser. */
export function VoiceView({ channel }: { channel: Channel }) {
  const guild = useStore((s) => (channel.guild_id ? s.guilds.get(channel.guild_id) : undefined));
  const users = useStore((s) => s.users);
  const me = useStore((s) => s.me);
  const { voice, state } = useVoice();
  const states = [...(guild?.voiceStates.values() ?? [])].filter((v) => v.channel_id === channel.id);
  const here = state.channelId === channel.id && state.status !== 'idle' && state.status !== 'failed';
  return (
    <div className="voicegrid">
      {states.map((v) => {
        const u = guild?.members.get(v.user_id)?.user ?? users.get(v.user_id);
        const speaking = here && state.speaking.has(v.user_id);
        return (
          <div
            key={v.user_id}
            className={speaking ? 'voicegrid__tile voicegrid__tile--speaking' : 'voicegrid__tile'}
            data-user={v.user_id}
            data-speaking={speaking || undefined}
          >
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
            {here && v.user_id !== me?.id ? (
              <>
                <input
                  className="voicegrid__volume"
                  type="range"
                  min={0}
                  max={100}
                  defaultValue={100}
                  aria-label={`Volume of ${displayName(u)}`}
                  onChange={(e) => voice.setVolume(v.user_id, Number(e.target.value) / 100)}
                />
                {state.e2ee.on ? <VerifyCode userId={v.user_id} epoch={state.e2ee.epoch} /> : null}
              </>
            ) : null}
          </div>
        );
      })}
      {!here ? (
        <div className="voicegrid__join">
          {!states.length ? <div>No one is here yet.</div> : null}
          <Button onClick={() => void voice.join(channel.guild_id ?? null, channel.id)} busy={state.status === 'connecting' && state.channelId === channel.id}>
            Join Voice
          </Button>
        </div>
      ) : null}
    </div>
  );
}
