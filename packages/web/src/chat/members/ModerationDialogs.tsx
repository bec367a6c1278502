import { useState } from 'react';
import type { APIUser } from '../../lib/api/types.js';
import { fullTime } from '../../lib/markdown/timestamp.js';
import { displayName, Field } from '../../lib/ui/index.js';
import { ActionConfirm } from './ActionConfirm.js';

/** Kick, ban, time out and remove a timeout: each asks in the page, with a reason for the audit log. */

export interface ModerationCalls {
  kick: (reason: string) => Promise<unknown>;
  ban: (deleteSeconds: number, reason: string) => Promise<unknown>;
  timeout: (until: string | null, reason: string) => Promise<unknown>;
}

/** "Delete message history" as the official client offers it. */
export const DELETE_HISTORY: { label: string; seconds: number }[] = [
  { label: "Don't Delete Any", seconds: 0 },
  { label: 'Previous Hour', seconds: 3600 },
  { label: 'Previous 6 Hours', seconds: 6 * 3600 },
  { label: 'Previous 12 Hours', seconds: 12 * 3600 },
  { label: 'Previous 24 Hours', seconds: 86400 },
  { label: 'Previous 3 Days', seconds: 3 * 86400 },
  { label: 'Previous 7 Days', seconds: 7 * 86400 },
];

/** Timeout lengths as the official client offers them. */
export const TIMEOUTS: { label: string; seconds: number }[] = [
  { label: '60 seconds', seconds: 60 },
  { label: '5 minutes', seconds: 300 },
  { label: '10 minutes', seconds: 600 },
  { label: '1 hour', seconds: 3600 },
  { label: '1 day', seconds: 86400 },
  { label: '1 week', seconds: 7 * 86400 },
];

function Reason({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  return (
    <Field label="Reason" hint="Shown in the audit log.">
      {(id) => <textarea id={id} className="textarea" rows={2} maxLength={512} value={value} onChange={(e) => onChange(e.target.value)} />}
    </Field>
  );
}

export function KickDialog({ user, guildName, calls, onDone }: { user: APIUser; guildName: string; calls: ModerationCalls; onDone: (ok: boolean) => void }) {
  const [reason, setReason] = useState('');
  const name = displayName(user);
  return (
    <ActionConfirm
      title={`Kick ${name} from ${guildName}`}
      confirmLabel="Kick"
      danger
      run={() => calls.kick(reason)}
      onSuccess={() => onDone(true)}
      onCancel={() => onDone(false)}
    >
      <p className="mod__lead">Are you sure you want to kick @{user.username} from the server? They will be able to rejoin again with a new invite.</p>
      <Reason value={reason} onChange={setReason} />
    </ActionConfirm>
  );
}

export function BanDialog({ user, guildName, calls, onDone }: { user: APIUser; guildName: string; calls: ModerationCalls; onDone: (ok: boolean) => void }) {
  const [reason, setReason] = useState('');
  const [seconds, setSeconds] = useState(0);
  const name = displayName(user);
  return (
    <ActionConfirm
      title={`Ban ${name} from ${guildName}`}
      confirmLabel="Ban"
      danger
      run={() => calls.ban(seconds, reason)}
      onSuccess={() => onDone(true)}
      onCancel={() => onDone(false)}
    >
      <p className="mod__lead">Are you sure you want to ban @{user.username}? They cannot rejoin until the ban is lifted.</p>
      <Field label="Delete message history">
        {(id) => (
          <select id={id} className="select" value={seconds} onChange={(e) => setSeconds(Number(e.target.value))}>
            {DELETE_HISTORY.map((o) => (
              <option key={o.seconds} value={o.seconds}>
                {o.label}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Reason value={reason} onChange={setReason} />
    </ActionConfirm>
  );
}

export function TimeoutDialog({ user, calls, onDone }: { user: APIUser; calls: ModerationCalls; onDone: (ok: boolean) => void }) {
  const [reason, setReason] = useState('');
  const [seconds, setSeconds] = useState(TIMEOUTS[0].seconds);
  return (
    <ActionConfirm
      title={`Timeout ${displayName(user)}`}
      confirmLabel="Timeout"
      danger
      run={() => calls.timeout(new Date(Date.now() + seconds * 1000).toISOString(), reason)}
      onSuccess={() => onDone(true)}
      onCancel={() => onDone(false)}
    >
      <p className="mod__lead">Members who are in timeout are temporarily unable to chat or react in text channels, or to speak in voice.</p>
      <fieldset className="mod__choices">
        <legend className="field__label">Duration</legend>
        {TIMEOUTS.map((o) => (
          <label key={o.seconds} className="mod__choice">
            <input type="radio" name="timeout-duration" checked={seconds === o.seconds} onChange={() => setSeconds(o.seconds)} />
            {o.label}
          </label>
        ))}
      </fieldset>
      <Reason value={reason} onChange={setReason} />
    </ActionConfirm>
  );
}

export function RemoveTimeoutDialog({ user, until, calls, onDone }: { user: APIUser; until: number; calls: ModerationCalls; onDone: (ok: boolean) => void }) {
  return (
    <ActionConfirm
      title={`Remove timeout for ${displayName(user)}`}
      confirmLabel="Remove Timeout"
      run={() => calls.timeout(null, '')}
      onSuccess={() => onDone(true)}
      onCancel={() => onDone(false)}
    >
      <p className="mod__lead">Their timeout would end {fullTime(new Date(until).toISOString())}. Removing it lets them chat again now.</p>
    </ActionConfirm>
  );
}
