import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../../src/errors/configuration-error.js';
import { DEFAULT_INBOX_LIMIT, startSandbox } from '../../../src/sandbox/index.js';
import { inboxGet, rawRequest, smsClient, useSandbox } from './inbox-helpers.js';

const start = useSandbox();

const TOKEN = 'inbox-token-0123456789abcdef';

describe('the inbox page', () => {
  it('is served under a strict Content-Security-Policy, its script a separate resource', async () => {
    const box = await start();
    const page = await fetch(box.inboxUrl);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    const html = await page.text();
    expect(html).toContain('<script src="/_inbox/inbox.js" defer></script>');
    expect(html).not.toMatch(/<script>|<style|\son[a-z]+=/i);
    const script = await fetch(`${box.inboxUrl}/inbox.js`);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const source = await script.text();
    // Data reaches the page through textContent only.
    expect(source).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(/);
    expect((await fetch(`${box.inboxUrl}/inbox.css`)).headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect((await fetch(`${box.inboxUrl}/`)).status).toBe(200);
  });
});

describe('who may read the inbox', () => {
  it('on loopback, answers loopback host names only (a rebound domain gets 403)', async () => {
    const box = await start();
    const { port } = new URL(box.url);
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, `app.localhost:${port}`]) {
      expect((await rawRequest(`${box.inboxUrl}/api/messages`, { host })).status).toBe(200);
    }
    for (const host of [`evil.example:${port}`, `127.0.0.1.evil.example:${port}`, `0x7f.0.0.1.nip.io:${port}`]) {
      const answer = await rawRequest(`${box.inboxUrl}/api/messages`, { host });
      expect(answer.status).toBe(403);
      expect((await rawRequest(box.inboxUrl, { host })).status).toBe(403);
    }
    // The services themselves answer any host, as before.
    expect((await rawRequest(`${box.url}/hash_scan?api_key=x`, { host: 'evil.example' })).status).toBe(401);
  });

  it('bound beyond loopback, refuses to start without a token', async () => {
    const error = await startSandbox({ host: '0.0.0.0' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error).toMatchObject({ option: 'inbox.token' });
    expect(String((error as Error).message)).toContain('reachable from the network');
    await expect(startSandbox({ inbox: { token: 'short' } })).rejects.toMatchObject({ option: 'inbox.token' });
    await expect(startSandbox({ inbox: { limit: 0 } })).rejects.toMatchObject({ option: 'inbox.limit' });
    await expect(startSandbox({ inbox: { limit: 1.5 } })).rejects.toMatchObject({ option: 'inbox.limit' });
  });

  it('bound beyond loopback with a token, answers data only with it; the page says it is exposed', async () => {
    const box = await start({ host: '0.0.0.0', inbox: { token: TOKEN } });
    const local = box.inboxUrl.replace('0.0.0.0', '127.0.0.1');
    const at = (path: string, headers: Record<string, string> = {}) => rawRequest(`${local}${path}`, headers);
    expect((await at('/api/messages')).status).toBe(401);
    expect((await at('/api/messages', { authorization: 'Bearer wrong-token-0123456789abcdef' })).status).toBe(401);
    expect((await at('/api/messages', { authorization: `Bearer ${TOKEN}x` })).status).toBe(401);
    expect((await at('/api/events')).status).toBe(401);
    expect((await rawRequest(`${local}/api/messages`, {}, 'DELETE')).status).toBe(401);
    const allowed = await at('/api/messages', { authorization: `Bearer ${TOKEN}`, host: 'anything.example' });
    expect(allowed.status).toBe(200);
    expect(JSON.parse(allowed.body)).toMatchObject({ loopback: false, address: '0.0.0.0' });
    expect((await at(`/api/messages?token=${TOKEN}`)).status).toBe(200);
    // The page and its resources hold no data: they load, and the page asks for the token.
    expect((await at('')).status).toBe(200);
    expect((await at('/inbox.js')).status).toBe(200);
    // Never echoed.
    expect(allowed.body).not.toContain(TOKEN);
    expect((await at('/api/messages')).body).not.toContain(TOKEN);
  });

  it('refuses at start a token the page could never send (a space, a tab, a line break, non-ASCII), naming the option and not the token', async () => {
    for (const token of [
      'inbox token 0123456789',
      ` ${TOKEN}`,
      `${TOKEN}\n`,
      `${TOKEN}\t`,
      `${TOKEN}\u00a0`,
      `${TOKEN}é`,
      `${TOKEN}\u0000`,
    ]) {
      const error = await startSandbox({ inbox: { token } }).catch((e: unknown) => e);
      expect(error, JSON.stringify(token)).toBeInstanceOf(ConfigurationError);
      expect(error).toMatchObject({ option: 'inbox.token' });
      expect(String((error as Error).message)).toContain('printable ASCII without spaces');
      expect(String((error as Error).message)).not.toContain(TOKEN);
    }
    // Punctuation is fine: base64 and URL-safe tokens both start.
    const box = await start({ inbox: { token: 'a+b/c=d-e_f.g~h!0123456789' } });
    const answer = await inboxGet(box, '/api/messages', { authorization: 'Bearer a+b/c=d-e_f.g~h!0123456789' });
    expect(answer.status).toBe(200);
  });

  it('on loopback with a token, asks for it too', async () => {
    const box = await start({ inbox: { token: TOKEN } });
    expect((await inboxGet(box, '/api/messages')).status).toBe(401);
    expect((await inboxGet(box, '/api/messages', { authorization: `Bearer ${TOKEN}` })).status).toBe(200);
  });
});

describe('bounds', () => {
  it('keeps the last 1,000 messages and lookups by default', () => {
    expect(DEFAULT_INBOX_LIMIT).toBe(1000);
  });

  it('keeps the last `limit` of each: a flood does not grow the inbox', async () => {
    const box = await start({ inbox: { limit: 3 } });
    const sms = smsClient(box);
    for (let i = 0; i < 5; i += 1)
      await sms.send({
        phoneNumbers: '13800138000',
        templateCode: 'SMS_100000001',
        templateParam: { code: `10000${i}` },
      });
    for (let i = 0; i < 7; i += 1)
      await fetch(`${box.hashScanUrl}/hash_scan?api_key=${box.apiKey}&hash=${'a'.repeat(31)}${i}`);
    const { body } = await inboxGet(box, '/api/messages');
    expect((body as { messages: { id: number }[] }).messages.map((m) => m.id)).toEqual([5, 4, 3]);
    const lookups = (await inboxGet(box, '/api/lookups')).body as { lookups: { id: number }[] };
    expect(lookups.lookups.map((l) => l.id)).toEqual([7, 6, 5]);
    expect(await inboxGet(box, '/api/messages/1')).toMatchObject({ status: 404 });
  });

  it('bounds `requests` and `messages` too with `recordLimit` (the CLI sandbox sets 1000)', async () => {
    const box = await start({ recordLimit: 2 });
    const sms = smsClient(box);
    for (const code of ['100001', '100002', '100003']) {
      await sms.send({ phoneNumbers: '13800138000', templateCode: 'SMS_100000001', templateParam: { code } });
    }
    expect(box.messages.map((m) => (m.templateParam as { code: string }).code)).toEqual(['100002', '100003']);
    expect(box.requests).toHaveLength(2);
    await expect(startSandbox({ recordLimit: 0 })).rejects.toMatchObject({ option: 'recordLimit' });
  });

  it('cuts each text field, so one huge send cannot fill the memory', async () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: `${name}` is the template placeholder syntax, not JS.
    const box = await start({ sms: { templates: { SMS_1: 'Hi ${name}' } } });
    await smsClient(box).send({
      phoneNumbers: '13800138000',
      templateCode: 'SMS_1',
      templateParam: { name: 'x'.repeat(100_000) },
    });
    const [message] = (
      (await inboxGet(box, '/api/messages')).body as { messages: { content: string; templateParam: string }[] }
    ).messages;
    expect(message?.content).toHaveLength(4096);
    expect(message?.content.endsWith('…')).toBe(true);
    expect(message?.templateParam.length).toBeLessThanOrEqual(4096);
  });
});

describe('the event stream', () => {
  it('sends a snapshot, then each message, lookup and clear as it happens', async () => {
    const box = await start();
    await smsClient(box).send({
      phoneNumbers: '13800138000',
      templateCode: 'SMS_100000001',
      templateParam: { code: '111111' },
    });
    const controller = new AbortController();
    const response = await fetch(`${box.inboxUrl}/api/events`, { signal: controller.signal });
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let buffered = '';
    const nextEvent = async (): Promise<{ event: string; data: unknown }> => {
      for (;;) {
        const match = /event: (\w+)\ndata: (.*)\n\n/.exec(buffered);
        if (match) {
          buffered = buffered.slice((match.index ?? 0) + match[0].length);
          return { event: match[1] ?? '', data: JSON.parse(match[2] ?? '') };
        }
        const { value, done } = await reader.read();
        if (done) throw new Error('stream ended');
        buffered += decoder.decode(value, { stream: true });
      }
    };
    expect(await nextEvent()).toMatchObject({
      event: 'snapshot',
      data: { info: { loopback: true }, messages: [{ id: 1, verificationCode: '111111' }], lookups: [] },
    });
    await smsClient(box).send({
      phoneNumbers: '13800138000',
      templateCode: 'SMS_100000001',
      templateParam: { code: '222222' },
    });
    expect(await nextEvent()).toMatchObject({
      event: 'message',
      data: { message: { id: 2, verificationCode: '222222' } },
    });
    await fetch(`${box.hashScanUrl}/hash_scan?api_key=${box.apiKey}&hash=${'b'.repeat(64)}`);
    expect(await nextEvent()).toMatchObject({ event: 'lookup', data: { lookup: { id: 1, verdict: 'not_detected' } } });
    await fetch(`${box.inboxUrl}/api/messages`, { method: 'DELETE' });
    expect(await nextEvent()).toMatchObject({ event: 'clear', data: { what: 'messages' } });
    controller.abort();
  });
});
