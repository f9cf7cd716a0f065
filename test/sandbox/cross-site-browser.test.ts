/**
 * The attack of issue 35, in Debian's Chromium: a page served from another loopback origin (another
 * port, so the same *site* for the browser) posts validly signed sends to the sandbox's SMS address,
 * by a plain form POST and by a `fetch` in `no-cors` mode, and asks for a lookup. The sandbox's
 * keys are public test keys, so the signature is no obstacle: the origin check is. Nothing lands,
 * each request reached the sandbox and got 403 (seen from the browser's network events), and
 * clients that are not browsers are still served.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { signedSendRequest } from '../../src/sms/outgoing-request.js';
import { browserTestsRun, launchChromium } from './inbox/chromium.js';
import { smsClient } from './inbox/inbox-helpers.js';

const WAIT = { timeout: 20_000 };

/** A send of `code` to 13800138000, signed with the sandbox's own keys, as a form body. */
function signedBody(sandbox: Sandbox, code: string): string {
  const send = { PhoneNumbers: '13800138000', TemplateCode: 'SMS_100000001', TemplateParam: `{"code":"${code}"}` };
  const keys = { accessKeyId: sandbox.accessKeyId, accessKeySecret: sandbox.accessKeySecret, securityToken: undefined };
  const { request } = signedSendRequest('POST', send, { regionId: 'cn-hangzhou', version: '2017-05-25' }, keys);
  return request.body ?? '';
}

/** The attacker's page: a self-submitting form into a frame, a no-cors fetch and a no-cors lookup. */
function attackPage(sandbox: Sandbox): string {
  const fields = [...new URLSearchParams(signedBody(sandbox, '111111'))]
    .map(([name, value]) => `<input type="hidden" name="${name}" value="${value.replaceAll('"', '&quot;')}">`)
    .join('');
  const lookup = `${sandbox.url}/hash_scan?api_key=${sandbox.apiKey}&hash=${'a'.repeat(64)}`;
  return `<!doctype html><title>elsewhere</title>
<iframe name="sink"></iframe>
<form id="f" method="POST" action="${sandbox.url}/" target="sink">${fields}</form>
<script>
  document.getElementById('f').submit();
  fetch(${JSON.stringify(`${sandbox.url}/`)}, {
    method: 'POST', mode: 'no-cors',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: ${JSON.stringify(signedBody(sandbox, '222222'))},
  });
  fetch(${JSON.stringify(lookup)}, { mode: 'no-cors' });
</script>`;
}

describe.skipIf(!browserTestsRun)('a page on another origin, in Chromium', { timeout: 90_000 }, () => {
  let sandbox: Sandbox;
  let elsewhere: Server;
  let browser: Awaited<ReturnType<typeof launchChromium>> | undefined;
  let page: Page;

  beforeAll(async () => {
    sandbox = await startSandbox();
    elsewhere = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(attackPage(sandbox));
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
    browser = await launchChromium();
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => elsewhere?.close(resolve));
    await sandbox?.close();
  });

  it('cannot send through the SMS address or look up: each request is answered 403 and nothing lands', async () => {
    const refused: Promise<number>[] = [
      // The form POST (a navigation of the frame) and the no-cors fetch, both to {url}/.
      ...[0, 1].map(() => page.waitForResponse((r) => r.url() === `${sandbox.url}/`, WAIT).then((r) => r.status())),
      page.waitForResponse((r) => r.url().startsWith(`${sandbox.url}/hash_scan`), WAIT).then((r) => r.status()),
    ];
    const { port } = elsewhere.address() as AddressInfo;
    expect(port).not.toBe(Number(new URL(sandbox.url).port));
    await page.goto(`http://127.0.0.1:${port}/`);
    expect(await Promise.all(refused)).toEqual([403, 403, 403]);
    expect(sandbox.requests).toEqual([]);
    expect(sandbox.messages).toEqual([]);
    const inbox = (await (await fetch(`${sandbox.inboxUrl}/api/messages`)).json()) as { messages: unknown[] };
    expect(inbox.messages).toEqual([]);
  });

  it('still serves the SmsClient and a plain fetch without Origin', async () => {
    await smsClient(sandbox).send({
      phoneNumbers: '13800138000',
      templateCode: 'SMS_100000001',
      templateParam: { code: '333333' },
    });
    const plain = await fetch(`${sandbox.url}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: signedBody(sandbox, '444444'),
    });
    expect(plain.status).toBe(200);
    expect(sandbox.messages.map((m) => (m.templateParam as { code: string }).code)).toEqual(['333333', '444444']);
  });
});
