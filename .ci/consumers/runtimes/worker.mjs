// A Cloudflare Worker as a user writes one: both clients from the package's root entry, its
// secrets from `env`. `/smoke` scans and sends against the services Miniflare routes to the
// sandbox; `/catalogue` answers with what each fail-closed case gave.
import { decide, HashScanClient, HashScanError, SmsClient } from 'hashscan-sms';
import { runCatalogue } from './catalogue.mjs';

const EICAR_SHA256 = '275a021bbfb6489e54d471899f7db9d1663fc695ec2fe2a2c4538aabf651fd0f';

export default {
  async fetch(request, env) {
    const { pathname } = new URL(request.url);
    if (pathname === '/catalogue') {
      const client = new HashScanClient({ baseUrl: 'https://catalogue.test', apiKey: 'key', retry: false });
      return Response.json(await runCatalogue(client, { HashScanError }));
    }
    const scanner = new HashScanClient({
      baseUrl: 'https://hashscan.test',
      apiKey: env.HASHSCAN_API_KEY,
      retry: false,
    });
    const sms = new SmsClient({
      baseUrl: 'https://sms.test',
      accessKeyId: env.SMS_ACCESS_KEY_ID,
      accessKeySecret: env.SMS_ACCESS_KEY_SECRET,
      retry: false,
    });
    const eicar = decide(await scanner.scan(EICAR_SHA256));
    const sent = await sms.send({
      phoneNumbers: '13800000000',
      templateCode: 'SMS_100000001',
      templateParam: { code: '1' },
    });
    return Response.json({ eicar, sms: sent.code });
  },
};
