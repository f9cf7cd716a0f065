'use strict';
// Fallback backend of the consumer smoke tests, used only while the package has
// no `hashscan-sms/testing` entry (see backend.*). A few lines of node:http that
// answer like the two services: enough for one scan and one send, nothing more.
const { createServer } = require('node:http');
const { randomUUID } = require('node:crypto');

const API_KEY = 'smoke-api-key';
const MALICIOUS_HASH = '275a021bbfb6489e54d471899f7db9d1663fc695ec2fe2a2c4538aabf651fd0f';
const CLEAN_HASH = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

function json(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function startStub() {
  let requests = 0;
  const server = createServer((req, res) => {
    requests += 1;
    const url = new URL(req.url, 'http://stub.invalid');
    if (url.pathname === '/hashscan/hash_scan') {
      if (url.searchParams.get('api_key') !== API_KEY) return json(res, 401, { status: 'error', message: 'bad key' });
      if (url.searchParams.get('hash') === MALICIOUS_HASH) {
        return json(res, 200, {
          status: 'success',
          is_virus: true,
          source: 'stub',
          data: { sha256: MALICIOUS_HASH, first_seen: '2006-01-01 00:00:00', last_seen: '2024-01-01 00:00:00' },
        });
      }
      return json(res, 200, { status: 'success', is_virus: false, message: 'not detected' });
    }
    if (url.pathname === '/sms' || url.pathname === '/sms/') {
      req.resume();
      req.on('end', () => json(res, 200, { Code: 'OK', Message: 'OK', RequestId: randomUUID() }));
      return undefined;
    }
    return json(res, 404, { status: 'error', message: 'not found' });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const url = `http://127.0.0.1:${server.address().port}`;
      resolve({
        kind: 'local node:http stub',
        hashScanUrl: `${url}/hashscan`,
        smsUrl: `${url}/sms`,
        apiKey: API_KEY,
        accessKeyId: 'smoke-access-key-id',
        accessKeySecret: 'smoke-access-key-secret',
        maliciousHash: MALICIOUS_HASH,
        cleanHash: CLEAN_HASH,
        templateCode: 'SMS_100000001',
        templateParam: { code: '123456' },
        requestCount: () => requests,
        close: () =>
          new Promise((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}

exports.startStub = startStub;
