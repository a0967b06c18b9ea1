// ragsynth review page. Live mode talks to the local server (every decision saved at once);
// static mode renders the data embedded in the file, read-only. No library, no network.
(function () {
  'use strict';

  const boot = JSON.parse(document.getElementById('ragsynth-data').textContent);
  const live = boot.mode === 'live';
  const TYPES = ['lookup', 'identifier', 'comparison', 'multi_hop', 'unanswerable'];
  const STATUSES = ['pending', 'accepted', 'edited', 'rejected', 'needs_label'];
  const COLORS = {
    real: '#3b6fb6', synthetic: '#e08a2e',
    accepted: '#2f9e5b', edited: '#1b8aa6', rejected: '#d64545', pending: '#a0a7b4', needs_label: '#8a5cd1',
  };

  const S = {
    cases: [], version: null, file: '', explanations: {}, lexicalVerdict: null,
    // Live, the page opens on what still needs a person: pending cases and those needing a label.
    filters: { status: live ? 'todo' : '', type: '', rule: '', source: '', doc: '' },
    current: null, detail: null, mode: 'view', busy: false, view: 'review',
  };

  // ---------- small DOM helpers ----------
  function h(tag, attrs, ...kids) {
    const el = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === 'class') el.className = v;
      // Through the CSSOM: the page's content security policy forbids style attributes.
      else if (k === 'style') el.style.cssText = v;
      else if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
      else el.setAttribute(k, v === true ? '' : v);
    }
    for (const kid of kids.flat()) {
      if (kid === null || kid === undefined || kid === false) continue;
      el.append(kid instanceof Node ? kid : String(kid));
    }
    return el;
  }
  const $ = (id) => document.getElementById(id);
  const pct = (x) => (x * 100).toFixed(0) + '%';
  const label = (s) => (s || '').replace(/_/g, ' ');
  const waiting = (c) => c.review === 'pending' || c.review === 'needs_label';

  // The little Markdown rule texts use: paragraphs, **bold** and `code`, built as DOM nodes
  // (never as HTML), so nothing in the text can become markup.
  function inline(text) {
    return text.split(/(\*\*[^*]+\*\*|`[^`]+`)/).filter(Boolean).map((part) =>
      part.startsWith('**') && part.endsWith('**') && part.length > 4 ? h('strong', {}, part.slice(2, -2))
        : part.startsWith('`') && part.endsWith('`') && part.length > 2 ? h('code', {}, part.slice(1, -1))
          : part);
  }
  function markdown(text) {
    return text.split(/\n\s*\n/).map((p) => p.trim()).filter(Boolean).map((p) => h('p', {}, inline(p.replace(/\s*\n\s*/g, ' '))));
  }

  function banner(text, kind) {
    const b = $('banner');
    b.textContent = text;
    b.className = 'banner' + (kind ? ' ' + kind : '');
    b.hidden = !text;
  }

  async function api(path, options) {
    const res = await fetch(path, Object.assign({ headers: { 'Content-Type': 'application/json' } }, options || {}));
    let body = null;
    try { body = await res.json(); } catch (_) { body = null; }
    return { status: res.status, ok: res.ok, body: body || {} };
  }

  // ---------- data ----------
  async function load() {
    let data = boot;
    if (live) {
      const r = await api('/api/cases');
      if (!r.ok) { banner('Could not load the test set: ' + (r.body.error || r.status), 'error'); return; }
      data = r.body;
    }
    S.cases = data.cases;
    S.version = data.version || null;
    S.file = data.file || '';
    S.explanations = data.explanations || {};
    S.lexicalVerdict = data.lexical_verdict || null;
    $('file').textContent = S.file;
    fillFilters();
    renderProgress();
    renderList();
    if (S.view === 'summary') renderSummary();
    const list = filtered();
    const keep = S.current && list.find((c) => c.id === S.current);
    await show(keep ? S.current : (list[0] && list[0].id));
  }

  function filtered() {
    const f = S.filters;
    return S.cases.filter((c) =>
      (!f.status || (f.status === 'todo' ? waiting(c) : c.review === f.status)) &&
      (!f.type || (c.type || '') === f.type) &&
      (!f.rule || (f.rule === '*' ? c.flags.length > 0 : c.flags.includes(f.rule))) &&
      (!f.source || c.source === f.source) &&
      (!f.doc || c.docs.includes(f.doc)));
  }

  function fillFilters() {
    const count = (pred) => S.cases.filter(pred).length;
    const types = [...new Set(S.cases.map((c) => c.type || '').filter(Boolean))].sort();
    const rules = [...new Set(S.cases.flatMap((c) => c.flags))].sort();
    const docs = [...new Set(S.cases.flatMap((c) => c.docs))].sort();
    const opts = {
      status: [['', 'All statuses'], ['todo', 'to review (' + count(waiting) + ')']].concat(STATUSES.map((s) => [s, label(s) + ' (' + count((c) => c.review === s) + ')'])),
      type: [['', 'All types']].concat(types.map((t) => [t, label(t) + ' (' + count((c) => c.type === t) + ')'])),
      rule: [['', 'Any or none'], ['*', 'Any rule (' + count((c) => c.flags.length > 0) + ')']].concat(rules.map((r) => [r, r + ' (' + count((c) => c.flags.includes(r)) + ')'])),
      source: [['', 'Real and synthetic'], ['synthetic', 'synthetic (' + count((c) => c.source === 'synthetic') + ')'], ['real', 'real (' + count((c) => c.source === 'real') + ')']],
      doc: [['', 'All documents']].concat(docs.map((d) => [d, d])),
    };
    for (const [key, list] of Object.entries(opts)) {
      const sel = $('f-' + key);
      sel.replaceChildren(...list.map(([v, t]) => h('option', { value: v }, t)));
      sel.value = S.filters[key];
      if (sel.value !== S.filters[key]) { S.filters[key] = ''; sel.value = ''; }
    }
  }

  // ---------- progress and list ----------
  function renderProgress() {
    const syn = S.cases.filter((c) => c.source === 'synthetic');
    const done = syn.filter((c) => c.review !== 'pending').length;
    $('progress-text').textContent = syn.length
      ? done + ' of ' + syn.length + ' synthetic reviewed'
      : S.cases.length + ' cases';
    $('progress-fill').style.width = syn.length ? pct(done / syn.length) : '0%';
  }

  function renderList() {
    const list = filtered();
    $('list-count').textContent = list.length + ' of ' + S.cases.length + ' cases';
    const ol = $('case-list');
    ol.replaceChildren(...list.map((c) => h('li', {
      class: c.id === S.current ? 'current' : '',
      'data-id': c.id,
      title: c.question,
      onclick: () => { S.mode = 'view'; show(c.id); },
    },
    h('span', { class: 'dot', style: 'background:' + (COLORS[c.review] || COLORS.pending) }),
    h('span', { class: 'q' }, c.question),
    h('span', { class: 'meta' },
      h('span', {}, c.id),
      c.type ? h('span', {}, label(c.type)) : null,
      h('span', {}, c.source),
      c.flags.length ? h('span', { class: 'flagged' }, c.flags.join(' ')) : null))));
    if (!list.length) ol.append(h('li', { class: 'empty' }, 'No case matches these filters.'));
    const cur = ol.querySelector('li.current');
    if (cur) cur.scrollIntoView({ block: 'nearest' });
  }

  // ---------- the case card ----------
  async function show(id) {
    S.current = id || null;
    S.detail = null;
    if (id) {
      if (live) {
        const r = await api('/api/cases/' + encodeURIComponent(id));
        if (!r.ok) { banner(r.body.error || 'Could not load case ' + id, 'error'); return; }
        S.detail = r.body;
      } else {
        S.detail = boot.details[id];
      }
    }
    renderList();
    renderCard();
  }

  // Text with quote and copied-word marks; offsets are in characters (code points).
  function marked(text, marks, quote, offset) {
    const chars = Array.from(text);
    const base = offset || 0;
    const kind = new Array(chars.length).fill('');
    const inQuote = new Array(chars.length).fill(false);
    for (const m of marks || []) for (let i = m.start - base; i < m.end - base; i++) if (i >= 0 && i < chars.length) kind[i] = m.kind;
    if (quote) for (let i = quote[0] - base; i < quote[1] - base; i++) if (i >= 0 && i < chars.length) inQuote[i] = true;
    const frag = document.createDocumentFragment();
    let i = 0;
    while (i < chars.length) {
      let j = i;
      while (j < chars.length && kind[j] === kind[i] && inQuote[j] === inQuote[i]) j++;
      const piece = chars.slice(i, j).join('');
      const cls = [kind[i] ? 'cp-' + kind[i] : '', inQuote[i] ? 'q' : ''].filter(Boolean).join(' ');
      frag.append(cls ? h('mark', { class: cls }, piece) : piece);
      i = j;
    }
    return frag;
  }

  function chip(text, cls, style) { return h('span', { class: 'chip ' + (cls || ''), style }, text); }

  function renderCard() {
    const area = $('card');
    const d = S.detail;
    if (!d) {
      // "Every case has been reviewed" only when that is so: needs_label cases wait too.
      const todo = S.cases.filter(waiting).length;
      const asksTodo = ['todo', 'pending', 'needs_label'].includes(S.filters.status);
      area.replaceChildren(h('div', { class: 'card' }, h('section', { class: 'empty', id: 'empty-card' },
        S.cases.length === 0 ? 'This test set has no cases.'
          : todo === 0 && asksTodo ? 'Every case has been reviewed. The summary tab shows the result.'
            : 'No case matches these filters.' + (todo ? ' ' + todo + ' case(s) still wait for a person: Status \u201cto review\u201d lists them.' : ''))));
      return;
    }
    const list = filtered();
    const pos = list.findIndex((c) => c.id === d.id);
    const head = h('section', { class: 'card-head' },
      h('span', { class: 'case-id' }, d.id),
      chip(label(d.review), 'status', 'background:' + (COLORS[d.review] || COLORS.pending)),
      chip(d.source, 'src-' + d.source),
      d.type ? chip(label(d.type)) : null,
      d.topic ? chip(d.topic) : null,
      d.split === 'heldout' ? chip('held out') : null,
      h('span', { class: 'spacer' }),
      h('span', { class: 'pos' }, (pos >= 0 ? (pos + 1) + ' / ' + list.length : 'outside the filter') + (d.line ? ' · line ' + d.line : '')));

    const question = h('section', {},
      h('h2', {}, 'Question'),
      h('p', { class: 'question', id: 'question' }, marked(d.question, d.question_marks)),
      d.reason ? h('div', { class: 'reason' }, 'Rejected: ' + d.reason) : null);
    const answer = h('section', {},
      h('h2', {}, 'Reference answer'),
      d.answer ? h('p', { class: 'answer' }, d.answer) : h('p', { class: 'answer none' }, 'No reference answer.'));

    // The case's own finding first; the rule's general text (with its generic example)
    // folded away below it.
    const flagKids = d.flag_details.map((f) => {
      const about = f.explanation || S.explanations[f.code] || '';
      const [heading, ...rest] = about.split(/\n\s*\n/);
      const title = (heading || '').replace(f.code + ' ', '');
      return h('div', { class: 'flag' },
        h('span', { class: 'code' }, f.code),
        h('span', { class: 'msg' }, inline(f.message || title || 'Flagged by the audit; ragsynth audit --explain ' + f.code + ' tells why.')),
        rest.length ? h('details', { class: 'why' }, h('summary', {}, f.message ? title : 'About this rule'), markdown(rest.join('\n\n'))) : null);
    });
    const figures = [];
    const fig = (k, v) => figures.push(h('div', { class: 'figure' }, h('div', { class: 'k' }, k), h('div', { class: 'v' }, v)));
    for (const [k, v] of Object.entries(d.audit || {})) {
      if (v === null || typeof v === 'object') continue;
      fig(label(k), typeof v === 'number' && !Number.isInteger(v) ? v.toFixed(2) : String(v));
    }
    fig('longest highlighted phrase', d.longest_run ? d.longest_run + ' words' : 'none');
    const audit = h('section', {},
      h('h2', {}, 'Audit'),
      flagKids.length ? h('div', { class: 'flags' }, flagKids) : h('p', { class: 'none', style: 'margin:0' }, d.audit && Object.keys(d.audit).length ? 'No rule flagged.' : 'Not audited yet: run ragsynth audit --write to add flags.'),
      h('div', { class: 'figures' }, figures));

    const made = d.made && d.made.length
      ? h('section', { id: 'made' }, h('h2', {}, 'How it was written'), h('ul', { class: 'made' }, d.made.map((m) => h('li', {}, inline(m)))))
      : null;

    const passages = h('section', {},
      h('h2', {}, d.passages.length > 1 ? 'Sources (' + d.passages.length + ')' : 'Source'),
      h('div', { class: 'legend' },
        h('span', {}, h('span', { class: 'sw run' }), 'copied phrase'),
        h('span', {}, h('span', { class: 'sw word' }), 'copied word'),
        h('span', {}, h('span', { class: 'sw q' }), 'supporting quote')),
      d.passages.length ? d.passages.map(passageView) : h('p', { class: 'none', style: 'margin:0' }, 'No labelled passage: the corpus should not answer this question.'));

    const card = h('article', { class: 'card', id: 'case-card', 'data-id': d.id }, head, question, answer, made, audit, passages);
    if (live) card.append(actions(d));
    const fresh = area.dataset.shown !== d.id;
    area.replaceChildren(card);
    area.dataset.shown = d.id;
    if (fresh) {
      area.scrollTop = 0;
      // Bring each passage's quote (or its first copied phrase) into its scroll box.
      for (const body of card.querySelectorAll('.passage-body')) {
        const target = body.querySelector('mark.q') || body.querySelector('mark');
        if (target) body.scrollTop = Math.max(0, target.offsetTop - 48);
      }
    }
    if (S.mode === 'reject') { const el = $('reason'); if (el) el.focus(); }
    if (S.mode === 'edit') { const el = $('edit-question'); if (el) el.focus(); }
  }

  function passageView(p, i, all) {
    const body = h('div', { class: 'passage-body' });
    if (p.before) body.append(h('span', { class: 'ctx' }, p.before));
    body.append(marked(p.text, p.marks, p.quote));
    if (p.after) body.append(h('span', { class: 'ctx' }, p.after));
    const whole = live && p.in_corpus ? h('button', {
      type: 'button', class: 'btn small', onclick: async (ev) => {
        const r = await api('/api/doc?path=' + encodeURIComponent(p.doc));
        if (!r.ok) { banner(r.body.error || 'Could not load ' + p.doc, 'error'); return; }
        const chars = Array.from(r.body.text);
        const span = h('span', {}, marked(p.text, p.marks, p.quote));
        body.replaceChildren(h('span', { class: 'ctx' }, chars.slice(0, p.start).join('')), span, h('span', { class: 'ctx' }, chars.slice(p.end).join('')));
        span.scrollIntoView({ block: 'center' });
        ev.target.remove();
      },
    }, 'Whole document') : null;
    return h('div', { class: 'passage' },
      h('div', { class: 'passage-head' },
        all.length > 1 ? h('span', { class: 'n' }, (i + 1) + '.') : null,
        h('span', { class: 'doc' }, p.doc),
        h('span', {}, 'chars ' + p.start + '–' + p.end),
        p.chunk ? h('span', {}, p.chunk) : null,
        !p.in_corpus ? h('span', { class: 'warn' }, 'document not in the loaded corpus: showing the quote') : null,
        whole),
      body);
  }

  function actions(d) {
    if (S.mode === 'reject') {
      return h('div', { class: 'actions' }, h('div', { class: 'form' },
        h('label', {}, 'Why reject it? (optional)', h('input', { id: 'reason', type: 'text', placeholder: 'e.g. copies the passage word for word', onkeydown: (e) => { if (e.key === 'Enter') { e.preventDefault(); confirmReject(); } } })),
        h('div', { class: 'buttons' },
          h('button', { type: 'button', class: 'btn danger solid', id: 'confirm-reject', onclick: confirmReject }, 'Reject', h('kbd', {}, 'Enter')),
          h('button', { type: 'button', class: 'btn', onclick: cancel }, 'Cancel', h('kbd', {}, 'Esc')))));
    }
    if (S.mode === 'edit') {
      const typeOptions = TYPES.concat(d.type && !TYPES.includes(d.type) ? [d.type] : []);
      return h('div', { class: 'actions' }, h('div', { class: 'form', onkeydown: (e) => { if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) { e.preventDefault(); saveEdit(); } } },
        h('label', {}, 'Question', h('textarea', { id: 'edit-question', rows: 2 }, d.question)),
        h('label', {}, 'Reference answer', h('textarea', { id: 'edit-answer', rows: 3 }, d.answer || '')),
        h('div', { class: 'row' },
          h('label', {}, 'Type', h('select', { id: 'edit-type' }, h('option', { value: '' }, '(none)'), typeOptions.map((t) => h('option', { value: t, selected: t === d.type }, label(t))))),
          h('label', {}, 'Topic', h('input', { id: 'edit-topic', type: 'text', value: d.topic || '' }))),
        h('div', { class: 'buttons' },
          h('button', { type: 'button', class: 'btn primary', id: 'save-edit', onclick: saveEdit }, 'Save and accept', h('kbd', {}, 'Ctrl+Enter')),
          h('button', { type: 'button', class: 'btn', onclick: cancel }, 'Cancel', h('kbd', {}, 'Esc')))));
    }
    return h('div', { class: 'actions' },
      h('button', { type: 'button', class: 'btn primary', id: 'accept', onclick: () => decide({ action: 'accept' }) }, 'Accept', h('kbd', {}, 'a')),
      h('button', { type: 'button', class: 'btn danger', id: 'reject', onclick: () => setMode('reject') }, 'Reject', h('kbd', {}, 'r')),
      h('button', { type: 'button', class: 'btn', id: 'edit', onclick: () => setMode('edit') }, 'Edit', h('kbd', {}, 'e')),
      h('button', { type: 'button', class: 'btn', id: 'skip', onclick: () => move(1) }, 'Skip', h('kbd', {}, 's')),
      h('span', { class: 'spacer' }),
      d.review !== 'pending' ? h('button', { type: 'button', class: 'btn', id: 'undo', onclick: () => decide({ action: 'pending' }) }, 'Back to pending', h('kbd', {}, 'u')) : null);
  }

  function setMode(mode) { S.mode = mode; renderCard(); }
  function cancel() { S.mode = 'view'; renderCard(); }
  function confirmReject() { decide({ action: 'reject', reason: $('reason').value }); }
  function saveEdit() {
    decide({
      action: 'edit',
      question: $('edit-question').value,
      answer: $('edit-answer').value,
      type: $('edit-type').value,
      topic: $('edit-topic').value,
    });
  }

  async function decide(decision) {
    if (!live || S.busy || !S.current) return;
    S.busy = true;
    const id = S.current;
    const before = filtered();
    const pos = before.findIndex((c) => c.id === id);
    try {
      const r = await api('/api/cases/' + encodeURIComponent(id), {
        method: 'POST', body: JSON.stringify(Object.assign({ version: S.version }, decision)),
      });
      if (r.status === 409) {
        S.mode = 'view';
        await load();
        // Said once the page shows the file as it now is, so the next key acts on that.
        banner(r.body.error, '');
        return;
      }
      if (!r.ok) { banner(r.body.error || 'Saving failed (' + r.status + ')', 'error'); return; }
      banner('');
      S.version = r.body.version;
      if (r.body.merged) {
        // Saved next to changes made on disk meanwhile (new cases, audit figures): show them.
        S.mode = 'view';
        await load();
        banner(r.body.merged, '');
        return;
      }
      const i = S.cases.findIndex((c) => c.id === id);
      if (i >= 0 && r.body.case) S.cases[i] = r.body.case;
      S.mode = 'view';
      fillFilters();
      renderProgress();
      const after = filtered();
      const stays = after.findIndex((c) => c.id === id);
      const next = stays >= 0 ? after[stays + 1] || after[stays] : after[Math.min(pos, after.length - 1)];
      await show(next ? next.id : null);
      if (S.view === 'summary') renderSummary();
    } finally {
      S.busy = false;
    }
  }

  function move(step) {
    const list = filtered();
    if (!list.length) return;
    const pos = list.findIndex((c) => c.id === S.current);
    const next = pos < 0 ? 0 : Math.max(0, Math.min(list.length - 1, pos + step));
    S.mode = 'view';
    show(list[next].id);
  }

  // ---------- keyboard ----------
  document.addEventListener('keydown', (e) => {
    const typing = /^(INPUT|TEXTAREA|SELECT)$/.test(e.target.tagName);
    if (e.key === 'Escape' && S.mode !== 'view') { e.preventDefault(); cancel(); return; }
    if (typing || e.ctrlKey || e.metaKey || e.altKey || S.view !== 'review') return;
    const key = e.key.toLowerCase();
    const acts = {
      j: () => move(1), k: () => move(-1), s: () => move(1),
      a: () => live && S.detail && decide({ action: 'accept' }),
      r: () => live && S.detail && setMode('reject'),
      e: () => live && S.detail && setMode('edit'),
      u: () => live && S.detail && S.detail.review !== 'pending' && decide({ action: 'pending' }),
    };
    if (acts[key] && S.mode === 'view') { e.preventDefault(); acts[key](); }
  });

  for (const key of Object.keys(S.filters)) {
    $('f-' + key).addEventListener('change', (e) => {
      S.filters[key] = e.target.value;
      S.mode = 'view';
      renderList();
      const list = filtered();
      show(list.find((c) => c.id === S.current) ? S.current : (list[0] && list[0].id));
    });
  }
  for (const tab of document.querySelectorAll('.tab')) tab.addEventListener('click', () => switchView(tab.dataset.view));

  function switchView(view) {
    S.view = view;
    for (const tab of document.querySelectorAll('.tab')) tab.classList.toggle('active', tab.dataset.view === view);
    $('view-review').hidden = view !== 'review';
    $('view-summary').hidden = view !== 'summary';
    $('keys').hidden = view !== 'review' || !live;
    if (view === 'summary') renderSummary();
  }

  // ---------- summary plots (inline SVG) ----------
  const NS = 'http://www.w3.org/2000/svg';
  function s(tag, attrs, ...kids) {
    const el = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === 'style') el.style.cssText = v;
      else el.setAttribute(k, v);
    }
    for (const kid of kids.flat()) if (kid !== null && kid !== undefined) el.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
    return el;
  }

  // Horizontal grouped bars: rows of {label, values[]}, one value per series.
  function hbars(rows, series, fmt, max) {
    const W = 560, left = 150, right = 56, barH = 14, gap = 3, groupGap = 12;
    const groupH = series.length * (barH + gap) - gap;
    const H = rows.length * (groupH + groupGap) + 8;
    const top = max || Math.max(1e-9, ...rows.flatMap((r) => r.values));
    const scale = (v) => (W - left - right) * (v / top);
    const svg = s('svg', { viewBox: '0 0 ' + W + ' ' + H, role: 'img' });
    svg.append(s('line', { class: 'axis', x1: left, x2: left, y1: 0, y2: H - 4 }));
    rows.forEach((r, i) => {
      const y0 = 4 + i * (groupH + groupGap);
      svg.append(s('text', { x: left - 8, y: y0 + groupH / 2 + 4, 'text-anchor': 'end' }, r.label));
      series.forEach((ser, k) => {
        const y = y0 + k * (barH + gap);
        const w = Math.max(r.values[k] > 0 ? 2 : 0, scale(r.values[k]));
        svg.append(s('rect', { x: left, y, width: w, height: barH, rx: 3, fill: ser.color }, s('title', {}, ser.name + ': ' + fmt(r.values[k], r, k))));
        svg.append(s('text', { x: left + w + 5, y: y + barH - 3 }, fmt(r.values[k], r, k)));
      });
    });
    return svg;
  }

  // Two histograms over [0, 1] side by side per bin, as shares of each series.
  function histogram(seriesValues, series, bins) {
    const W = 560, H = 220, left = 40, bottom = 28, top = 10;
    const counts = seriesValues.map((vals) => {
      const c = new Array(bins).fill(0);
      for (const v of vals) c[Math.min(bins - 1, Math.max(0, Math.floor(v * bins)))]++;
      return c.map((n) => (vals.length ? n / vals.length : 0));
    });
    const step = Math.max(...counts.flat()) > 0.4 ? 0.2 : Math.max(...counts.flat()) > 0.2 ? 0.1 : 0.05;
    const ymax = Math.max(step, Math.ceil(Math.max(...counts.flat()) / step - 1e-9) * step);
    const plotW = W - left - 10, plotH = H - top - bottom;
    const bw = plotW / bins;
    const svg = s('svg', { viewBox: '0 0 ' + W + ' ' + H, role: 'img' });
    const ticks = Math.round(ymax / step);
    for (let t = 0; t <= ticks; t++) {
      const y = top + plotH - (plotH * t) / ticks;
      svg.append(s('line', { class: 'axis', x1: left, x2: W - 10, y1: y, y2: y }));
      svg.append(s('text', { x: left - 6, y: y + 4, 'text-anchor': 'end' }, pct(step * t)));
    }
    counts.forEach((c, k) => c.forEach((v, b) => {
      const inner = (bw - 6) / counts.length;
      const x = left + b * bw + 3 + k * inner;
      const hgt = (plotH * v) / ymax;
      svg.append(s('rect', { x, y: top + plotH - hgt, width: inner - 1, height: hgt, rx: 2, fill: series[k].color, 'fill-opacity': 0.9 },
        s('title', {}, series[k].name + ', ' + (b / bins).toFixed(1) + '–' + ((b + 1) / bins).toFixed(1) + ': ' + pct(v))));
    }));
    for (let b = 0; b <= bins; b += 2) svg.append(s('text', { x: left + b * bw, y: H - 8, 'text-anchor': 'middle' }, (b / bins).toFixed(1)));
    return svg;
  }

  function key(series) {
    return h('div', { class: 'key' }, series.map((x) => h('span', {}, h('i', { style: 'background:' + x.color }), x.name)));
  }
  function plot(title, sub, body, series) {
    return h('div', { class: 'plot' }, h('h3', {}, title), h('p', { class: 'sub' }, sub), body, series ? key(series) : null);
  }
  const nodata = (text) => h('div', { class: 'nodata' }, text);

  function renderSummary() {
    const cases = S.cases;
    const real = cases.filter((c) => c.source === 'real');
    const syn = cases.filter((c) => c.source === 'synthetic');
    const by = (list, st) => list.filter((c) => c.review === st).length;
    const SRC = [{ name: 'synthetic', color: COLORS.synthetic }, { name: 'real', color: COLORS.real }];
    const tiles = [
      ['Cases', cases.length], ['Real', real.length], ['Synthetic', syn.length],
      ['Pending', by(cases, 'pending')], ['Needs label', by(cases, 'needs_label')], ['Accepted', by(cases, 'accepted')], ['Edited', by(cases, 'edited')], ['Rejected', by(cases, 'rejected')],
    ];

    const rules = [...new Set(cases.flatMap((c) => c.flags))].sort();
    const share = (list, r) => (list.length ? list.filter((c) => c.flags.includes(r)).length / list.length : 0);
    const flagged = rules.length
      ? hbars(rules.map((r) => ({ label: r, values: [share(syn, r), share(real, r)] })), SRC, (v) => pct(v), Math.max(0.05, ...rules.flatMap((r) => [share(syn, r), share(real, r)])))
      : nodata('No audit flags in this file. Run ragsynth audit --write to add them.');

    const ov = (list) => list.map((c) => c.overlap).filter((v) => typeof v === 'number');
    const ovSyn = ov(syn), ovReal = ov(real);
    const mean = (v) => (v.length ? (v.reduce((a, b) => a + b, 0) / v.length).toFixed(2) : '–');
    const overlap = ovSyn.length || ovReal.length
      ? histogram([ovSyn, ovReal], SRC, 10)
      : nodata('No overlap figures yet. Run ragsynth audit --write to compute them.');

    // Cases without a type (real questions imported without a type column) are counted in
    // the caption, not drawn as if "(untyped)" were a type.
    const untyped = cases.filter((c) => !c.type);
    const types = [...new Set(cases.map((c) => c.type).filter(Boolean))].sort((a, b) => {
      const ia = TYPES.indexOf(a), ib = TYPES.indexOf(b);
      return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib) || a.localeCompare(b);
    });
    const typeRows = types.map((t) => ({ label: label(t), values: [syn, real].map((l) => l.filter((c) => c.type === t).length) }));
    const byType = types.length ? hbars(typeRows, SRC, (v) => String(v)) : nodata(cases.length ? 'No case has a type yet.' : 'No cases.');
    const untypedNote = untyped.length
      ? ' ' + untyped.length + ' case(s) have no type (' + untyped.filter((c) => c.source === 'real').length + ' real): give one with Edit in review, or a type column when importing.'
      : '';

    const progressRows = [['synthetic', syn], ['real', real]].filter(([, l]) => l.length).map(([name, l]) => ({ name, l }));
    const W = 560, rowH = 26;
    const prog = s('svg', { viewBox: '0 0 ' + W + ' ' + (progressRows.length * (rowH + 16) + 4), role: 'img' });
    progressRows.forEach((row, i) => {
      const y = 4 + i * (rowH + 16);
      let x = 90;
      prog.append(s('text', { x: 82, y: y + rowH / 2 + 4, 'text-anchor': 'end' }, row.name));
      for (const st of STATUSES) {
        const n = by(row.l, st);
        if (!n) continue;
        const w = ((W - 100) * n) / row.l.length;
        prog.append(s('rect', { x, y, width: Math.max(1, w - 1), height: rowH, fill: COLORS[st] }, s('title', {}, label(st) + ': ' + n)));
        if (w > 28) prog.append(s('text', { x: x + w / 2, y: y + rowH / 2 + 4, 'text-anchor': 'middle', style: 'fill:#fff;font-weight:600' }, String(n)));
        x += w;
      }
    });
    const statusSeries = STATUSES.filter((st) => by(cases, st)).map((st) => ({ name: label(st) + ' ' + by(cases, st), color: COLORS[st] }));

    const anyFlag = (list) => list.filter((c) => c.flags.length > 0).length;
    const verdict = syn.length && real.length && (ovSyn.length && ovReal.length)
      ? 'Mean overlap with the source: synthetic ' + mean(ovSyn) + ' vs real ' + mean(ovReal) + '. Flagged by at least one rule: synthetic ' + pct(anyFlag(syn) / syn.length) + ', real ' + pct(anyFlag(real) / real.length) + '.'
      : syn.length
        ? by(syn, 'pending') + ' of ' + syn.length + ' synthetic cases are waiting for review; ' + anyFlag(syn) + ' carry an audit flag.'
        : 'This set has no synthetic cases.';

    $('view-summary').replaceChildren(h('div', { class: 'summary-inner' },
      // The audit's reading of keyword search, when the page is its report.
      S.lexicalVerdict ? h('p', { class: 'verdict', id: 'lexical-verdict' }, h('strong', {}, 'Keyword search: '), S.lexicalVerdict) : null,
      h('p', { class: 'verdict', id: 'verdict' }, verdict),
      h('div', { class: 'tiles' }, tiles.map(([k, v]) => h('div', { class: 'tile' }, h('div', { class: 'k' }, k), h('div', { class: 'v' }, String(v))))),
      h('div', { class: 'plots' },
        plot('Flagged share by rule', 'Share of each source\u2019s cases that a rule flags.', flagged, rules.length ? SRC : null),
        plot('Overlap with the source', 'Share of the question\u2019s content words found in its labelled passage (audit.overlap). Means: synthetic ' + mean(ovSyn) + ', real ' + mean(ovReal) + '.', overlap, ovSyn.length || ovReal.length ? SRC : null),
        plot('Cases by type and source', 'How many questions of each type each source contributes.' + untypedNote, byType, types.length ? SRC : null),
        plot('Review progress', 'Cases by review status.', progressRows.length ? prog : nodata('No cases.'), statusSeries))));
  }

  // ---------- start ----------
  if (!live) {
    document.body.classList.add('static');
    $('keys').hidden = true;
  }
  load().catch((err) => banner('The page failed to start: ' + err, 'error'));
})();
