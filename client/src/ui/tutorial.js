// How to play (#/learn, #/learn/<lesson>): short lessons played on the real board with the real input.
// The server builds each lesson's position with the engine and checks every move (docs/protocol.md §13);
// progress is kept in localStorage.
import { el, clear } from './dom.js';
import { refusal } from '../i18n.js';
import { Table } from './table.js';
import { TableState } from './tablestate.js';
import { QuietLog } from './replay.js';
import { describeAction } from '../describe.js';

export const LESSON_IDS = ['setup', 'expand', 'voyage', 'sinking', 'landing', 'chain', 'royal', 'turn_back', 'colonise', 'end'];
/** The Expeditions lessons (played by expeditions/lesson.js). */
export const EX_LESSON_IDS = ['ex_orders', 'ex_migration', 'ex_weather', 'ex_typhoon', 'ex_end'];
const PROGRESS_KEY = 'tongiaki.tutorial';

export function progress() {
  try { return new Set(JSON.parse(localStorage.getItem(PROGRESS_KEY) || '[]')); } catch { return new Set(); }
}

export function markDone(id) {
  const done = progress();
  done.add(id);
  try { localStorage.setItem(PROGRESS_KEY, JSON.stringify([...done])); } catch { /* private mode */ }
}

/** The list of lessons, with what is done. */
export function renderLessons(page, root) {
  const t = page.t, done = progress();
  const list = el('ol', { class: 'lessons', 'data-testid': 'lessons' });
  LESSON_IDS.forEach((id) => list.append(el('li', { class: `lesson-item ${done.has(id) ? 'done' : ''}`, 'data-lesson': id },
    el('a', { href: `#/learn/${id}`, text: t(`learn.${id}.title`) }), done.has(id) ? el('span', { class: 'tag you', 'data-testid': 'lesson-done', text: '✓ ' + t('learn.done_tag') }) : null,
    // what the lesson teaches, in a line of its own
    el('div', { class: 'teaches muted', 'data-testid': 'lesson-teaches', text: t(`learn.${id}.teaches`) }))));
  // Expeditions, the game of orders at once: its own lessons (expeditions/lesson.js)
  const exList = el('ol', { class: 'lessons', 'data-testid': 'ex-lessons' });
  EX_LESSON_IDS.forEach((id) => exList.append(el('li', { class: `lesson-item ${done.has(id) ? 'done' : ''}`, 'data-lesson': id },
    el('a', { href: `#/learn/${id}`, text: t(`learn.${id}.title`) }), done.has(id) ? el('span', { class: 'tag you', text: '✓ ' + t('learn.done_tag') }) : null,
    el('div', { class: 'teaches muted', text: t(`learn.${id}.teaches`) }))));
  clear(root).append(el('div', { class: 'learn panel' },
    el('h2', { text: t('lobby.how') }), el('p', { text: t('learn.intro') }), list,
    el('h3', { text: t('ex.mode') }), el('p', { text: t('learn.ex_intro') }), exList,
    el('p', {}, el('a', { href: '#/rules', text: t('lobby.rules') }), ' · ', el('a', { href: '#/', text: t('misc.back') }))));
}

/** The same move, whatever the order of its unordered parts (an expansion's beaches, a landing's boats). */
function sameMove(a, b) {
  const canon = (x) => JSON.stringify(Object.keys(x).sort().map((k) => [k,
    ['beaches', 'boats', 'tonga'].includes(k) && Array.isArray(x[k]) ? x[k].map((v) => JSON.stringify(v)).sort() : x[k]]));
  return !!a && !!b && canon(a) === canon(b);
}

/** One lesson: its explanation, the move to make next, and the board. */
export class Lesson {
  constructor(page, root, id) {
    this.page = page;
    this.t = page.t;
    this.root = root;
    this.id = LESSON_IDS.includes(id) ? id : LESSON_IDS[0];
    this.gone = false;
    this.v = 0;
    // the learner is "learner" in red's seat; blue is the tutor
    this.state = new TableState({ me: 'learner', v: 0, legal: null, room: { id: 'tutorial', settings: {}, spectators: 0, status: 'playing', seats: [
      { seat: 0, colours: ['red'], kind: 'human', person: 'learner', name: page.session()?.name || this.t('room.you'), connected: true },
      { seat: 1, colours: ['blue'], kind: 'bot', person: null, name: this.t('learn.opponent'), connected: true }] } });
    this.log = new QuietLog(`tutorial:${this.id}`);
  }

  async start() {
    const t = this.t, id = this.id;
    const next = LESSON_IDS[LESSON_IDS.indexOf(id) + 1];
    this.moveEl = el('div', { class: 'tutorial-move', 'data-testid': 'tutorial-move' });
    this.stateEl = el('div', { class: 'tutorial-state', 'data-testid': 'tutorial-state', 'aria-live': 'polite' });
    const holder = el('div', { class: 'table-holder' });
    clear(this.root).append(el('div', { class: 'tutorial panel', 'data-testid': 'tutorial', 'data-lesson': id },
      el('div', { class: 'tutorial-head' },
        el('strong', { text: `${LESSON_IDS.indexOf(id) + 1}/${LESSON_IDS.length} · ${t(`learn.${id}.title`)}` }), ' ',
        el('a', { href: '#/learn', 'data-testid': 'lessons-link', text: t('learn.all') })),
      // on a phone the explanation folds to one line that opens on a tap (app.css)
      this.textEl = el('p', { class: 'tutorial-text', 'data-testid': 'tutorial-text', role: 'button', tabindex: '0', 'aria-expanded': 'false',
        text: t(`learn.${id}.text`), onclick: () => this.toggleText(), onkeydown: (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); this.toggleText(); } } }),
      this.moveEl, this.stateEl,
      el('div', { class: 'buttons' },
        el('button', { type: 'button', 'data-testid': 'tutorial-restart', onclick: () => this.begin() }, t('learn.restart')),
        this.nextEl = next ? el('a', { class: 'button', href: `#/learn/${next}`, 'data-testid': 'tutorial-next', text: t('learn.next') })
          : el('a', { class: 'button', href: '#/', 'data-testid': 'tutorial-next', text: t('misc.back') }))),
    holder);
    this.table = new Table(holder, { state: this.state, log: this.log, t, act: (action) => this.act(action) });
    this.table.chatSlot.closest('.panel')?.remove();
    await this.begin();
  }

  async begin() {
    const res = await this.page.request('tutorial_start', { lesson: this.id });
    if (this.gone) return;
    if (!res.ok) { this.page.toast(refusal(this.t, res.error)); return; }
    this.v = 0;
    this.log.clear();
    clear(this.table.logPanel.node);
    this.table.show({ status: 'snapshot', view: res.view });
    this.absorb(res);
  }

  toggleText() {
    const open = this.textEl.getAttribute('aria-expanded') !== 'true';
    this.textEl.setAttribute('aria-expanded', String(open));
  }

  /** The lesson's answer: only the move its guide names is offered (its targets alone on the board); once
   *  the goal is reached the table stops (nothing more to choose) and, when the board has shown the move,
   *  "Next lesson" becomes the primary action. */
  async absorb(res) {
    const move = res.moves[res.step];
    const legal = res.done ? [] : (move && res.legal.some((a) => sameMove(a, move)) ? res.legal.filter((a) => sameMove(a, move)) : res.legal);
    this.lessonState = { ...res, shownDone: false };
    this.state.set({ v: this.v, legal, waitV: this.v });
    if (res.done) await this.settled();
    if (this.gone || this.lessonState.step !== res.step) return;
    this.lessonState.shownDone = res.done;
    this.drawGuide();
  }

  /** Resolves once the board has played what it was given (the "Well done!" comes after the move is seen). */
  settled() {
    const calm = () => !this.state.playing && !this.state.animating && this.state.shown === this.state.target;
    if (calm()) return Promise.resolve();
    return new Promise((resolve) => {
      const off = this.state.subscribe(() => { if (calm() || this.gone) { off(); resolve(); } });
    });
  }

  drawGuide() {
    const t = this.t, res = this.lessonState;
    const move = res.moves[res.step];
    clear(this.moveEl);
    clear(this.stateEl);
    this.stateEl.dataset.state = res.done ? 'done' : res.retry ? 'retry' : 'playing';
    this.nextEl?.classList.toggle('primary', !!res.done);
    this.root.querySelector('[data-testid=tutorial]')?.toggleAttribute('data-done', !!res.done);
    if (res.done) {
      this.nextEl?.focus({ preventScroll: true });
      this.stateEl.append(el('strong', { class: 'ok', text: t('learn.well_done') }), ' ', t(`learn.${this.id}.after`));
      return;
    }
    if (res.retry) { this.stateEl.append(el('strong', { class: 'bad', text: t('learn.retry') })); return; }
    if (this.notQuite) this.moveEl.append(el('strong', { class: 'bad', 'data-testid': 'tutorial-not-quite', text: t('learn.not_quite') }), ' ');
    if (move && res.legal.length) {
      this.moveEl.append(t('learn.your_move'), ' ', el('q', { 'data-testid': 'tutorial-move-text', text: describeAction(move, t, res.view) }));
    }
  }

  /** The Table sends the learner's move here (instead of to a room). */
  async act(action) {
    if (this.state.sending) return { ok: false, error: { code: 'busy' } };
    this.state.set({ sending: true });
    let res;
    try {
      res = await this.page.request('tutorial_act', { lesson: this.id, action });
    } finally { this.state.set({ sending: false }); }
    if (!res.ok && res.error?.code === 'not_the_lesson') {
      // nothing was played: say so by the guide, the decision starts afresh (the bar's reset)
      this.notQuite = true;
      this.drawGuide();
      return { ok: false, error: { ...res.error, shown: true } };
    }
    if (!res.ok || this.gone) return res;
    this.notQuite = false;
    const prev = this.state.target;
    this.v += 1;
    this.table.show({ status: 'applied', prev, events: res.events, view: res.view });
    this.absorb(res);
    if (res.done) markDone(this.id);
    return { ok: true, v: this.v };
  }

  destroy() { this.gone = true; this.table?.destroy(); }
}
