import { type SetupServer, setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';

/** An msw server for one test file; an unhandled request fails the test. */
export function useMswServer(): SetupServer {
  const server = setupServer();
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
  return server;
}
