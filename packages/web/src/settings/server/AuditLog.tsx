import { useState } from 'react';
import type { APIUser } from '../../lib/api/types.js';
import { readableError } from '../../lib/api/errors.js';
import { snowflakeTime } from '../../lib/state/snowflake.js';
import { useAction } from '../../lib/use-action.js';
import { Avatar, Banner, Button, displayName, Empty, ErrorState, Field, Loading } from '../../lib/ui/index.js';
import type { GuildState } from '../../lib/state/guild-state.js';
import type { AuditEntry, AuditLog } from './api.js';
import { AUDIT_ACTIONS, auditAction } from './audit-actions.js';
import type { SectionProps } from './section-props.js';
import { useLoad } from './use-load.js';

const PAGE = 50;

/** The audit log, newest first: who did what to what, with the changed fields; filter by person and action; load more. */
export function AuditLogSection({ guild, api }: SectionProps) {
  const [userId, setUserId] = useState('');
  const [action, setAction] = useState('');
  const filters = { user_id: userId || undefined, action_type: action ? Number(action) : undefined, limit: PAGE };
  const first = useLoad(() => api.auditLog(filters), [api, userId, action]);
  const [more, setMore] = useState<{ key: string; pages: AuditLog[]; done: boolean }>({ key: '', pages: [], done: false });
  const key = `${userId}|${action}`;
  const pages = first.data ? [first.data, ...(more.key === key ? more.pages : [])] : [];
  const entries = pages.flatMap((p) => p.audit_log_entries);
  const users = new Map<string, APIUser>(pages.flatMap((p) => p.users.map((u) => [u.id, u] as const)));
  const done = (more.key === key && more.done) || (pages.length > 0 && pages[pages.length - 1].audit_log_entries.length < PAGE);
  const loadMore = useAction(async () => {
    const page = await api.auditLog({ ...filters, before: entries[entries.length - 1]?.id });
    setMore((m) => ({ key, pages: [...(m.key === key ? m.pages : []), page], done: page.audit_log_entries.length < PAGE }));
  });
  const people = [...guild.members.values()].map((m) => m.user).filter((u): u is APIUser => !!u);

  return (
    <div>
      <div className="ss-filters">
        <Field label="Filter by user">
          {(id) => (
            <select id={id} className="select" value={userId} onChange={(e) => setUserId(e.target.value)}>
              <option value="">All users</option>
              {people.map((u) => (
                <option key={u.id} value={u.id}>
                  {displayName(u)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Filter by action">
          {(id) => (
            <select id={id} className="select" value={action} onChange={(e) => setAction(e.target.value)}>
              <option value="">All actions</option>
              {AUDIT_ACTIONS.map((a) => (
                <option key={a.type} value={a.type}>
                  {a.label}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      {first.error ? (
        <ErrorState message={readableError(first.error)} onRetry={() => void first.reload()} />
      ) : !first.data ? (
        <Loading />
      ) : !entries.length ? (
        <Empty icon="file" title="No entries">
          Nothing in the audit log matches these filters.
        </Empty>
      ) : (
        <ol className="ss-list" aria-label="Audit log entries">
          {entries.map((e) => (
            <Entry key={e.id} entry={e} guild={guild} users={users} />
          ))}
        </ol>
      )}
      {loadMore.error ? <Banner>{readableError(loadMore.error)}</Banner> : null}
      {entries.length && !done ? (
        <div className="ss-actions">
          <Button variant="secondary" busy={loadMore.busy} onClick={() => void loadMore.run()}>
            Load More
          </Button>
        </div>
      ) : null}
    </div>
  );
}

function Entry({ entry, guild, users }: { entry: AuditEntry; guild: GuildState; users: Map<string, APIUser> }) {
  const a = auditAction(entry.action_type);
  const actor = entry.user_id ? users.get(entry.user_id) : undefined;
  const changes = (entry.changes ?? []).map((c) => c.key).filter((k) => k !== 'id');
  return (
    <li className="ss-row ss-row--tall" data-action-type={entry.action_type}>
      <Avatar user={actor} size={32} />
      <div className="grow ss-row__text">
        <div>
          <strong>{actor ? displayName(actor) : 'Someone'}</strong> {a?.verb ?? `did action ${entry.action_type} to`}{' '}
          <strong>{targetName(entry, a?.target, guild, users)}</strong>
        </div>
        <div className="muted ss-row__reason">
          {new Date(snowflakeTime(entry.id)).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}
          {changes.length ? ` · changed ${changes.join(', ')}` : ''}
          {entry.reason ? ` · Reason: ${entry.reason}` : ''}
        </div>
      </div>
    </li>
  );
}

/** The target's name now, else the name the entry recorded (a deleted role or channel), else its id. */
function targetName(e: AuditEntry, kind: string | undefined, guild: GuildState, users: Map<string, APIUser>): string {
  const recorded = (key: string) => {
    const c = e.changes?.find((x) => x.key === key);
    const v = c?.new_value ?? c?.old_value;
    return typeof v === 'string' ? v : undefined;
  };
  const id = e.target_id ?? '';
  switch (kind) {
    case 'guild':
      return '';
    case 'channel': {
      const c = guild.channels.get(id) ?? (e.options?.channel_id ? guild.channels.get(e.options.channel_id) : undefined);
      return `#${c?.name ?? recorded('name') ?? id}`;
    }
    case 'role':
      return guild.roles.get(id)?.name ?? recorded('name') ?? id;
    case 'user':
      return users.get(id) ? displayName(users.get(id)) : id;
    case 'invite':
      return recorded('code') ?? id;
    default:
      return recorded('name') ?? id;
  }
}
