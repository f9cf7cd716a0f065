// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${name}` is the template placeholder syntax, not JS.
/**
 * The inbox page in a real browser: Debian's Chromium driven by
 * playwright-core (see chromium.ts for when it is skipped).
 */
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HashScanClient } from '../../../src/index.js';
import {
  EICAR_RECORD,
  SANDBOX_FAULT_HASHES,
  SANDBOX_FAULT_PHONE_NUMBERS,
  SANDBOX_TEMPLATES,
  type Sandbox,
  startSandbox,
} from '../../../src/sandbox/index.js';
import { browserTestsRun, launchChromium } from './chromium.js';
import { smsClient } from './inbox-helpers.js';

const WAIT = { timeout: 20_000 };
const HOSTILE_IMG = '<img src=x onerror=alert(1)>';
const HOSTILE_SCRIPT = '</script><script>alert(2)</script>';

describe.skipIf(!browserTestsRun)('the inbox page in Chromium', { timeout: 90_000 }, () => {
  let sandbox: Sandbox;
  let browser: Awaited<ReturnType<typeof launchChromium>> | undefined;
  let context: BrowserContext;
  let page: Page;
  const dialogs: string[] = [];
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    sandbox = await startSandbox({
      sms: { templates: { ...SANDBOX_TEMPLATES, SMS_900000001: 'Hi ${name}, welcome.' } },
    });
    browser = await launchChromium();
    context = browser.context;
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(sandbox.url).origin });
    page = context.pages()[0] ?? (await context.newPage());
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => consoleErrors.push(String(error)));
    await page.goto(sandbox.inboxUrl);
    await page.locator('#status.live').waitFor(WAIT);
    // Kept on the window until the end: proof that nothing below reloaded the page.
    await page.evaluate(() => Object.assign(window, { inboxTestMark: 'same page' }));
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await sandbox?.close();
  });

  const cards = () => page.locator('#messages > li:not([hidden])');
  const card = (text: string) => page.locator('#messages > li', { hasText: text });

  it('says it listens on loopback only', async () => {
    expect(await page.locator('#exposure').textContent()).toBe(
      'Listening on 127.0.0.1, loopback only: nobody else on the network can open this page.',
    );
    expect(await page.locator('#no-messages').isVisible()).toBe(true);
  });

  it('shows sends by POST and by GET as they arrive, with the right content', async () => {
    const sms = smsClient(sandbox);
    await sms.send(
      {
        phoneNumbers: '13800138000',
        templateCode: 'SMS_100000001',
        templateParam: { code: '482913' },
        signName: 'DemoShop',
      },
      { method: 'POST' },
    );
    await sms.send(
      {
        phoneNumbers: ['13900139000', '13700137000'],
        templateCode: 'SMS_100000002',
        templateParam: { name: 'Ada', order: 'A-1' },
      },
      { method: 'GET' },
    );
    await expect.poll(() => cards().count(), WAIT).toBe(2);
    const [newest, oldest] = await cards().all();
    expect(await newest?.locator('.badge').textContent()).toBe('accepted');
    expect(await newest?.locator('.recipients').textContent()).toBe('To 13900139000, 13700137000');
    expect(await newest?.locator('.method').textContent()).toBe('GET');
    expect(await newest?.locator('.content').textContent()).toBe('Hello Ada, your order A-1 has shipped.');
    expect(await newest?.locator('.fields').textContent()).toContain('Billed2');
    expect(await newest?.locator('.otp').count()).toBe(0);
    expect(await oldest?.locator('.method').textContent()).toBe('POST');
    expect(await oldest?.locator('.content').textContent()).toBe(
      'Your verification code is 482913. It expires in 5 minutes.',
    );
    expect(await oldest?.locator('.fields').textContent()).toContain('Sign nameDemoShop');
    expect(await oldest?.locator('.fields').textContent()).toContain('TemplateSMS_100000001');
    expect(await oldest?.locator('.otp code').textContent()).toBe('482913');
    expect(await page.locator('#message-count').textContent()).toBe('(2)');
  });

  it('copies the verification code with one click', async () => {
    const otp = card('482913').locator('.otp');
    await otp.locator('button').click();
    await expect.poll(() => otp.locator('button').textContent(), WAIT).toBe('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('482913');
  });

  it('shows a refused send with its code, and a bad signature with the string to sign', async () => {
    await smsClient(sandbox)
      .send({
        phoneNumbers: SANDBOX_FAULT_PHONE_NUMBERS.rate_limit,
        templateCode: 'SMS_100000001',
        templateParam: { code: '1' },
      })
      .catch(() => undefined);
    await smsClient(sandbox, 'not-the-secret')
      .send({ phoneNumbers: '13600136000', templateCode: 'SMS_100000001', templateParam: { code: '2' } })
      .catch(() => undefined);
    const limited = card(SANDBOX_FAULT_PHONE_NUMBERS.rate_limit);
    await limited.waitFor(WAIT);
    expect(await limited.locator('.badge').textContent()).toBe('refused · isv.BUSINESS_LIMIT_CONTROL');
    const mismatch = card('13600136000');
    await mismatch.waitFor(WAIT);
    expect(await mismatch.locator('.badge').textContent()).toBe('refused · SignatureDoesNotMatch');
    const toSign = await mismatch.locator('.to-sign pre').textContent();
    expect(toSign).toMatch(/^POST&%2F&AccessKeyId%3D/);
    expect(toSign).toContain('PhoneNumbers%3D13600136000');
  });

  it('shows lookups with their verdict and fault', async () => {
    const client = new HashScanClient({
      baseUrl: sandbox.hashScanUrl,
      apiKey: sandbox.apiKey,
      cache: false,
      retry: { retries: 0 },
    });
    await client.scan(EICAR_RECORD.sha256);
    await client.scan(SANDBOX_FAULT_HASHES['http-status']).catch(() => undefined);
    const rows = page.locator('#lookups tbody tr');
    await expect.poll(() => rows.count(), WAIT).toBe(2);
    expect(await rows.nth(0).locator('td').allTextContents()).toEqual([
      expect.any(String),
      SANDBOX_FAULT_HASHES['http-status'],
      'fault',
      'http-status',
      '503',
    ]);
    expect(await rows.nth(1).locator('.verdict').textContent()).toBe('malicious');
    expect(await rows.nth(1).locator('.hash').textContent()).toBe(EICAR_RECORD.sha256);
  });

  it('shows hostile values as text and runs no script', async () => {
    const sms = smsClient(sandbox);
    await sms.send({
      phoneNumbers: '13500135000',
      templateCode: 'SMS_900000001',
      templateParam: { name: HOSTILE_IMG },
    });
    await sms.send(
      {
        phoneNumbers: '13500135001',
        templateCode: 'SMS_900000001',
        templateParam: { name: HOSTILE_SCRIPT },
        signName: '<b>Shop</b>',
      },
      { method: 'GET' },
    );
    // Refused: the page shows the TemplateParam as sent.
    await sms
      .send({
        phoneNumbers: '13500135002',
        templateCode: 'SMS_NOT_THERE',
        templateParam: { x: `${HOSTILE_SCRIPT}${HOSTILE_IMG}` },
      })
      .catch(() => undefined);
    await fetch(`${sandbox.hashScanUrl}/hash_scan?api_key=${sandbox.apiKey}&hash=${encodeURIComponent(HOSTILE_IMG)}`);
    await card('13500135002').waitFor(WAIT);
    await page.locator('#lookups tbody tr', { hasText: HOSTILE_IMG }).waitFor(WAIT);

    expect(await card('13500135000').locator('.content').textContent()).toBe(`Hi ${HOSTILE_IMG}, welcome.`);
    expect(await card('13500135001').locator('.content').textContent()).toBe(`Hi ${HOSTILE_SCRIPT}, welcome.`);
    expect(await card('13500135001').locator('.fields').textContent()).toContain('Sign name<b>Shop</b>');
    expect(await card('13500135002').locator('.param').textContent()).toBe(
      JSON.stringify({ x: `${HOSTILE_SCRIPT}${HOSTILE_IMG}` }),
    );
    // Nothing became markup: no image, no bold, no second script, no dialog.
    const injected = await page.evaluate(() => ({
      images: document.querySelectorAll('img').length,
      bold: document.querySelectorAll('b').length,
      scripts: Array.from(document.querySelectorAll('script'), (script) => script.getAttribute('src')),
    }));
    expect(injected).toEqual({ images: 0, bold: 0, scripts: ['/_inbox/inbox.js'] });
    await page.waitForTimeout(300);
    expect(dialogs).toEqual([]);
  });

  it('filters by phone number', async () => {
    await page.locator('#filter').fill('139 0013 9000');
    await expect.poll(() => cards().count(), WAIT).toBe(1);
    expect(await cards().first().locator('.recipients').textContent()).toBe('To 13900139000, 13700137000');
    expect(await page.locator('#message-count').textContent()).toMatch(/^\(1 of \d+\)$/);
    await page.locator('#filter').fill('');
    await expect.poll(() => cards().count(), WAIT).toBeGreaterThan(5);
  });

  it('looks right (a screenshot kept in the temp folder)', async () => {
    // Beside the run's own temp dir, which the suite empties: kept for CI to collect.
    const path = join(process.env.INBOX_SCREENSHOT_DIR ?? dirname(tmpdir()), 'hashscan-sms-inbox.png');
    await page.screenshot({ path, fullPage: true });
    console.log(`inbox screenshot: ${path}`);
    expect(existsSync(path)).toBe(true);
  });

  it('bound beyond loopback, says so and asks for the token before showing anything', async () => {
    const token = 'browser-inbox-token-0123456789';
    const exposed = await startSandbox({ host: '0.0.0.0', inbox: { token } });
    const other = await context.newPage();
    try {
      const { port } = new URL(exposed.url);
      // The clients take plain http: for loopback only: reach the 0.0.0.0 sandbox through 127.0.0.1.
      await smsClient({ ...exposed, smsUrl: `http://127.0.0.1:${port}` }).send({
        phoneNumbers: '13800138000',
        templateCode: 'SMS_100000001',
        templateParam: { code: '909090' },
      });
      await other.goto(`http://127.0.0.1:${port}/_inbox`);
      await other.locator('#token-form').waitFor(WAIT);
      expect(await other.locator('#status').textContent()).toBe('locked');
      expect(await other.locator('#messages > li').count()).toBe(0);
      // Pasted with a space and a line break around it: the page takes the token, not them.
      await other.locator('#token').fill(` ${token}\n`);
      await other.locator('#token-form button').click();
      await other.locator('#messages > li', { hasText: '909090' }).waitFor(WAIT);
      expect(await other.locator('#exposure').textContent()).toMatch(
        /^Listening on 0\.0\.0\.0: reachable from the network/,
      );
      expect(await other.locator('#exposure').getAttribute('class')).toBe('notice exposed');
      expect(await other.locator('#token-form').isHidden()).toBe(true);
    } finally {
      await other.close();
      await exposed.close();
    }
  });

  it('clears, and keeps showing new sends without a reload', async () => {
    await page.locator('#clear').click();
    await expect.poll(() => cards().count(), WAIT).toBe(0);
    await expect.poll(() => page.locator('#lookups tbody tr').count(), WAIT).toBe(0);
    expect(await page.locator('#no-messages').isVisible()).toBe(true);
    expect(await sandbox.messages.length).toBeGreaterThan(0);
    await smsClient(sandbox).send({
      phoneNumbers: '13800138000',
      templateCode: 'SMS_100000001',
      templateParam: { code: '777777' },
    });
    await card('777777').waitFor(WAIT);
    expect(await cards().count()).toBe(1);
    expect(await page.evaluate(() => (window as { inboxTestMark?: string }).inboxTestMark)).toBe('same page');
    // The page keeps to its own policy: no violation, no script error.
    expect(consoleErrors).toEqual([]);
  });
});
