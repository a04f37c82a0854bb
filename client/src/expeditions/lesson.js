// How to play Expeditions (#/learn/ex_*): one turn per lesson on an engine position (server/tutorial/
// expeditions.py), played on the real Expeditions table: the learner sends the order the guide names through
// the order form, the server resolves it with the tutor's, and the turn report plays on the map.
import { el, clear } from '../ui/dom.js';
import { TableState } from '../ui/tablestate.js';
import { markDone, EX_LESSON_IDS } from '../ui/tutorial.js';
import { ExpeditionsTable } from './table.js';
import { orderWords } from './orders.js';

export class ExLesson {
  constructor(page, root, id) {
    this.page = page; this.t = page.t; this.root = root;
    this.id = EX_LESSON_IDS.includes(id) ? id : EX_LESSON_IDS[0];
    this.gone = false;
    this.v = 0;
    this.state = new TableState({ me: 'learner', v: 0, legal: null, room: { id: 'tutorial', settings: { game: 'expeditions' }, spectators: 0, status: 'playing', seats: [
      { seat: 0, colours: ['red'], kind: 'human', person: 'learner', name: page.session()?.name || this.t('room.you'), connected: true },
      { seat: 1, colours: ['blue'], kind: 'bot', person: null, name: this.t('learn.opponent'), connected: true }] } });
  }

  async start() {
    const t = this.t, id = this.id, k = EX_LESSON_IDS.indexOf(id);
    const next = EX_LESSON_IDS[k + 1];
    this.moveEl = el('div', { class: 'tutorial-move', 'data-testid': 'tutorial-move' });
    this.stateEl = el('div', { class: 'tutorial-state', 'data-testid': 'tutorial-state', 'aria-live': 'polite' });
    const holder = el('div', { class: 'table-holder' });
    clear(this.root).append(el('div', { class: 'tutorial panel', 'data-testid': 'tutorial', 'data-lesson': id },
      el('div', { class: 'tutorial-head' },
        el('strong', { text: `${t('ex.mode')} ${k + 1}/${EX_LESSON_IDS.length} · ${t(`learn.${id}.title`)}` }), ' ',
        el('a', { href: '#/learn', 'data-testid': 'lessons-link', text: t('learn.all') })),
      this.textEl = el('p', { class: 'tutorial-text', 'data-testid': 'tutorial-text', role: 'button', tabindex: '0', 'aria-expanded': 'false',
        text: t(`learn.${id}.text`), onclick: () => this.textEl.setAttribute('aria-expanded', String(this.textEl.getAttribute('aria-expanded') !== 'true')) }),
      this.moveEl, this.stateEl,
      el('div', { class: 'buttons' },
        el('button', { type: 'button', 'data-testid': 'tutorial-restart', onclick: () => this.begin() }, t('learn.restart')),
        this.nextEl = el('a', { class: 'button', href: next ? `#/learn/${next}` : '#/learn', 'data-testid': 'tutorial-next',
          text: next ? t('learn.next') : t('learn.all') }))),
    holder);
    this.table = new ExpeditionsTable(holder, { state: this.state, t, act: (order) => this.act(order), lesson: true });
    this.table.chatSlot.closest('.panel')?.remove();
    await this.begin();
  }

  async begin() {
    const res = await this.page.request('tutorial_start', { lesson: this.id });
    if (this.gone) return;
    if (!res.ok) { this.page.toast(this.t('err.server', { message: res.error?.message })); return; }
    this.v = 0; this.notQuite = false;
    this.table.reports = []; this.table.shownReport = -1; this.table.step = -1; this.table.draft = null;
    this.table.show({ status: 'snapshot', view: res.view });
    this.absorb(res);
  }

  absorb(res) {
    this.res = res;
    const legal = res.legal ? { colour: 'red', turn: res.view.turn, options: res.legal, order: null } : null;
    this.state.set({ v: this.v, legal });
    this.table.draw();
    this.drawGuide();
  }

  drawGuide() {
    const t = this.t, res = this.res;
    clear(this.moveEl); clear(this.stateEl);
    this.stateEl.dataset.state = res.done ? 'done' : res.retry ? 'retry' : 'playing';
    this.nextEl.classList.toggle('primary', !!res.done);
    if (res.done) {
      this.stateEl.append(el('strong', { class: 'ok', text: t('learn.well_done') }), ' ', t(`learn.${this.id}.after`));
      return;
    }
    if (res.retry) { this.stateEl.append(el('strong', { class: 'bad', text: t('learn.retry') })); return; }
    if (this.notQuite) this.moveEl.append(el('strong', { class: 'bad', 'data-testid': 'tutorial-not-quite', text: t('learn.not_quite') }), ' ');
    this.moveEl.append(t('learn.your_move'), ' ', el('q', { 'data-testid': 'tutorial-move-text', text: orderWords(res.moves[0], t, res.view) }));
  }

  /** The order form sends the learner's order here (instead of to a room). */
  async act(order) {
    if (this.state.sending) return { ok: false, error: { code: 'busy' } };
    this.state.set({ sending: true });
    let res;
    try {
      res = await this.page.request('tutorial_act', { lesson: this.id, action: order });
    } finally { this.state.set({ sending: false }); }
    if (this.gone) return res;
    if (!res.ok) {
      this.notQuite = res.error?.code === 'not_the_lesson';
      if (!this.notQuite) this.page.toast(this.t('err.server', { message: res.error?.message }));
      this.drawGuide();
      return res;
    }
    this.notQuite = false;
    this.v += 1;
    this.table.show({ status: 'applied', events: res.events, view: res.view });
    this.absorb(res);
    if (res.done) markDone(this.id);
    return { ok: true, v: this.v };
  }

  destroy() { this.gone = true; this.table?.destroy(); }
}
