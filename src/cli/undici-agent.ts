/**
 * undici's `Agent` with `request()`, loaded without the rest of undici.
 *
 * The package root (`undici`) loads fetch, WebSocket, EventSource, the cache
 * and the mocks at once, at every `scan` and `lookup` start-up (what it
 * costs, bundled and minified, is in BENCHMARKS.md). The CLI needs an `Agent` and the
 * `request()` method of its prototype, which undici's own `index.js` adds
 * the same way as below. undici is a build-time dependency of `dist/cli.js`,
 * pinned by the lock file: a change of these paths fails the build or the
 * CLI tests, never a user.
 */
import type { Agent as UndiciAgent } from 'undici';
import api from 'undici/lib/api/index.js';
import AgentClass from 'undici/lib/dispatcher/agent.js';
import Dispatcher from 'undici/lib/dispatcher/dispatcher.js';

Object.assign(Dispatcher.prototype, api);

/** undici's `Agent`, as `import { Agent } from 'undici'` gives it. */
export const Agent: typeof UndiciAgent = AgentClass;
export type Agent = UndiciAgent;
