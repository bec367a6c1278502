import type { APIUser } from '../lib/api/types.js';
import { scopeInfo } from '../lib/oauth/scopes.js';
import { snowflakeTime } from '../lib/state/snowflake.js';
import { Icon } from '../lib/ui/index.js';

/** The sentence for a scope in this request (installs read differently for a server and for the person). */
function sentence(scope: string, userInstall: boolean, bot?: APIUser): string {
  if (scope === 'bot') return bot ? `Add the bot ${bot.username} to the server` : 'Add a bot to the server';
  if (scope === 'applications.commands') return userInstall ? 'Use its commands in your DMs and in any server' : 'Create commands in the server';
  return scopeInfo(scope).allows;
}

/** "This will allow the developer of X to:" and one line per scope. */
export function ScopeList({ scopes, appName, userInstall, bot }: { scopes: string[]; appName: string; userInstall: boolean; bot?: APIUser }) {
  return (
    <div className="consent__section">
      <div className="consent__label">This will allow the developer of {appName} to:</div>
      <ul className="consent__scopes">
        {scopes.map((s) => (
          <li key={s}>
            <span className="consent__tick">
              <Icon name="check" size={14} />
            </span>
            <span>{sentence(s, userInstall, bot)}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

const READS_MESSAGES = ['messages.read', 'dm_channels.messages.read', 'dm_channels.messages.write', 'sdk.social_layer'];

/** The small print: where the browser goes next, how old the app is, what it cannot do. */
export function ConsentNotes({ app, scopes, redirectUri }: { app: { id: string; name: string }; scopes: string[]; redirectUri: string | null }) {
  let target: string | null = null;
  if (redirectUri) {
    try {
      target = new URL(redirectUri).origin;
    } catch {
      target = redirectUri;
    }
    if (target === 'null') target = redirectUri;
  }
  const since = new Date(snowflakeTime(app.id)).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
  return (
    <ul className="consent__notes">
      {target ? (
        <li>
          <Icon name="link" size={16} />
          <span>
            Once you authorize, you will be sent to: <strong>{target}</strong>
          </span>
        </li>
      ) : null}
      <li>
        <Icon name="lock" size={16} />
        <span>The developer of {app.name}'s privacy policy and terms of service apply to this application.</span>
      </li>
      <li>
        <Icon name="code" size={16} />
        <span>Active since {since}</span>
      </li>
      {scopes.some((s) => READS_MESSAGES.includes(s)) ? null : (
        <li>
          <Icon name="eye" size={16} />
          <span>This application cannot read your messages or send messages as you.</span>
        </li>
      )}
    </ul>
  );
}
