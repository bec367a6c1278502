import { useEffect, useMemo, useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { AuthShell } from '../auth/AuthShell.js';
import { useSession, useStore } from '../lib/session.js';
import { rememberUsers } from '../lib/state/guild-events.js';
import { Banner, Button, Field, displayName } from '../lib/ui/index.js';
import { AppIcon } from './AppIcon.js';
import { useAppInfo } from './app-info.js';
import { joinActivity, setLaunchExtras } from './launch.js';
import { knownUser } from './users.js';
import './activity.css';

const TEXT_OR_VOICE = new Set([0, 2]);
const isSnowflake = (v: string | null): v is string => !!v && /^\d{1,20}$/.test(v);

/**
 * /activities/{application_id}?custom_id=…&referrer_id=… (SHARE_LINK's links, INVITE_USER_EMBEDDED's): the person picks
 * where to play, and the Activity launches there with the link's `custom_id` and `referrer_id` in its frame's query.
 */
export default function ActivityLinkPage() {
  const { appId = '' } = useParams();
  const [params] = useSearchParams();
  const session = useSession();
  const nav = useNavigate();
  const app = useAppInfo(appId);
  const guilds = useStore((s) => s.guilds);
  const order = useStore((s) => s.guildOrder);
  const users = useStore((s) => s.users);
  const customId = params.get('custom_id') ?? params.get('link_id');
  const referrerId = isSnowflake(params.get('referrer_id')) ? params.get('referrer_id') : null;
  const referrer = referrerId ? knownUser(session.store, referrerId) : null;
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  void users;

  useEffect(() => {
    if (referrerId && !referrer)
      session.api.users
        .get(referrerId)
        .then((u) => rememberUsers(session.store, [u]))
        .catch(() => undefined);
  }, [referrerId]);

  const places = useMemo(
    () =>
      order.flatMap((gid) => {
        const g = guilds.get(gid);
        if (!g || g.unavailable) return [];
        return [...g.channels.values()]
          .filter((c) => TEXT_OR_VOICE.has(c.type))
          .sort((a, b) => (a.position ?? 0) - (b.position ?? 0))
          .map((c) => ({ guildId: gid, channelId: c.id, label: `${g.name} · ${c.type === 2 ? '🔊 ' : '#'}${c.name}` }));
      }),
    [guilds, order],
  );
  const [choice, setChoice] = useState<string>('');
  const selected = places.find((p) => p.channelId === choice) ?? places[0];

  const launch = async () => {
    if (!selected) return;
    setBusy(true);
    setError(null);
    setLaunchExtras(appId, selected.channelId, { customId, referrerId });
    try {
      await joinActivity(session, appId, selected.channelId);
      nav(`/channels/${selected.guildId}/${selected.channelId}`);
    } catch (err: any) {
      setError(err?.readable ?? 'The Activity could not be launched.');
      setBusy(false);
    }
  };

  return (
    <AuthShell title={app.name} subtitle={referrer ? `${displayName(referrer)} invited you to play` : 'Launch this Activity'}>
      <div className="act-link">
        <AppIcon app={app} size={72} />
        {app.description ? <p className="act-link__desc">{app.description}</p> : null}
        {error ? <Banner>{error}</Banner> : null}
        {places.length ? (
          <Field label="Where to play">
            {(id) => (
              <select id={id} className="select input" value={selected?.channelId ?? ''} onChange={(e) => setChoice(e.target.value)}>
                {places.map((p) => (
                  <option key={p.channelId} value={p.channelId}>
                    {p.label}
                  </option>
                ))}
              </select>
            )}
          </Field>
        ) : (
          <Banner>Join a server first: Activities run in its channels.</Banner>
        )}
        <Button block busy={busy} disabled={!selected} onClick={() => void launch()}>
          Launch {app.name}
        </Button>
      </div>
    </AuthShell>
  );
}
