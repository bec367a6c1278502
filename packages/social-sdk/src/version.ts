import { SOCIAL_SDK_RELEASE } from '@accord/protocol';

/** The Social SDK release this package matches (major.minor.patch, the patch being the build number). */
export const VERSION = SOCIAL_SDK_RELEASE;
const [major, minor, patch] = VERSION.split('.').map(Number);
export const VERSION_MAJOR = major;
export const VERSION_MINOR = minor;
export const VERSION_PATCH = patch;
/** The source revision of this build (the package has no VCS hash of its own: the release string). */
export const VERSION_HASH = `accord-${VERSION}`;
