import { useEffect, useState } from 'react';
import type { Channel } from '../../lib/api/types.js';
import { readableError } from '../../lib/api/errors.js';
import { useAction } from '../../lib/use-action.js';
import { Banner, Button, Field, TextField } from '../../lib/ui/index.js';
import { Overwrites } from './Overwrites.js';
import { Saved } from './Saved.js';
import type { SectionProps } from './section-props.js';
import { Tabs } from './Tabs.js';
import { Toggle } from './Toggle.js';

const SLOWMODE: [number, string][] = [
  [0, 'Off'],
  [5, '5 seconds'],
  [10, '10 seconds'],
  [15, '15 seconds'],
  [30, '30 seconds'],
  [60, '1 minute'],
  [120, '2 minutes'],
  [300, '5 minutes'],
  [600, '10 minutes'],
  [900, '15 minutes'],
  [1800, '30 minutes'],
  [3600, '1 hour'],
  [7200, '2 hours'],
  [21600, '6 hours'],
];

/** One channel: name, topic, slowmode and age restriction, and its permission overwrites. */
export function ChannelEditor(props: SectionProps & { channel: Channel; onBack: () => void }) {
  const { channel, onBack } = props;
  const [tab, setTab] = useState<'overview' | 'permissions'>('overview');
  const tabs = [
    ['overview', 'Overview'],
    ['permissions', 'Permissions'],
  ] as const;
  return (
    <div className="ss-role">
      <div className="ss-role__head">
        <Button variant="secondary" size="sm" className="desktop-only" onClick={onBack}>
          ← Channels
        </Button>
        <h2 className="ss-subtitle ellipsis">{channel.type === 4 ? channel.name : `#${channel.name}`}</h2>
      </div>
      <Tabs label="Channel settings" tabs={tabs} value={tab} onChange={setTab}>
        {tab === 'overview' ? <ChannelOverview {...props} /> : <Overwrites {...props} />}
      </Tabs>
    </div>
  );
}

function ChannelOverview({ channel, api }: SectionProps & { channel: Channel }) {
  const text = channel.type === 0 || channel.type === 5 || channel.type === 15;
  const initial = { name: channel.name ?? '', topic: channel.topic ?? '', slowmode: channel.rate_limit_per_user ?? 0, nsfw: !!channel.nsfw };
  const [draft, setDraft] = useState(initial);
  const [saved, setSaved] = useState(0);
  useEffect(() => setDraft(initial), [channel]);
  const dirty = JSON.stringify(draft) !== JSON.stringify(initial);
  const save = useAction(async () => {
    await api.editChannel(channel.id, {
      // Surrounding spaces are never part of a name (the official client trims them too).
      name: draft.name.trim(),
      ...(text ? { topic: draft.topic || null, rate_limit_per_user: draft.slowmode, nsfw: draft.nsfw } : {}),
    });
    setSaved((n) => n + 1);
  });
  const set = (p: Partial<typeof draft>) => setDraft((d) => ({ ...d, ...p }));
  const shownFields = ['name', 'topic', 'rate_limit_per_user'];
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void save.run();
      }}
    >
      <TextField
        label="Channel name"
        value={draft.name}
        maxLength={100}
        required
        error={save.fieldError('name')}
        onChange={(e) => set({ name: e.target.value })}
      />
      {text ? (
        <>
          <Field label="Channel topic" error={save.fieldError('topic')}>
            {(id) => <textarea id={id} className="textarea" rows={3} maxLength={1024} value={draft.topic} onChange={(e) => set({ topic: e.target.value })} />}
          </Field>
          <Field label="Slowmode" hint="How long each member waits between messages." error={save.fieldError('rate_limit_per_user')}>
            {(id) => (
              <select id={id} className="select" value={draft.slowmode} onChange={(e) => set({ slowmode: Number(e.target.value) })}>
                {SLOWMODE.map(([v, label]) => (
                  <option key={v} value={v}>
                    {label}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Toggle
            label="Age-restricted channel"
            help="Members must confirm they are of age to view it."
            checked={draft.nsfw}
            onChange={(nsfw) => set({ nsfw })}
          />
        </>
      ) : null}
      {save.error && !shownFields.some((f) => save.fieldError(f)) ? <Banner>{readableError(save.error)}</Banner> : null}
      <div className="ss-savebar">
        <Saved count={saved} />
        <Button variant="link" disabled={!dirty} onClick={() => setDraft(initial)}>
          Reset
        </Button>
        <Button type="submit" variant="success" busy={save.busy} disabled={!dirty}>
          Save Changes
        </Button>
      </div>
    </form>
  );
}
