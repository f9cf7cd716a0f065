/**
 * The sandbox refuses what a page on another origin makes a browser send, on every route, and
 * serves clients that are not browsers as before. The header rules as a matrix, then over HTTP.
 */
import { describe, expect, it } from 'vitest';
import { crossSiteReason } from '../../src/sandbox/browser-guard.js';
import { rawRequest, smsClient, useSandbox } from './inbox/inbox-helpers.js';

const HOST = '127.0.0.1:8787';
const OWN = 'http://127.0.0.1:8787';

type Case = readonly [label: string, headers: Record<string, string>, served: boolean];

const CASES: readonly Case[] = [
  ['no Origin, no Sec-Fetch-* (curl, undici, the clients)', {}, true],
  ['its own origin', { origin: OWN }, true],
  ['its own origin by another loopback name', { origin: 'http://localhost:8787', host: 'localhost:8787' }, true],
  ['its own origin, Sec-Fetch-Site same-origin', { origin: OWN, 'sec-fetch-site': 'same-origin' }, true],
  ['Sec-Fetch-Site same-origin alone (a same-origin GET)', { 'sec-fetch-site': 'same-origin' }, true],
  ['Sec-Fetch-Site none (typed in the address bar)', { 'sec-fetch-site': 'none' }, true],
  ['another port of the same host', { origin: 'http://127.0.0.1:3000' }, false],
  ['localhost on another port', { origin: 'http://localhost:3000' }, false],
  ['another site', { origin: 'https://evil.example' }, false],
  ['https on the same host and port', { origin: 'https://127.0.0.1:8787' }, false],
  ['Origin null (a sandboxed frame, a file: page)', { origin: 'null' }, false],
  ['Sec-Fetch-Site cross-site without Origin (a no-cors GET)', { 'sec-fetch-site': 'cross-site' }, false],
  ['Sec-Fetch-Site same-site without Origin', { 'sec-fetch-site': 'same-site' }, false],
  ['own Origin but Sec-Fetch-Site cross-site', { origin: OWN, 'sec-fetch-site': 'cross-site' }, false],
  ['an unknown Sec-Fetch-Site', { 'sec-fetch-site': 'elsewhere' }, false],
  [
    'a rebound domain, "same-origin" to itself',
    { origin: 'http://rebound.example:8787', host: 'rebound.example:8787' },
    false,
  ],
];

describe('which browser requests are refused', () => {
  it.each(CASES)('%s', (_label, headers, served) => {
    for (const pathname of ['/', '/hash_scan', '/_inbox/api/messages']) {
      for (const method of ['GET', 'POST']) {
        const reason = crossSiteReason({ method, pathname, headers: { host: HOST, ...headers } }, true);
        expect(reason === undefined, `${method} ${pathname}: ${reason}`).toBe(served);
      }
    }
  });

  it('lets a top-level navigation open the inbox page from anywhere (it holds no data), and nothing else', () => {
    const navigate = { host: HOST, 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' };
    expect(crossSiteReason({ method: 'GET', pathname: '/_inbox', headers: navigate }, true)).toBeUndefined();
    expect(crossSiteReason({ method: 'GET', pathname: '/_inbox/', headers: navigate }, true)).toBeUndefined();
    expect(crossSiteReason({ method: 'POST', pathname: '/_inbox', headers: navigate }, true)).toBeDefined();
    // A navigation to the SMS address is a GET send; to the API, data.
    for (const pathname of ['/', '/hash_scan', '/_inbox/api/messages', '/_inbox/api/events']) {
      expect(crossSiteReason({ method: 'GET', pathname, headers: navigate }, true), pathname).toBeDefined();
    }
  });

  it('bound beyond loopback, takes the Host it is reached by as its own origin', () => {
    const headers = { host: '192.168.1.5:8787', origin: 'http://192.168.1.5:8787' };
    expect(crossSiteReason({ method: 'POST', pathname: '/', headers }, false)).toBeUndefined();
    expect(crossSiteReason({ method: 'POST', pathname: '/', headers }, true)).toMatch(/rebinding/);
  });
});

describe('over HTTP', () => {
  const start = useSandbox();
  const sendBody = new URLSearchParams({
    Action: 'SendSms',
    PhoneNumbers: '13800138000',
    TemplateCode: 'SMS_100000001',
    TemplateParam: '{"code":"666666"}',
  }).toString();

  it('answers 403 on the SMS address, the lookup and the inbox, in each one error shape, recording nothing', async () => {
    const box = await start();
    const origin = { origin: 'http://127.0.0.1:1' };
    const sms = await rawRequest(
      `${box.url}/`,
      { ...origin, 'content-type': 'application/x-www-form-urlencoded' },
      'POST',
      sendBody,
    );
    expect(sms.status).toBe(403);
    expect(JSON.parse(sms.body)).toMatchObject({ Code: 'Forbidden.CrossSite', RequestId: '' });
    expect(JSON.parse(sms.body).Message).toContain('http://127.0.0.1:1, another origin');
    const lookup = await rawRequest(`${box.url}/hash_scan?api_key=${box.apiKey}&hash=${'a'.repeat(64)}`, {
      'sec-fetch-site': 'cross-site',
    });
    expect(lookup.status).toBe(403);
    expect(JSON.parse(lookup.body)).toMatchObject({ status: 'error' });
    const inbox = await rawRequest(`${box.inboxUrl}/api/messages`, origin, 'DELETE');
    expect(inbox.status).toBe(403);
    expect(JSON.parse(inbox.body)).toMatchObject({ error: 'cross_site' });
    expect(box.requests).toHaveLength(0);
    expect((await (await fetch(`${box.inboxUrl}/api/messages`)).json()).messages).toEqual([]);
  });

  it('keeps serving the clients, a plain fetch and the page’s own origin', async () => {
    const box = await start();
    await smsClient(box).send({
      phoneNumbers: '13800138000',
      templateCode: 'SMS_100000001',
      templateParam: { code: '1' },
    });
    expect((await fetch(`${box.url}/hash_scan?api_key=${box.apiKey}&hash=${'a'.repeat(64)}`)).status).toBe(200);
    const own = await rawRequest(`${box.inboxUrl}/api/messages`, { origin: box.url }, 'DELETE');
    expect(own.status).toBe(204);
    expect(box.messages).toHaveLength(1);
  });
});
