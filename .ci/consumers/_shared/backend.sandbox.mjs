// Backend of the ESM smoke test: the package's own sandbox (`hashscan-sms/testing`).
import { createHashLookupService, EICAR_RECORD, SANDBOX_NOT_DETECTED_HASH, startSandbox } from 'hashscan-sms/testing';

const catchError = (run) => {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
};

export async function startBackend() {
  const sandbox = await startSandbox();
  return {
    kind: 'startSandbox() from hashscan-sms/testing',
    hashScanUrl: sandbox.hashScanUrl,
    smsUrl: sandbox.smsUrl,
    apiKey: sandbox.apiKey,
    accessKeyId: sandbox.accessKeyId,
    accessKeySecret: sandbox.accessKeySecret,
    maliciousHash: EICAR_RECORD.sha256,
    cleanHash: SANDBOX_NOT_DETECTED_HASH,
    templateCode: 'SMS_100000001',
    templateParam: { code: '123456' },
    testingEntryError: () => catchError(() => createHashLookupService({ apiKey: '' }, () => {})),
    requestCount: () => sandbox.requests.length,
    close: () => sandbox.close(),
  };
}
