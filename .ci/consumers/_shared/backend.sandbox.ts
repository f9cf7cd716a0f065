// Backend of the TypeScript smoke tests: the package's sandbox, through the public
// types of `hashscan-sms/testing` (a wrong type there fails the compile).
import {
  createHashLookupService,
  EICAR_RECORD,
  type HashRecord,
  SANDBOX_NOT_DETECTED_HASH,
  type Sandbox,
  startSandbox,
} from 'hashscan-sms/testing';
import type { Backend } from './stub-server.cjs';

const catchError = (run: () => unknown): unknown => {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
};

export async function startBackend(): Promise<Backend> {
  const sandbox: Sandbox = await startSandbox({ host: '127.0.0.1' });
  const eicar: HashRecord = EICAR_RECORD;
  return {
    kind: 'startSandbox() from hashscan-sms/testing (typed)',
    hashScanUrl: sandbox.hashScanUrl,
    smsUrl: sandbox.smsUrl,
    apiKey: sandbox.apiKey,
    accessKeyId: sandbox.accessKeyId,
    accessKeySecret: sandbox.accessKeySecret,
    maliciousHash: eicar.sha256,
    cleanHash: SANDBOX_NOT_DETECTED_HASH,
    templateCode: 'SMS_100000001',
    templateParam: { code: '123456' },
    testingEntryError: () => catchError(() => createHashLookupService({ apiKey: '' }, () => {})),
    requestCount: () => sandbox.requests.length,
    close: () => sandbox.close(),
  };
}
