// The side panels and the status line of the table: players, stack, result, whose table this is.
// They only read the table state and redraw when what they show changed.
import { el, clear, swatch, nameAndColour } from './dom.js';
import { countdown } from './clock.js';
import { botTag } from './room.js';
import { tilePicture } from './tilepicture.js';
import { tileWords } from '../describe.js';

export class Panels {
  /** replay: a finished game played again (nobody plays or watches it live: the status says "Replay");
   *  parts: a rule set's own drawing of the status line, players and result (`status(box)`, `players(box)`,
   *  `result(box)`, each given its element; Expeditions'), instead of Tongiaki's (with its stack). */
  constructor(state, t, { replay = false, parts = null } = {}) {
    this.state = state; this.t = t; this.replay = replay; this.parts = parts;
    this.statusEl = el('div', { class: 'game-status', 'data-testid': 'game-status' });
    this.playersEl = el('div', { class: 'players', 'data-testid': 'players' });
    this.stackEl = el('div', { class: 'stack', 'data-testid': 'stack' });
    this.resultEl = el('div', { class: 'result', 'data-testid': 'result', hidden: true });
    this._unsub = state.subscribe((changed) => this.update(changed));
  }

  /** Redraw after a change: the room's seats at once, the game's numbers when a view is settled on screen. */
  update(changed) {
    if (!this.state.shown) return;
    if (changed.has('room') || changed.has('me') || changed.has('animating') || (changed.has('shown') && !this.state.animating)) this.draw();
  }

  draw() {
    if (!this.state.shown) return;
    const p = this.parts;
    if (p) { p.status(this.statusEl); p.players(this.playersEl); p.result(this.resultEl); return; }
    this.drawStatus(); this.drawPlayers(); this.drawStack(); this.drawResult();
  }

  drawStatus() {
    const v = this.state.shown, t = this.t, room = this.state.room;
    const phase = v.phase === 'setup' ? t('phase.setup') : v.phase === 'over' ? t('phase.over') : t('phase.play', { turn: v.turn });
    const mine = this.state.myColours();
    clear(this.statusEl).append(
      el('strong', { text: phase }), ' ',
      this.replay ? el('span', { class: 'you-are', 'data-testid': 'replay-status' }, t('replay.open'))
        : mine.length ? el('span', { class: 'you-are' }, mine.map((c) => swatch(c)), ' ', t('you.are', { colours: mine.map((c) => t(`colour.${c}`)).join(', ') }))
          : el('span', { class: 'you-are', 'data-testid': 'spectator' }, t('you.watching')),
      ...(room?.spectators ? [' · ', el('span', { class: 'muted', 'data-testid': 'spectators', text: t('lobby.spectators', { n: room.spectators }) })] : []));
  }

  drawPlayers() {
    const t = this.t, v = this.state.shown;
    const box = clear(this.playersEl);
    const scores = v.result?.scores;
    for (const p of v.players || []) {
      const seat = this.state.seatOfColour(p.colour);
      const active = v.active === p.colour || v.pending?.colour === p.colour;
      const flags = [];
      if (seat?.kind === 'bot') flags.push(botTag(t, seat));
      if (seat?.autopilot) flags.push(el('span', { class: 'tag bot', text: t('room.autopilot') }));
      if (seat && seat.kind === 'human' && !seat.connected) flags.push(el('span', { class: 'tag offline', text: t('room.disconnected') }));
      if (seat && seat.person && seat.person === this.state.me) flags.push(el('span', { class: 'tag you', text: t('room.you') }));
      box.append(el('div', { class: `player ${active ? 'active' : ''}`, 'data-colour': p.colour },
        el('div', { class: 'pname' }, swatch(p.colour), ' ',
          el('span', { class: 'conn-dot', 'data-on': seat?.kind === 'bot' || seat?.connected ? 'yes' : 'no' }),
          el('strong', { text: seat?.name || t(`colour.${p.colour}`) }), ' ', flags,
          v.pending?.colour === p.colour ? [' ', countdown()] : null),
        el('div', { class: 'pstats' },
          stat(t('panel.score'), scores ? scores[p.colour] : p.score, 'score'),
          stat(t('panel.supply'), p.supply, 'supply'),
          stat(t('panel.on_board'), p.on_board, 'on-board'),
          stat(t('panel.royal_left'), p.royal_left, 'royal-left'),
          stat(t('panel.islands'), p.islands, 'islands'))));
    }
  }

  drawStack() {
    const t = this.t, s = this.state.shown.stack || {};
    const box = clear(this.stackEl);
    box.append(el('div', { class: 'stack-kinds' },
      el('span', { class: 'chip island', 'data-testid': 'stack-islands', text: t('stack.islands', { n: s.islands ?? '?' }) }),
      el('span', { class: 'chip ocean', 'data-testid': 'stack-oceans', text: t('stack.oceans', { n: s.oceans ?? '?' }) })));
    const row = (title, map, label) => el('div', { class: 'stack-row' }, el('div', { class: 'muted', text: title }),
      el('div', { class: 'chips' }, Object.entries(map || {}).sort().map(([k, n]) => el('span', { class: `chip ${n ? '' : 'zero'}` }, el('b', { text: label(k) }), ` ×${n}`))));
    box.append(row(t('stack.values'), s.island_values, (k) => k));
    box.append(row(t('stack.dangers'), s.ocean_dangers, (k) => (k === '0' ? t('stack.no_number') : k)));
    const hand = this.state.shown.hand;
    if (hand) {
      box.append(el('div', { class: 'in-hand', 'data-testid': 'in-hand' }, tilePicture(hand, t, 0, 'in-hand-tile'),
        el('span', { text: t('stack.in_hand', { tile: tileWords(hand, t) }) })));
    }
  }

  drawResult() {
    const t = this.t, r = this.state.shown.result;
    const box = this.resultEl;
    if (!r) { box.hidden = true; return; }
    box.hidden = false;
    clear(box);
    const name = (c) => this.state.seatOfColour(c)?.name || t(`colour.${c}`);
    box.append(el('h3', { text: t('result.title') }));
    const winners = r.winners || [];
    box.append(el('div', { class: 'winner', 'data-testid': 'winner', text: t(winners.length > 1 ? 'result.winners' : 'result.winner', { names: winners.map((c) => nameAndColour(t, c, this.state.seatOfColour(c)?.name)).join(', ') }) }));
    box.append(el('div', { class: 'decided', 'data-testid': 'decided-by', text: t(`result.decided_by.${r.decided_by}`) }));
    const tbl = el('table', { class: 'scores' }, el('thead', {}, el('tr', {},
      ['result.rank', 'result.player', 'result.score', 'result.islands', 'result.boats'].map((k) => el('th', { text: t(k) })))));
    const body = el('tbody');
    (r.ranking || []).forEach((group, i) => {
      for (const c of group) {
        body.append(el('tr', { 'data-colour': c, class: winners.includes(c) ? 'win' : '' },
          el('td', { text: String(i + 1) }), el('td', {}, swatch(c), ' ', name(c)),
          el('td', { text: String(r.scores?.[c] ?? '') }), el('td', { text: String(r.islands?.[c] ?? '') }), el('td', { text: String(r.boats?.[c] ?? '') })));
      }
    });
    tbl.append(body);
    box.append(tbl);
    if (r.teams) {
      box.append(el('div', { class: 'teams' }, el('div', { class: 'muted', text: t('result.teams') }),
        Object.entries(r.teams).map(([k, n]) => el('div', { text: `${k.split('+').map((c) => t(`colour.${c}`)).join(' + ')}: ${n}` }))));
    }
  }

  destroy() { this._unsub(); }
}

function stat(label, value, key) {
  return el('span', { class: 'stat', 'data-stat': key, title: label }, el('span', { class: 'muted', text: label }), ' ', el('b', { text: String(value ?? '–') }));
}
