// The decision bar: the prompt, the buttons and the list of every legal move, and the input that narrows
// the legal actions click by click (board clicks, buttons, keys). It reads the table state and sends the
// one chosen action through the `act` callback it was given.
import { el, clear, swatch, colourAndName } from './dom.js';
import { refusal } from '../i18n.js';
import { DecisionInput } from '../input.js';
import { describeAction, tileWords } from '../describe.js';
import { tilePicture } from './tilepicture.js';
import { countdown } from './clock.js';
import { loadDraft, saveDraft, dropDraft } from './draft.js';

export class DecisionBar {
  /** state: TableState; t: translator; act(action) → Promise<{ok, v?, error?}>; toast(text);
   *  onInput(): the selection changed (the board redraws its highlights); keepDraft: a half-made choice
   *  outlives a page reload (ui/draft.js). */
  constructor({ state, t, act, toast, onInput, keepDraft = false }) {
    this.state = state; this.t = t; this.act = act; this.toast = toast; this.onInput = onInput || (() => {});
    this.keepDraft = keepDraft;
    this.input = new DecisionInput();
    this.trail = [];   // the clicks and presses of the half-made choice, in order (what a draft keeps)
    this.node = el('div', { class: 'decision', 'data-testid': 'decision', 'aria-live': 'polite' });
  }

  /** Start the input afresh when the decision on screen is another one (another view, our legal
   *  actions came or went, other colours are ours); `force`: also for the same one (a refused action).
   *  A half-made choice dropped because the game moved on is explained in the bar. */
  reset(force = false) {
    const s = this.state;
    const key = [s.shown, s.legalShown, s.myColours().join(',')];
    if (!force && this._key && key.every((x, i) => x === this._key[i])) return false;
    const lost = !force && this._key && this.input.canAct && this.input.started && !this._sent;
    const before = this._key && this._key[0];
    this._key = key;
    this._sent = false;
    this.input.reset(s.shown, s.myColours(), s.legalShown);
    this.trail = [];
    this.notice = null;
    if (force) this._dropDraft();
    else this._restoreDraft();
    if (lost && s.shown && before !== s.shown) this.notice = this.t('decision.moved_on', { v: s.v ?? '' });
    return true;
  }

  /** True when a click or key can change the decision now. */
  get live() { return this.state.interactive; }

  /** The board's highlights for the current selection (none while not live). */
  highlights() { return this.live ? this.input.highlights() : {}; }

  get canAct() { return this.live && this.input.canAct; }

  render() {
    const t = this.t;
    const box = clear(this.node);
    // a page that plays no colour (a spectator) never gets buttons here, nor anyone once the game is over:
    // its bar is one line, not the fixed height that keeps a player's board from moving between clicks
    const v = this.state.shown;
    box.toggleAttribute('data-watching', this.state.myColours().length === 0 || v?.phase === 'over');
    if (!v) return;
    if (v.phase === 'over') { box.dataset.kind = 'over'; box.append(el('div', { class: 'prompt', text: t('phase.over') })); return; }
    const pend = v.pending;
    box.dataset.kind = this.input.kind || 'none';
    if (!pend) return;
    if (!this.live || this.input.awaitingLegal) {
      box.append(el('div', { class: 'prompt muted', text: '…' }));
      return;
    }
    const pr = this.input.prompt();
    const args = this.promptArgs(pr.args);
    // the tile in hand, drawn as it would lie (turned as chosen so far)
    const hand = v.hand && (this.input.kind === 'place_tile' || this.input.kind === 'turn_tile') && this.input.canAct ? v.hand : null;
    if (hand) box.append(tilePicture(hand, t, this.input.highlights().preview?.rotation ?? 0, 'decision-tile'));
    const who = this.state.seatOfColour(pend.colour);
    const prompt = el('div', { class: 'prompt', 'data-testid': 'prompt', 'data-prompt': this.input.canAct ? pr.key : 'prompt.waiting' }, swatch(pend.colour), ' ',
      this.input.canAct ? t(pr.key, args) : t('prompt.waiting', { colour: colourAndName(t, pend.colour, who?.name), kind: t(`kind.${pend.kind}`) }));
    prompt.append(' ', countdown());
    box.append(prompt);
    if (this.notice && this.input.canAct) box.append(el('div', { class: 'notice', role: 'status', 'data-testid': 'decision-notice', text: this.notice }));
    if (this.routeNote && this.input.canAct) box.append(el('div', { class: 'notice route-note', 'data-testid': 'route-note', text: this.routeNote }));
    if (!this.input.canAct) return;
    const btns = el('div', { class: 'buttons' });
    for (const bt of this.input.buttons()) {
      const a = { ...(bt.args || {}) };
      if (a.colour) a.colour = t(`colour.${a.colour}`);
      btns.append(el('button', {
        type: 'button', 'data-action': bt.id, class: `${bt.pressed ? 'pressed' : ''} ${bt.danger ? 'danger' : ''} ${bt.primary ? 'primary' : ''} ${bt.colour ? `boat-btn c-${bt.colour}` : ''}`.replace(/\s+/g, ' ').trim(),
        'aria-pressed': bt.pressed ? 'true' : null, disabled: !bt.enabled, onclick: () => this.press(bt.id),
      }, bt.colour ? swatch(bt.colour) : null, t(bt.label, a)));
    }
    box.append(btns);
    // every legal action, as text: for keyboards, screen readers and anyone who prefers a list
    const legal = this.input.legal;
    if (legal.length) {
      // all of them, built when opened (a landing can have hundreds); stays open across redraws
      const list = el('div', { class: 'move-list' });
      const fill = () => {
        if (list.childElementCount) return;
        legal.forEach((a, i) => list.append(el('button', { type: 'button', 'data-legal': i, onclick: () => this.send(a) }, describeAction(a, t, v))));
      };
      const det = el('details', { class: 'all-moves', open: this._movesOpen === legal ? true : null, ontoggle: () => {
        this._movesOpen = det.open ? legal : null;
        if (det.open) fill();
      } }, el('summary', { text: t('btn.all_moves', { n: legal.length }) }), list);
      if (det.open) fill();
      box.append(det);
    }
  }

  promptArgs(a) {
    const args = { ...(a || {}) };
    if (args.colour) args.colour = this.t(`colour.${args.colour}`);
    if (args.kind) args.kind = this.t(`kind.${args.kind}`);
    // a tile by what players see on it, never its letter in the box
    if (args.tile) args.tile = tileWords(tileOf(this.state.shown, args.tile), this.t);
    return args;
  }

  /** Keyboard: Escape clears the selection, R / Shift+R turn a tile, Enter places it or confirms a landing. */
  key(e) {
    if (!this.canAct || e.defaultPrevented) return;
    if (e.target && /^(INPUT|TEXTAREA|SELECT)$/.test(e.target.tagName)) return;
    const ids = new Set(this.input.buttons().filter((b) => b.enabled).map((b) => b.id));
    let id = null;
    if (e.key === 'Escape' || e.key === 'Backspace') id = ids.has('undo') ? 'undo' : 'clear';
    else if (e.key === 'r' || e.key === 'R') id = e.shiftKey ? 'rotate:-1' : 'rotate:1';
    else if (e.key === 'Enter') id = ids.has('place') ? 'place' : 'confirm';
    if (id && (ids.has(id) || (id === 'clear' && e.key === 'Escape'))) { e.preventDefault(); this.press(id); }
  }

  /** A click on the board (a `data-hit` target, or {hit: 'none'} for a tile that cannot be chosen). */
  hit(hit, how = {}) {
    if (!this.live) return;
    if (how.key === 'Enter' && this.input.canAct) {
      // Enter confirms what is waiting for confirmation, wherever the focus is
      const ids = new Set(this.input.buttons().filter((b) => b.enabled).map((b) => b.id));
      if (ids.has('confirm') || ids.has('place')) { this.press(ids.has('place') ? 'place' : 'confirm'); return; }
    }
    if (hit.hit === 'none') {
      if (this.input.canAct) {
        const pr = this.input.prompt();
        this.toast(`${this.t('err.not_here')} ${this.t(pr.key, this.promptArgs(pr.args))}`);
      } else if (this.state.shown?.pending) this.toast(this.t('err.not_your_turn'));
      return;
    }
    this._result(this.input.click(hit), ['hit', hit]);
  }

  press(id) {
    if (!this.live) return;
    this._result(this.input.press(id), ['press', id]);
  }

  _result(r, step) {
    this.notice = null;
    if (r.send) { this.send(r.send); return; }
    if (r.error) this.toast(this.t(r.error));
    else this._keepStep(step);
    this.onInput();
  }

  /** Add a click or press to the trail, and keep the trail as the draft while something is chosen. */
  _keepStep(step) {
    if (!step || !this.keepDraft || !this.input.canAct) return;
    this.trail.push(step);
    const s = this.state;
    if (this.input.started) saveDraft(s.room?.id, this._stamp(), this.trail);
    else this._dropDraft();
  }

  /** After a reload (or a reconnect), replay the draft kept for this very decision: the same version and
   *  colours give the same legal actions, so the same steps rebuild the same selection. Any step the input
   *  refuses, or one that would send, ends the replay with the selection cleared. */
  _restoreDraft() {
    if (!this.keepDraft || !this.input.canAct) return;
    const s = this.state;
    const trail = loadDraft(s.room?.id, this._stamp());
    if (!Array.isArray(trail)) return;
    for (const step of trail) {
      const [kind, arg] = Array.isArray(step) ? step : [];
      const r = kind === 'hit' ? this.input.click(arg || {}) : kind === 'press' ? this.input.press(arg) : { error: 'bad step' };
      if (r.send || r.error) {
        this.input.reset(s.shown, s.myColours(), s.legalShown);
        this.trail = [];
        this._dropDraft();
        return;
      }
      this.trail.push([kind, arg]);
    }
  }

  _dropDraft() { if (this.keepDraft) dropDraft(); }

  /** The decision a draft belongs to: the version on screen and the colours played from this page. */
  _stamp() { return `${this.state.v}:${this.state.myColours().join(',')}`; }

  async send(action) {
    if (this.state.sending) return;
    this._dropDraft();
    this._sent = true;
    const res = await this.act(action);
    if (!res.ok) {
      this._sent = false;
      const code = res.error?.code;
      // (a refusal its caller has already explained, e.g. a lesson's "not quite", is not toasted again)
      if (!res.error?.shown) this.toast(code === 'stale_version' ? this.t('err.stale') : refusal(this.t, res.error));
      this.reset(true);
      this.onInput();
    }
  }
}

/** A tile's drawing by its id: the tile in hand, or one on the table. */
export function tileOf(view, id) {
  if (view?.hand?.tile === id) return view.hand;
  return (view?.tiles || []).find((x) => x.tile === id) || { tile: id, kind: 'ocean' };
}
