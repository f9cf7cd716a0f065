/**
 * The inbox page's script, served as `/_inbox/inbox.js` (the policy allows
 * no inline script). It builds every node with `textContent`, never from
 * markup, so a message reading `<img src=x onerror=…>` shows as those
 * characters. It follows the event stream (`/_inbox/api/events`): a
 * snapshot on (re)connection, then each change.
 * @module
 */
export const PAGE_SCRIPT = `'use strict';
(function () {
  var API = '/_inbox/api/';
  var TOKEN_KEY = 'hashscan-sms-inbox-token';
  var limit = 1000;
  // Entries the snapshot left out to stay within its size (the JSON API pages through them all).
  var omitted = { messages: 0, lookups: 0 };
  var older = function (what) { return omitted[what] ? ' · ' + omitted[what] + ' older not shown' : ''; };
  var source = null;
  var $ = function (id) { return document.getElementById(id); };

  // A token in the address (#token=…) is kept for this tab only and taken out of the address bar.
  var fromHash = /^#token=(.+)$/.exec(location.hash);
  if (fromHash) {
    sessionStorage.setItem(TOKEN_KEY, decodeURIComponent(fromHash[1]).trim());
    history.replaceState(null, '', location.pathname);
  }
  var token = function () { return sessionStorage.getItem(TOKEN_KEY); };
  var authHeaders = function () { return token() ? { authorization: 'Bearer ' + token() } : {}; };

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function clock(iso) {
    var time = el('time', '', new Date(iso).toLocaleTimeString());
    time.dateTime = iso;
    time.title = iso;
    return time;
  }
  function setStatus(text, live) {
    $('status').textContent = text;
    $('status').className = live ? 'status live' : 'status';
  }

  function copy(text, button) {
    var done = function () { button.textContent = 'Copied'; setTimeout(function () { button.textContent = 'Copy'; }, 1500); };
    var select = function () {
      var range = document.createRange();
      range.selectNodeContents(button.previousSibling);
      var selection = getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
      if (document.execCommand && document.execCommand('copy')) done();
      else button.textContent = 'Selected: press Ctrl+C';
    };
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(done, select);
    else select();
  }

  function field(list, name, value) {
    if (value === undefined || value === null || value === '') return;
    var wrap = el('div');
    wrap.append(el('dt', '', name), el('dd', '', value));
    list.append(wrap);
  }

  function messageNode(m) {
    var item = el('li', 'message ' + m.outcome);
    item.dataset.id = String(m.id);
    item.dataset.phones = m.phoneNumbers.join(' ');
    var head = el('div', 'head');
    var badge = m.outcome === 'accepted' ? 'accepted' : 'refused · ' + m.code;
    head.append(
      el('span', 'badge', badge),
      el('span', 'recipients', m.phoneNumbers.length ? 'To ' + m.phoneNumbers.join(', ') : 'no recipient'),
      el('span', 'method', m.method),
      clock(m.receivedAt)
    );
    item.append(head);
    var fields = el('dl', 'fields');
    field(fields, 'Sign name', m.signName);
    field(fields, 'Template', m.templateCode);
    field(fields, 'Billed', m.billedCount);
    field(fields, 'RequestId', m.requestId);
    item.append(fields);
    if (m.content !== undefined) item.append(el('p', 'content', m.content));
    else if (m.templateParam !== undefined) {
      item.append(el('div', 'label', 'TemplateParam as sent'), el('pre', 'param', m.templateParam));
    }
    if (m.verificationCode) {
      var otp = el('div', 'otp');
      var button = el('button', 'copy', 'Copy');
      button.type = 'button';
      button.addEventListener('click', function () { copy(m.verificationCode, button); });
      otp.append(el('span', '', 'Code'), el('code', 'code', m.verificationCode), button);
      item.append(otp);
    }
    if (m.stringToSign) {
      var details = el('details', 'to-sign');
      details.open = true;
      details.append(el('summary', '', 'String to sign the sandbox computed (compare with yours)'), el('pre', '', m.stringToSign));
      item.append(details);
    }
    return item;
  }

  function lookupNode(l) {
    var row = el('tr');
    row.dataset.id = String(l.id);
    var time = el('td');
    time.append(clock(l.receivedAt));
    row.append(
      time,
      el('td', 'hash', l.hash === undefined ? '(none)' : l.hash),
      el('td', 'verdict verdict-' + l.verdict.replace(/[^a-z_]/g, ''), l.verdict),
      el('td', 'fault', l.fault || ''),
      el('td', 'http', l.status === undefined ? 'none' : l.status)
    );
    return row;
  }

  function matches(item) {
    var wanted = $('filter').value.replace(/[^0-9]/g, '');
    return wanted === '' || item.dataset.phones.replace(/[^0-9 ]/g, '').indexOf(wanted) !== -1;
  }
  function refresh() {
    var list = $('messages');
    var shown = 0;
    for (var item = list.firstElementChild; item; item = item.nextElementSibling) {
      item.hidden = !matches(item);
      if (!item.hidden) shown += 1;
    }
    var total = list.children.length;
    $('message-count').textContent = total ? (shown === total ? '(' + total + ')' : '(' + shown + ' of ' + total + ')') + older('messages') : '';
    $('no-messages').hidden = total > 0;
    var rows = $('lookups').tBodies[0].children.length;
    $('lookup-count').textContent = rows ? '(' + rows + ')' + older('lookups') : '';
    $('no-lookups').hidden = rows > 0;
    $('lookups').hidden = rows === 0;
  }
  // Newest on top; the page keeps no more than the sandbox does.
  function prepend(parent, node) {
    parent.insertBefore(node, parent.firstChild);
    while (parent.children.length > limit) parent.removeChild(parent.lastChild);
  }
  function addMessage(m) { prepend($('messages'), messageNode(m)); }
  function addLookup(l) { prepend($('lookups').tBodies[0], lookupNode(l)); }

  function showExposure(info) {
    var notice = $('exposure');
    if (info.loopback) {
      notice.textContent = 'Listening on ' + info.address + ', loopback only: nobody else on the network can open this page.';
      notice.className = 'notice';
    } else {
      notice.textContent = 'Listening on ' + info.address + ': reachable from the network, so the inbox asks for its token. Sandbox data only; never point real clients here.';
      notice.className = 'notice exposed';
    }
  }

  function askForToken() {
    if (source) source.close();
    setStatus('locked', false);
    $('token-form').hidden = false;
    $('token').focus();
  }

  function connect() {
    if (source) source.close();
    var query = token() ? '?token=' + encodeURIComponent(token()) : '';
    source = new EventSource(API + 'events' + query);
    source.addEventListener('open', function () { setStatus('live', true); });
    source.addEventListener('snapshot', function (event) {
      var data = JSON.parse(event.data);
      limit = data.info.limit;
      omitted = data.omitted || { messages: 0, lookups: 0 };
      showExposure(data.info);
      $('messages').replaceChildren();
      $('lookups').tBodies[0].replaceChildren();
      data.messages.forEach(addMessage);
      data.lookups.forEach(addLookup);
      refresh();
    });
    source.addEventListener('message', function (event) { addMessage(JSON.parse(event.data).message); refresh(); });
    source.addEventListener('lookup', function (event) { addLookup(JSON.parse(event.data).lookup); refresh(); });
    source.addEventListener('clear', function (event) {
      var what = JSON.parse(event.data).what;
      omitted[what] = 0;
      if (what === 'messages') $('messages').replaceChildren();
      else $('lookups').tBodies[0].replaceChildren();
      refresh();
    });
    source.addEventListener('error', function () {
      setStatus('reconnecting…', false);
      // An event stream does not tell why it failed: ask once whether the token is the reason.
      fetch(API + 'lookups', { headers: authHeaders() }).then(function (response) {
        if (response.status === 401) askForToken();
      }, function () {});
    });
  }

  $('filter').addEventListener('input', refresh);
  $('clear').addEventListener('click', function () {
    ['messages', 'lookups'].forEach(function (what) {
      fetch(API + what, { method: 'DELETE', headers: authHeaders() }).then(function (response) {
        if (response.status === 401) askForToken();
      });
    });
  });
  $('token-form').addEventListener('submit', function (event) {
    event.preventDefault();
    // A token is printable ASCII with no space (checked at start): what a paste adds around it is not part of it.
    var given = $('token').value.trim();
    if (!/^[\x21-\x7e]+$/.test(given)) {
      setStatus('a token is printable ASCII without spaces', false);
      return;
    }
    sessionStorage.setItem(TOKEN_KEY, given);
    $('token').value = '';
    $('token-form').hidden = true;
    connect();
  });
  refresh();
  connect();
})();
`;
