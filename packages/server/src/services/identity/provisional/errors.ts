import { ApiError } from '../../../core/errors.js';

/** The 5300xx errors of provisional accounts and external auth (reference/social-sdk.md §6). */
const E = (status: number, code: number, message: string) => () => new ApiError(status, code, message);

export const ProvisionalErrors = {
  notGranted: E(403, 530000, 'Application is not granted access to provisional accounts'),
  expiredIdToken: E(400, 530001, 'ID token has expired'),
  issuerMismatch: E(400, 530002, 'ID token issuer does not match the configured issuer'),
  audienceMismatch: E(400, 530003, 'ID token audience does not match the configured client id'),
  issuedTooLongAgo: E(400, 530004, 'ID token was issued more than a week ago'),
  usernameGeneration: E(500, 530006, 'Unique username generation failed, try again'),
  invalidClientSecret: E(401, 530007, 'Invalid client secret'),
  oidcConfigNotFound: E(400, 530008, 'OIDC configuration not found'),
  jwksNotFound: E(400, 530009, 'JWKS not found'),
  notProvisional: E(400, 530010, 'This account is not provisional and should be authenticated through OAuth2'),
  invalidMergeSource: E(400, 530014, 'Invalid merge source: the account is not provisional'),
  destinationProvisional: E(400, 530016, 'Invalid merge destination: the account is provisional'),
  mergeSourceBanned: E(400, 530017, 'Merge source user is banned'),
  invalidJwt: E(400, 530020, 'Invalid OIDC JWT'),
  missingKid: E(400, 530027, 'OIDC JWT header is missing a "kid"'),
  tooManyIdentities: E(400, 530023, 'Too many application identities'),
  invalidAccessToken: E(403, 50025, 'Invalid OAuth2 access token'),
  unmergeProvisional: E(400, 50229, 'Cannot unmerge: the user is provisional'),
} as const;
