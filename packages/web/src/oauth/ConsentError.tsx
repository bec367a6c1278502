import { ApiError, readableError } from '../lib/api/errors.js';
import { Icon } from '../lib/ui/index.js';

/** What went wrong with an authorize request, in words for the person holding the link, and the detail for its developer. */
function explain(error: unknown): { title: string; body: string; detail: string | null } {
  if (!(error instanceof ApiError)) return { title: 'Something went wrong', body: readableError(error), detail: null };
  const field = error.fields[0];
  const detail = field ? `${field.path || 'request'}: ${field.message}` : error.code ? `${error.code}: ${error.message}` : null;
  if (error.code === 10002)
    return {
      title: 'Unknown application',
      body: 'This link names an application that does not exist. Check the link, or ask its developer for a new one.',
      detail,
    };
  switch (field?.path) {
    case 'redirect_uri':
      return {
        title: 'Invalid redirect URI',
        body: 'This link would send you back to an address the application has not registered, so it was stopped. Its developer must add the address under OAuth2 → Redirects.',
        detail,
      };
    case 'scope':
      return {
        title: 'Invalid scope',
        body: 'This link asks for access that does not exist or cannot be given this way. Its developer must fix the scopes in the link.',
        detail,
      };
    case 'client_id':
      return {
        title: 'No application named',
        body: 'This link does not say which application is asking. Check the link, or ask its developer for a new one.',
        detail,
      };
    case undefined:
      break;
    default:
      return { title: 'This link is not valid', body: 'The authorization link is malformed. Its developer must fix it.', detail };
  }
  if (error.code === 50013 || error.status === 403) return { title: 'Not allowed', body: readableError(error), detail };
  return { title: 'Something went wrong', body: readableError(error), detail };
}

export function ConsentError({ error, onRetry, title }: { error: unknown; onRetry?: () => void; title?: string }) {
  const e = explain(error);
  const network = error instanceof TypeError || (error instanceof ApiError && error.status >= 500);
  return (
    <div className="consent__done" role="alert">
      <div className="consent__done-icon consent__done-icon--error">
        <Icon name="warn" size={32} />
      </div>
      <h1 className="consent__title">{title ?? e.title}</h1>
      <p className="consent__sub">{e.body}</p>
      {e.detail ? <code className="consent__detail">{e.detail}</code> : null}
      <div className="row">
        {network && onRetry ? (
          <button type="button" className="btn" onClick={onRetry}>
            Try again
          </button>
        ) : null}
        <a className="btn btn--secondary" href="/channels/@me">
          Back to Accord
        </a>
      </div>
    </div>
  );
}
