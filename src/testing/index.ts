/**
 * `hashscan-sms/testing`: test doubles of both services, built from their
 * specs, so you can test your own code (including its fail-closed paths)
 * without the real services.
 *
 * - {@link createHashScanHandlers} / {@link createSmsHandlers}: msw 2 handlers
 *   (msw is an optional peer dependency, needed by this entry point).
 * - {@link startSandbox}: a real `node:http` server on loopback with the same
 *   logic and real network faults. It is also its own entry point,
 *   `hashscan-sms/sandbox`, which loads no msw.
 *
 * @packageDocumentation
 */

export * from '../sandbox/index.js';
export {
  createHashScanHandlers,
  createSmsHandlers,
  type HandlerOptions,
  type HashScanHandlerOptions,
  type HashScanHandlers,
  type SmsHandlerOptions,
  type SmsHandlers,
} from './msw-handlers.js';
