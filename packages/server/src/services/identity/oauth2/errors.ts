import { ApiError } from '../../../core/errors.js';

export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'authorization_pending'
  | 'slow_down'
  | 'access_denied'
  | 'expired_token';

/**
 * The token endpoints' errors, in the RFC 6749 shape `{error, error_description}` rather than the platform's
 * `{code, message}` envelope. It is an ApiError so the one HTTP error mapper sends it; only the body differs.
 */
export class OAuthError extends ApiError {
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
    status?: number,
  ) {
    super(status ?? (error === 'invalid_client' ? 401 : 400), 0, description);
  }

  override toBody(): Record<string, unknown> {
    return { error: this.error, error_description: this.description };
  }
}

export const oauthError = (error: OAuthErrorCode, description: string) => new OAuthError(error, description);
export const invalidGrant = (field: string) => new OAuthError('invalid_grant', `Invalid "${field}" in request.`);
export const invalidClient = () => new OAuthError('invalid_client', 'Invalid client');
