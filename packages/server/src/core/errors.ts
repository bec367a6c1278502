/** The one error type. Transports map it once: HTTP envelope, gateway close code, RPC error. */
export type ErrorTree = { _errors?: { code: string; message: string }[]; [key: string]: ErrorTree | { code: string; message: string }[] | undefined };

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly errors?: ErrorTree,
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
  }

  toBody(): Record<string, unknown> {
    const body: Record<string, unknown> = { message: this.message, code: this.code };
    if (this.errors) body.errors = this.errors;
    if (this.extra) Object.assign(body, this.extra);
    return body;
  }
}

const E = (status: number, code: number, message: string) => () => new ApiError(status, code, message);

export const Errors = {
  unauthorized: E(401, 0, '401: Unauthorized'),
  notFound: E(404, 0, '404: Not Found'),
  methodNotAllowed: E(405, 0, '405: Method Not Allowed'),
  unknownAccount: E(404, 10001, 'Unknown Account'),
  unknownApplication: E(404, 10002, 'Unknown Application'),
  unknownChannel: E(404, 10003, 'Unknown Channel'),
  unknownGuild: E(404, 10004, 'Unknown Guild'),
  unknownInvite: E(404, 10006, 'Unknown Invite'),
  unknownMember: E(404, 10007, 'Unknown Member'),
  unknownMessage: E(404, 10008, 'Unknown Message'),
  unknownOverwrite: E(404, 10009, 'Unknown Overwrite'),
  unknownRole: E(404, 10011, 'Unknown Role'),
  unknownToken: E(404, 10012, 'Unknown Token'),
  unknownUser: E(404, 10013, 'Unknown User'),
  unknownEmoji: E(400, 10014, 'Unknown Emoji'),
  unknownWebhook: E(404, 10015, 'Unknown Webhook'),
  unknownBan: E(404, 10026, 'Unknown Ban'),
  botsCannotUse: E(403, 20001, 'Bots cannot use this endpoint'),
  onlyBots: E(403, 20002, 'Only bots can use this endpoint'),
  notAppOwner: E(403, 20012, 'You are not authorized to perform this action on this application'),
  slowmode: E(429, 20016, 'This action cannot be performed due to slowmode rate limit'),
  maxGuilds: E(400, 30001, 'Maximum number of guilds reached (100)'),
  maxPins: E(400, 30003, 'Maximum number of pins reached for the channel (250)'),
  maxRoles: E(400, 30005, 'Maximum number of guild roles reached (250)'),
  maxWebhooks: E(400, 30007, 'Maximum number of webhooks reached (15)'),
  maxReactions: E(400, 30010, 'Maximum number of reactions reached (20)'),
  maxChannels: E(400, 30013, 'Maximum number of guild channels reached (500)'),
  maxAttachments: E(400, 30015, 'Maximum number of attachments in a message reached (10)'),
  maxInvites: E(400, 30016, 'Maximum number of invites reached (1000)'),
  tooLarge: E(413, 40005, 'Request entity too large'),
  userBanned: E(403, 40007, 'The user is banned from this guild'),
  missingAccess: E(403, 50001, 'Missing Access'),
  invalidAccountType: E(403, 50002, 'Invalid account type'),
  cannotDM: E(403, 50003, 'Cannot execute action on a DM channel'),
  cannotEditOthers: E(403, 50005, 'Cannot edit a message authored by another user'),
  emptyMessage: E(400, 50006, 'Cannot send an empty message'),
  cannotSendToUser: E(403, 50007, 'Cannot send messages to this user'),
  nonTextChannel: E(400, 50008, 'Cannot send messages in a non-text channel'),
  noBot: E(400, 50010, 'OAuth2 application does not have a bot'),
  missingPermissions: E(403, 50013, 'Missing Permissions'),
  invalidToken: E(401, 50014, 'Invalid authentication token provided'),
  bulkDeleteCount: E(400, 50016, 'You must provide at least 2 and fewer than 100 messages to delete.'),
  pinWrongChannel: E(400, 50019, 'A message can only be pinned to the channel it was sent in'),
  systemMessage: E(400, 50021, 'Cannot execute action on a system message'),
  wrongChannelType: E(400, 50024, 'Cannot execute action on this channel type'),
  invalidOAuthToken: E(401, 50025, 'Invalid OAuth2 access token'),
  missingScope: E(403, 50026, 'Missing required OAuth2 scope'),
  invalidWebhookToken: E(401, 50027, 'Invalid Webhook Token'),
  invalidRole: E(400, 50028, 'Invalid Role'),
  bulkDeleteTooOld: E(400, 50034, 'You can only bulk delete messages that are under 14 days old.'),
  invalidApiVersion: E(400, 50041, 'Invalid API version provided'),
  fileTooLarge: E(413, 50045, 'File uploaded exceeds the maximum size'),
  invalidJson: E(400, 50109, 'The request body contains invalid JSON.'),
  archivedThread: E(400, 50083, 'Thread is archived'),
  ownershipToBot: E(400, 50132, 'Ownership cannot be transferred to a bot user'),
  threadAlreadyCreated: E(400, 160004, 'A thread has already been created for this message'),
  forwardUnreadable: E(403, 160014, 'You cannot forward a message whose content you cannot read'),
  /** A dependency (the database, Redis) is away: the request was not carried out; try again shortly. */
  unavailable: E(503, 0, '503: Service Unavailable'),
  /** The disk is full: nothing was stored; try again once the operator made room. */
  insufficientStorage: E(507, 0, '507: Insufficient Storage'),
} as const;

/** 50035 with a tree built from (path, code, message) leaves. */
export function formError(leaves: { path: (string | number)[]; code: string; message: string }[]): ApiError {
  // Keys come from request bodies: prototype-less nodes keep "__proto__" an ordinary key, never Object.prototype.
  const tree = (): ErrorTree => Object.create(null);
  const root = tree();
  for (const leaf of leaves) {
    let node: ErrorTree = root;
    for (const key of leaf.path) {
      const k = String(key);
      node = (node[k] as ErrorTree | undefined) ?? (node[k] = tree());
    }
    (node._errors ??= []).push({ code: leaf.code, message: leaf.message });
  }
  return new ApiError(400, 50035, 'Invalid Form Body', root);
}

export function fieldError(path: (string | number)[] | string, code: string, message: string): ApiError {
  return formError([{ path: Array.isArray(path) ? path : [path], code, message }]);
}

/** The dependencies a process can lose: the database (`store`: PostgreSQL) and, in distributed mode, `redis`. */
export type DependencyName = 'store' | 'redis';

/**
 * Thrown instead of reaching a dependency known to be away, or when reaching it failed for a reason that says it is
 * away (a connection refused or cut, a connect timeout): a 503 with the platform's envelope on every transport.
 */
export class DependencyUnavailable extends ApiError {
  constructor(
    readonly dependency: DependencyName,
    cause?: unknown,
  ) {
    super(503, 0, '503: Service Unavailable');
    if (cause !== undefined) (this as { cause?: unknown }).cause = cause;
  }
}

/** Error codes of sockets and of the drivers that mean "the other side is not there", not "the request was wrong". */
const GONE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNABORTED',
  'NR_CLOSED',
  'SQLITE_BUSY',
]);
/** PostgreSQL: admin_shutdown, crash_shutdown, cannot_connect_now, too_many_connections (class 08 is matched whole). */
const GONE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);
/** pg and ioredis say it in words only. */
const GONE_MESSAGES =
  /Connection terminated unexpectedly|connection error and is not queryable|Stream isn't writeable|Connection is closed|Reached the max retries per request|Client was closed and is not queryable/;

/** The timeouts of the clients (a connection not up in time, a command without an answer): slow, or a black hole. */
const TIMEOUT_MESSAGES = /timeout exceeded when trying to connect|Query read timeout|Command timed out|^timeout expired$/;

/**
 * Whether an error is a client's timeout: unavailable for the request that met it, but not proof that the dependency
 * is away (a loaded machine is slow too), so it only makes the health check (store/health.ts).
 */
export function isTimeout(err: unknown): boolean {
  const message = (err as { message?: unknown } | null)?.message;
  return typeof message === 'string' && TIMEOUT_MESSAGES.test(message);
}

/** Whether an error says a dependency is unreachable (as opposed to a query's own error). */
export function isUnavailable(err: unknown): boolean {
  if (err instanceof DependencyUnavailable) return true;
  if (!err || typeof err !== 'object') return false;
  const e = err as { code?: unknown; message?: unknown; name?: unknown };
  if (typeof e.code === 'string' && (GONE_CODES.has(e.code) || GONE_SQLSTATES.has(e.code) || (e.code.length === 5 && e.code.startsWith('08')))) return true;
  if (e.name === 'MaxRetriesPerRequestError') return true;
  return typeof e.message === 'string' && (GONE_MESSAGES.test(e.message) || TIMEOUT_MESSAGES.test(e.message));
}

/** A full disk (SQLite's SQLITE_FULL, or ENOSPC writing a file): the request cannot be stored until space returns. */
export function isDiskFull(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'SQLITE_FULL' || code === 'ENOSPC';
}
