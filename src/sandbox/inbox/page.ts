/**
 * The inbox page and its style sheet: static text with no data in it (the
 * script fills it in with `textContent`), under a policy that allows only
 * the script and style sheet served beside it.
 * @module
 */

/** No inline script or style, no other origin, no frames, no forms posted anywhere. */
export const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'none'; " +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export const PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sandbox inbox · hashscan-sms</title>
<link rel="stylesheet" href="/_inbox/inbox.css">
<script src="/_inbox/inbox.js" defer></script>
</head>
<body>
<header class="top">
  <div class="title">
    <h1>Sandbox inbox</h1>
    <span id="status" class="status" role="status">connecting…</span>
  </div>
  <p id="exposure" class="notice">Checking where this sandbox listens…</p>
  <div class="tools">
    <label for="filter">Filter by phone number</label>
    <input id="filter" type="search" inputmode="tel" placeholder="e.g. 13800138000" autocomplete="off">
    <button id="clear" type="button">Clear</button>
  </div>
</header>
<form id="token-form" class="token-form" hidden>
  <label for="token">This inbox needs the token given when the sandbox was started.</label>
  <input id="token" type="password" autocomplete="off">
  <button type="submit">Open</button>
</form>
<main>
  <section aria-labelledby="messages-title">
    <h2 id="messages-title">Messages <span id="message-count" class="count"></span></h2>
    <p id="no-messages" class="empty">No message yet: send one to this sandbox with SmsClient.</p>
    <ol id="messages" class="messages"></ol>
  </section>
  <section aria-labelledby="lookups-title">
    <h2 id="lookups-title">Lookups <span id="lookup-count" class="count"></span></h2>
    <p id="no-lookups" class="empty">No lookup yet.</p>
    <table id="lookups" class="lookups">
      <thead><tr><th>Time</th><th>Hash</th><th>Verdict</th><th>Fault</th><th>HTTP</th></tr></thead>
      <tbody></tbody>
    </table>
  </section>
</main>
</body>
</html>
`;

export const PAGE_STYLE = `:root { color-scheme: light dark; --accent: #2563eb; --ok: #15803d; --bad: #b91c1c; --muted: #6b7280;
  --card: #ffffff; --bg: #f3f4f6; --line: #e5e7eb; --text: #111827; }
@media (prefers-color-scheme: dark) { :root { --card: #1f2937; --bg: #111827; --line: #374151; --text: #f9fafb; --muted: #9ca3af; } }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; background: var(--bg); color: var(--text); }
.top { position: sticky; top: 0; z-index: 1; background: var(--card); border-bottom: 1px solid var(--line); padding: 12px 24px; }
.title { display: flex; align-items: baseline; gap: 12px; }
h1 { font-size: 20px; margin: 0; }
h2 { font-size: 16px; margin: 24px 0 8px; }
.count { color: var(--muted); font-weight: normal; }
.status { font-size: 13px; color: var(--muted); }
.status.live { color: var(--ok); }
.notice { margin: 6px 0; font-size: 13px; color: var(--muted); }
.notice.exposed { color: var(--bad); font-weight: 600; }
.tools { display: flex; align-items: center; gap: 8px; flex-wrap: wrap; }
.tools input { padding: 5px 8px; min-width: 220px; border: 1px solid var(--line); border-radius: 6px; background: var(--bg); color: var(--text); }
button { padding: 5px 12px; border: 1px solid var(--line); border-radius: 6px; background: var(--bg); color: var(--text); cursor: pointer; }
button:hover { border-color: var(--accent); }
main { padding: 0 24px 32px; max-width: 1100px; }
.token-form { padding: 12px 24px; display: flex; gap: 8px; align-items: center; }
.empty { color: var(--muted); }
.messages { list-style: none; padding: 0; margin: 0; display: grid; gap: 10px; }
.message { background: var(--card); border: 1px solid var(--line); border-left: 4px solid var(--ok); border-radius: 8px; padding: 10px 14px; }
.message.refused { border-left-color: var(--bad); }
.message .head { display: flex; gap: 10px; align-items: baseline; flex-wrap: wrap; }
.badge { font-size: 12px; font-weight: 600; padding: 1px 8px; border-radius: 999px; color: #fff; background: var(--ok); }
.refused .badge { background: var(--bad); }
.method, time { font-size: 12px; color: var(--muted); }
.recipients { font-weight: 600; }
.fields { display: flex; flex-wrap: wrap; gap: 4px 18px; margin: 6px 0; font-size: 13px; }
.fields dt { color: var(--muted); display: inline; }
.fields dd { display: inline; margin: 0 0 0 4px; font-family: ui-monospace, monospace; }
.content { margin: 6px 0; padding: 8px 10px; background: var(--bg); border-radius: 6px; white-space: pre-wrap; overflow-wrap: anywhere; }
.otp { display: flex; align-items: center; gap: 8px; font-size: 13px; }
.otp code { font-size: 20px; font-weight: 700; letter-spacing: 2px; padding: 2px 8px; border: 1px dashed var(--accent); border-radius: 6px; user-select: all; }
.label, .to-sign summary { margin-top: 6px; font-size: 12px; color: var(--muted); cursor: default; }
pre { margin: 4px 0; padding: 8px 10px; background: var(--bg); border-radius: 6px; white-space: pre-wrap; overflow-wrap: anywhere; font-size: 12px; }
.lookups { width: 100%; border-collapse: collapse; background: var(--card); border: 1px solid var(--line); border-radius: 8px; font-size: 13px; }
.lookups th, .lookups td { text-align: left; padding: 6px 10px; border-bottom: 1px solid var(--line); }
.lookups td.hash { font-family: ui-monospace, monospace; overflow-wrap: anywhere; }
.verdict-malicious { color: var(--bad); font-weight: 600; }
.verdict-not_detected { color: var(--ok); }
.verdict-fault { color: #b45309; font-weight: 600; }
[hidden] { display: none !important; }
`;
