// Backend of the TypeScript smoke tests while the package has no `hashscan-sms/testing` entry.
import { type Backend, startStub } from './stub-server.cjs';

export function startBackend(): Promise<Backend> {
  return startStub();
}
