import { VERSION } from '../../version.js';

/** `User-Agent` sent with every request: names the package, its version and the runtime. */
export const USER_AGENT = `hashscan-sms/${VERSION} node/${process.versions.node}`;
