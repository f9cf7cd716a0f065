// Backend of the ESM smoke test while the package has no `hashscan-sms/testing` entry.
export { startStub as startBackend } from './stub-server.cjs';
