// ragsynth review --answers: a person marks each judge's verdict right or wrong. Every mark is
// saved at once by the local server; keys are queued so fast typing loses nothing.
(function () {
  'use strict';

  const JUDGES = ['correct', 'refused', 'grounded'];
  const QUESTIONS = {
    correct: 'Does the answer agree with the reference?',
    refused: 'Does the answer decline to answer?',
    grounded: 'Is everything the answer states in its contexts?',
  };
  const S = { cases: [], marks: {}, current: null, judge: null, show: 'todo', chain: Promise.resolve() };

  function h(tag, attrs, ...kids) {
    const el = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === 'class') el.className = v;
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
  const yesNo = (v) => (v ? 'yes' : 'no');

  function banner(text) {
    const b = $('banner');
    b.textContent = text;
    b.className = 'banner error';
    b.hidden = !text;
  }

  async function api(path, options) {
    const res = await fetch(path, Object.assign({ headers: { 'Content-Type': 'application/json' } }, options || {}));
    let body = null;
    try { body = await res.json(); } catch (_) { body = null; }
    return { ok: res.ok, status: res.status, body: body || {} };
  }

  // ---------- state ----------
  const judgesOf = (c) => JUDGES.filter((j) => c.verdicts[j] !== null && c.verdicts[j] !== undefined);
  const markOf = (c, j) => (S.marks[c.id] || {})[j] || null;
  const unmarked = (c) => judgesOf(c).filter((j) => !markOf(c, j));
  const caseById = (id) => S.cases.find((c) => c.id === id);

  function filtered() {
    return S.cases.filter((c) =>
      S.show === 'all' ||
      (S.show === 'todo' && unmarked(c).length > 0) ||
      (S.show === 'wrong' && judgesOf(c).some((j) => (markOf(c, j) || {}).mark === 'wrong')) ||
      (S.show === 'done' && judgesOf(c).length > 0 && unmarked(c).length === 0));
  }

  async function load() {
    const r = await api('/api/answers');
    if (!r.ok) { banner('Could not load the file: ' + (r.body.error || r.status)); return; }
    S.cases = r.body.cases;
    S.marks = r.body.marks || {};
    $('file').textContent = r.body.file + '  →  marks in ' + r.body.marks_file;
    fillShow();
    const list = filtered();
    select((list[0] || S.cases[0] || {}).id);
  }

  function fillShow() {
    const count = (f) => { const keep = S.show; S.show = f; const n = filtered().length; S.show = keep; return n; };
    const opts = [['todo', 'to mark'], ['all', 'all cases'], ['wrong', 'a verdict marked wrong'], ['done', 'all marked']];
    const sel = $('f-show');
    sel.replaceChildren(...opts.map(([v, t]) => h('option', { value: v }, t + ' (' + count(v) + ')')));
    sel.value = S.show;
  }

  // ---------- rendering ----------
  function renderProgress() {
    const total = S.cases.reduce((n, c) => n + judgesOf(c).length, 0);
    const done = S.cases.reduce((n, c) => n + (judgesOf(c).length - unmarked(c).length), 0);
    $('progress-text').textContent = done + ' of ' + total + ' verdicts marked';
    $('progress-fill').style.width = (total ? (100 * done) / total : 0) + '%';
  }

  function renderList() {
    const list = filtered();
    $('list-count').textContent = list.length + ' case' + (list.length === 1 ? '' : 's');
    $('case-list').replaceChildren(...list.map((c) => h('li', {
      class: c.id === S.current ? 'current' : '', 'data-id': c.id, onclick: () => select(c.id),
    },
    h('span', { class: 'dot', style: null }),
    h('span', { class: 'q' }, c.question || c.id),
    h('span', { class: 'marks' }, c.id + ' · ' + judgesOf(c).map((j) => {
      const m = markOf(c, j);
      return j + (m ? (m.mark === 'right' ? ' ✓' : ' ✗') : ' ·');
    }).join('  ')))));
    if (!list.length) $('case-list').append(h('li', { class: 'empty' }, 'Nothing left here.'));
  }

  function section(title, ...kids) {
    return h('section', {}, h('h3', {}, title), ...kids);
  }

  function renderCard() {
    const c = caseById(S.current);
    const area = $('card');
    if (!c) { area.replaceChildren(h('div', { class: 'card' }, h('section', { class: 'empty' }, 'No case.'))); return; }
    const refs = c.unanswerable
      ? h('p', { class: 'text-block' }, 'None: the corpus does not answer this question; the right output is a refusal.')
      : c.references.length
        ? h('ul', {}, c.references.map((r) => h('li', { class: 'text-block' }, r)))
        : h('p', { class: 'text-block' }, '(no reference answer)');
    const answer = c.answer === null || c.answer === undefined
      ? h('p', { class: 'text-block' }, '(not answered, or not in the file)')
      : h('p', { class: 'text-block', id: 'system-answer' }, c.answer === '' ? '(empty answer)' : c.answer);
    const contexts = (c.contexts || []).map((t, i) => h('div', { class: 'context' }, '[' + (i + 1) + '] ' + t));
    const rows = judgesOf(c).map((j) => {
      const m = markOf(c, j);
      const stale = m && m.verdict !== c.verdicts[j] ? ' (marked on an earlier verdict)' : '';
      return h('div', {
        class: 'verdict-row' + (j === S.judge ? ' selected' : ''), 'data-judge': j,
        'data-mark': m ? m.mark : 'none', onclick: () => { S.judge = j; renderCard(); },
      },
      h('kbd', {}, String(JUDGES.indexOf(j) + 1)),
      h('span', { class: 'said' }, j + ': ' + yesNo(c.verdicts[j])),
      h('span', {}, h('span', { class: 'why' }, QUESTIONS[j]), h('br'), (c.reasons || {})[j] || '(no reason given: the verdict follows from the rules, e.g. a refusal is not correct)'),
      h('span', { class: 'state' }, (m ? m.mark : 'unmarked') + stale));
    });
    const card = h('article', { class: 'card', id: 'case-card', 'data-id': c.id },
      h('section', { class: 'card-head' }, h('strong', {}, c.id), c.unanswerable ? ' · unanswerable' : ''),
      section('Question', h('p', { class: 'text-block' }, c.question || '(not in the file: re-run eval --answers --out)')),
      section('Reference answer', refs),
      section('System answer', answer),
      section('Verdicts: is each one right? y / n', rows.length ? h('div', { class: 'verdicts' }, rows) : h('p', {}, 'No verdict to mark.')),
      contexts.length ? section('Contexts (' + contexts.length + ')', contexts) : null);
    area.replaceChildren(card);
  }

  function render() { renderProgress(); renderList(); renderCard(); }

  function select(id) {
    S.current = id || null;
    const c = caseById(S.current);
    S.judge = c ? (unmarked(c)[0] || judgesOf(c)[0] || null) : null;
    render();
  }

  // ---------- actions ----------
  function move(step) {
    const list = filtered();
    let i = list.findIndex((c) => c.id === S.current);
    if (i < 0) i = step > 0 ? -1 : list.length;
    const next = list[i + step];
    if (next) select(next.id);
  }

  async function mark(value) {
    const c = caseById(S.current);
    if (!c || !S.judge) return;
    const judge = S.judge;
    const r = await api('/api/marks', { method: 'POST', body: JSON.stringify({ id: c.id, judge, mark: value }) });
    if (!r.ok) { banner('Not saved: ' + (r.body.error || r.status)); return; }
    banner('');
    S.marks = r.body.marks;
    fillShow();
    if (value === null) { render(); return; }
    const left = unmarked(c);
    if (left.length) { S.judge = left[0]; render(); return; }
    // Every verdict of this case is marked: on to the next case that has one to mark.
    const after = S.cases.slice(S.cases.indexOf(c) + 1).concat(S.cases.slice(0, S.cases.indexOf(c)));
    const next = after.find((x) => unmarked(x).length > 0);
    if (next) select(next.id); else render();
  }

  document.addEventListener('keydown', (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const key = e.key.toLowerCase();
    const act = {
      '1': () => pick('correct'), '2': () => pick('refused'), '3': () => pick('grounded'),
      y: () => mark('right'), n: () => mark('wrong'), u: () => mark(null),
      j: () => move(1), k: () => move(-1),
    }[key];
    if (!act) return;
    e.preventDefault();
    // One action after the other, in the order pressed.
    S.chain = S.chain.then(act).catch((err) => banner(String(err)));
  });

  function pick(judge) {
    const c = caseById(S.current);
    if (c && judgesOf(c).includes(judge)) { S.judge = judge; renderCard(); }
  }

  $('f-show').addEventListener('change', (e) => {
    S.show = e.target.value;
    const list = filtered();
    if (!list.find((c) => c.id === S.current)) select((list[0] || {}).id); else render();
  });

  load();
})();
