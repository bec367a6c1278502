import { useEffect, useId, useState } from 'react';
import { ApiError, readableError } from '../../lib/api/errors.js';
import { Banner, Button, Icon, TextField } from '../../lib/ui/index.js';
import { useAppForm, useOpenApp, type AppForm } from '../context.js';
import { AppFlag, type AppCommand, type Application, type OrientationLock, type UrlMapping } from '../types.js';
import { Checkbox } from '../ui/Checkbox.js';
import { SaveBar } from '../ui/SaveBar.js';
import { PageHead, Section } from '../ui/Section.js';
import { Switch } from '../ui/Switch.js';

const PLATFORMS = [
  { id: 'web', label: 'Web', hint: 'Browsers and the desktop client' },
  { id: 'ios', label: 'iOS', hint: 'Phones and tablets' },
  { id: 'android', label: 'Android', hint: 'Phones and tablets' },
] as const;
const ORIENTATIONS: { value: OrientationLock; label: string }[] = [
  { value: 1, label: 'Unlocked' },
  { value: 2, label: 'Portrait' },
  { value: 3, label: 'Landscape' },
];

interface Draft {
  flags: number;
  enabled: boolean;
  root: string;
  mappings: UrlMapping[];
  platforms: string[];
  orientation: OrientationLock;
  tablet: OrientationLock;
  ageGate: boolean;
}

function pick(a: Application): Draft {
  const map = a.proxy_config?.url_map ?? [];
  const c = a.embedded_activity_config;
  return {
    flags: a.flags,
    enabled: (a.flags & AppFlag.EMBEDDED) !== 0,
    root: map.find((m) => m.prefix === '/')?.target ?? '',
    mappings: map.filter((m) => m.prefix !== '/'),
    platforms: c?.supported_platforms ?? ['web'],
    orientation: c?.default_orientation_lock_state ?? 1,
    tablet: c?.tablet_default_orientation_lock_state ?? 1,
    ageGate: c?.requires_age_gate ?? false,
  };
}

/** One PATCH of the application: the EMBEDDED flag, the embedded activity config and the URL mappings, all or nothing. */
function toPatch(d: Draft) {
  const url_map = [
    ...(d.root.trim() ? [{ prefix: '/', target: d.root.trim() }] : []),
    ...d.mappings.filter((m) => m.prefix.trim() || m.target.trim()).map((m) => ({ prefix: m.prefix.trim(), target: m.target.trim() })),
  ];
  return {
    flags: d.enabled ? d.flags | AppFlag.EMBEDDED : d.flags & ~AppFlag.EMBEDDED,
    embedded_activity_config: {
      supported_platforms: d.platforms,
      default_orientation_lock_state: d.orientation,
      tablet_default_orientation_lock_state: d.tablet,
      requires_age_gate: d.ageGate,
    },
    proxy_config: { url_map },
  };
}

/** Activities: turn the app into an Activity, point the proxy at its servers, and say where and how it runs. */
export function ActivitiesPage() {
  const form = useAppForm<Draft>(pick, toPatch);
  const { draft } = form;
  return (
    <>
      <PageHead title="Activities">
        Activities are web apps that run inside Accord, in a panel of a channel. Your app is served through Accord's proxy at <code>{'<application id>'}.</code>
        <em>proxy host</em>, which forwards to the servers you map below.
      </PageHead>
      <Section title="Launching">
        <Switch
          label="Enable Activities"
          checked={draft.enabled}
          onChange={(v) => form.set({ enabled: v })}
          description="People can launch your app from the app launcher and from its Launch command. Enabling it gives your app a Launch entry point command."
        />
        <EntryPoint />
      </Section>
      <UrlMappings form={form} />
      <Section title="Settings" description="Where your Activity can be launched, and how it is shown there.">
        <div className="field__label">Supported platforms</div>
        <div className="platform-grid" role="group" aria-label="Supported platforms">
          {PLATFORMS.map((p) => (
            <Checkbox
              key={p.id}
              label={p.label}
              description={p.hint}
              checked={draft.platforms.includes(p.id)}
              onChange={(on) => form.set({ platforms: on ? [...draft.platforms, p.id] : draft.platforms.filter((x) => x !== p.id) })}
            />
          ))}
        </div>
        {form.save.fieldError('supported_platforms') ? <Banner>{form.save.fieldError('supported_platforms')}</Banner> : null}
        <div className="p-cols">
          <OrientationSelect label="Phone orientation lock" value={draft.orientation} onChange={(v) => form.set({ orientation: v })} />
          <OrientationSelect label="Tablet orientation lock" value={draft.tablet} onChange={(v) => form.set({ tablet: v })} />
        </div>
        <Switch
          label="Age gate"
          checked={draft.ageGate}
          onChange={(v) => form.set({ ageGate: v })}
          description="Only people who confirmed they are 18 or older can launch your Activity."
        />
      </Section>
      <SaveBar form={form} />
    </>
  );
}

function OrientationSelect({ label, value, onChange }: { label: string; value: OrientationLock; onChange: (v: OrientationLock) => void }) {
  const id = useId();
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <select id={id} className="input" value={value} onChange={(e) => onChange(Number(e.target.value) as OrientationLock)}>
        {ORIENTATIONS.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The root mapping (`/`) and prefix mappings; a refused entry shows the server's reason on its row. */
function UrlMappings({ form }: { form: AppForm<Draft> }) {
  const { draft } = form;
  const err = form.save.error instanceof ApiError ? form.save.error : null;
  // The server names the offending entry by its index in the list it received: the root comes first when set.
  const offset = draft.root.trim() ? 1 : 0;
  const rowError = (i: number, f: 'prefix' | 'target') => err?.fields.find((x) => x.path === `proxy_config.url_map.${i}.${f}`)?.message;
  const setRow = (i: number, p: Partial<UrlMapping>) => form.set({ mappings: draft.mappings.map((m, j) => (j === i ? { ...m, ...p } : m)) });
  return (
    <Section
      title="URL Mappings"
      description={
        <>
          Requests to a prefix on your Activity's proxy host go to its target: a host with an optional port and path, without <code>https://</code> (a local
          server in development may use <code>http://</code>). The SDK's <code>patchUrlMappings</code> uses the same list.
        </>
      }
    >
      <TextField
        label="Root mapping (/)"
        placeholder="my-activity.example.com"
        value={draft.root}
        className="input input--mono"
        onChange={(e) => form.set({ root: e.target.value })}
        error={offset ? rowError(0, 'target') : undefined}
        hint="Where your Activity's page is served from."
      />
      <div className="field__label">Proxy path mappings</div>
      {draft.mappings.length === 0 ? (
        <div className="p-muted-box">
          No prefix mappings. Add one to reach an API or another host from your Activity, e.g. <code>/api</code> → <code>api.example.com</code>.
        </div>
      ) : null}
      {draft.mappings.map((m, i) => {
        const pe = rowError(i + offset, 'prefix');
        const te = rowError(i + offset, 'target');
        return (
          <div key={i} className="mapping-row" role="group" aria-label={`Mapping ${i + 1}`}>
            <TextField
              label="Prefix"
              placeholder="/api"
              value={m.prefix}
              className="input input--mono"
              error={pe}
              onChange={(e) => setRow(i, { prefix: e.target.value })}
            />
            <Icon name="chevron" size={16} className="mapping-row__arrow" />
            <TextField
              label="Target"
              placeholder="api.example.com"
              value={m.target}
              className="input input--mono"
              error={te}
              onChange={(e) => setRow(i, { target: e.target.value })}
            />
            <button
              type="button"
              className="icon-btn mapping-row__remove"
              aria-label={`Remove mapping ${i + 1}`}
              onClick={() => form.set({ mappings: draft.mappings.filter((_, j) => j !== i) })}
            >
              <Icon name="trash" size={18} />
            </button>
          </div>
        );
      })}
      <div>
        <Button
          variant="secondary"
          size="sm"
          onClick={() => form.set({ mappings: [...draft.mappings, { prefix: '', target: '' }] })}
          disabled={draft.mappings.length >= 49}
        >
          Add Another URL Mapping
        </Button>
      </div>
    </Section>
  );
}

/** The app's PRIMARY_ENTRY_POINT command, which enabling Activities creates. */
function EntryPoint() {
  const { app, api } = useOpenApp();
  const enabled = (app.flags & AppFlag.EMBEDDED) !== 0;
  const [command, setCommand] = useState<AppCommand | null | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    if (!enabled) return setCommand(undefined);
    setError(null);
    api
      .commands(app.id)
      .then((list) => setCommand(list.find((c) => c.type === 4) ?? null))
      .catch(setError);
  }, [app.id, enabled]);
  if (!enabled) return <div className="p-muted-box">Once Activities are enabled and saved, your app gets its Launch command here.</div>;
  if (error) return <Banner>{readableError(error)}</Banner>;
  if (command === undefined) return null;
  if (!command) return <div className="p-muted-box">This app has no entry point command.</div>;
  return (
    <div className="entry-point" aria-label="Entry point command">
      <div className="entry-point__icon">
        <Icon name="compass" size={20} />
      </div>
      <div className="grow">
        <div className="entry-point__name">
          {command.name} <span className="pill">Entry Point</span>
        </div>
        <div className="entry-point__desc">
          {command.handler === 1
            ? 'Your app answers it, with a LAUNCH_ACTIVITY callback.'
            : 'Accord launches your Activity when someone uses it (handler: Accord launches).'}{' '}
          <span className="muted">ID {command.id}</span>
        </div>
      </div>
    </div>
  );
}
