import { SOCIAL_SDK_RELEASE, SOCIAL_SDK_SUPPORTED_MINORS as W, sdkVersionVerdict } from '@accord/protocol';
import { ApiError } from '../../../core/errors.js';

/**
 * The Social SDK support window: the five latest minor releases (1.6 to 1.10 with 1.10). A client that reports an
 * end-of-life release (1.5 and earlier) is refused with a message that says what to do; newer or unknown releases
 * pass (a game built against a future release must not break).
 */
export const endOfLifeMessage = (version: string) =>
  `Social SDK ${version} is end-of-life: releases ${W.major}.${W.oldest} to ${W.major}.${W.newest} are supported. Update the game to SDK ${SOCIAL_SDK_RELEASE} or another supported release.`;

/** Throws 400 50041 for an end-of-life SDK release; does nothing without a reported release. */
export function assertSupportedSdk(version: string | string[] | undefined): void {
  const v = Array.isArray(version) ? version[0] : version;
  if (!v) return;
  if (sdkVersionVerdict(v) === 'end_of_life') throw new ApiError(400, 50041, endOfLifeMessage(v.slice(0, 32)));
}
