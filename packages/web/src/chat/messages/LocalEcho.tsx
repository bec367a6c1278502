import type { LocalMessage } from '../../lib/state/store.js';
import { dropLocal } from '../../lib/state/message-events.js';
import { useSession, useStore } from '../../lib/session.js';
import { Avatar, displayName, Icon } from '../../lib/ui/index.js';

/**
 * What the person sent before the server confirmed it: a grey message while sending, red with the error when it
 * failed. A command shows "Sending command…", then "The application did not respond" if it fails.
 */
export function LocalEcho({ local }: { local: LocalMessage }) {
  const me = useStore((s) => s.me);
  const { store } = useSession();
  const failed = local.state === 'failed';
  return (
    <article className={failed ? 'msg msg--local msg--failed' : 'msg msg--local'} data-local-nonce={local.nonce}>
      {local.kind === 'command' ? (
        <div className="msg__used">
          <span className="msg__spine" aria-hidden />
          <Avatar user={me} size={16} />
          <span className="msg__used-name">{displayName(me)}</span>
          <span className="muted">used</span>
          <span className="msg__used-cmd">{local.content}</span>
        </div>
      ) : null}
      <div className="msg__row">
        <div className="msg__gutter">
          {local.kind === 'command' ? (
            <span className="avatar avatar--app" style={{ width: 40, height: 40 }}>
              <Icon name="bot" size={22} />
            </span>
          ) : (
            <Avatar user={me} size={40} />
          )}
        </div>
        <div className="msg__body">
          <h3 className="msg__head">
            <span className="msg__author">{local.kind === 'command' ? (local.appName ?? 'App') : displayName(me)}</span>
            {local.kind === 'command' ? <span className="tag">App</span> : null}
          </h3>
          {local.kind === 'command' ? (
            failed ? (
              <div className="msg__failure">
                <Icon name="warn" size={16} /> {local.error}
              </div>
            ) : (
              <div className="msg__thinking">
                <span className="dots" aria-hidden>
                  <i />
                  <i />
                  <i />
                </span>{' '}
                Sending command…
              </div>
            )
          ) : (
            <div className="msg__content msg__content--pending">
              {local.content}
              {local.files?.length ? <div className="muted">{local.files.map((f) => `📎 ${f}`).join('  ')}</div> : null}
            </div>
          )}
          {failed && local.kind === 'message' ? (
            <div className="msg__failure">
              <Icon name="warn" size={16} /> {local.error ?? 'Message could not be delivered.'}
            </div>
          ) : null}
          {failed ? (
            <div className="msg__ephemeral">
              <Icon name="eye" size={16} /> Only you can see this •{' '}
              <button type="button" className="linklike" onClick={() => dropLocal(store, local.channelId, local.nonce)}>
                Dismiss message
              </button>
            </div>
          ) : null}
        </div>
      </div>
    </article>
  );
}
