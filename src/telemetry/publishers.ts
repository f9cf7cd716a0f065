/*
 * What every client subscribes to its observer hub besides its logger: the
 * `diagnostics_channel` publisher of its tracing channel, and the
 * OpenTelemetry subscriber when telemetry is on. Imports the two publishers'
 * rooms and the observer vocabulary.
 */
import { ChannelPublisher } from '../diagnostics/tracing-channels.js';
import type { Observer } from '../observe/events.js';
import { INTERNAL_OBSERVERS, type WithInternalObservers } from '../observe/observers.js';
import type { Mask } from '../observe/outcome-summary.js';
import { createTelemetry, type TelemetryTarget } from './create-telemetry.js';
import { checkTelemetry } from './telemetry-options.js';

/**
 * The observers of a client: those passed internally (tests, the CLI), its
 * tracing channel, and OpenTelemetry per its `telemetry` option. Each of the
 * last two counts only while it has someone to report to. Both show an
 * outcome through `redact`, the client's redactor (one masking).
 */
export function clientObservers(
  options: { readonly telemetry?: unknown },
  target: TelemetryTarget,
  { redact }: { readonly redact: Mask },
): Observer[] {
  const internal = (options as WithInternalObservers)[INTERNAL_OBSERVERS] ?? [];
  const otel = createTelemetry(checkTelemetry(options.telemetry), { ...target, redact });
  const channel = new ChannelPublisher(target.client, redact);
  return otel === undefined ? [...internal, channel] : [...internal, channel, otel];
}
