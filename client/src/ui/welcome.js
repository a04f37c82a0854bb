// The top of the lobby: what the game is (two lines), "Play against bots now" (one click), "How to
// play" and the rules, the recent finished games and the person's own (GET /api/games, §12).
import { el, clear, swatch } from './dom.js';
import { apiJson } from '../net.js';

const REFRESH_MS = 3000;

export function renderWelcome(app) {
  const t = app.t;
  const recent = el('ul', { class: 'games', 'data-testid': 'recent-games' });
  const mine = el('ul', { class: 'games', 'data-testid': 'my-games' });
  const playBots = el('button', { type: 'button', class: 'primary big', 'data-testid': 'play-bots', onclick: () => playAgainstBots(app, playBots) }, t('lobby.play_bots'));
  const root = el('div', { class: 'welcome' },
    el('section', { class: 'panel intro', 'data-testid': 'intro' },
      el('p', { text: t('lobby.intro1') }), el('p', { text: t('lobby.intro2') }),
      el('div', { class: 'buttons' }, playBots,
        el('a', { class: 'button', href: '#/learn', 'data-testid': 'how-to-play', text: t('lobby.how') }),
        el('a', { class: 'button', href: '#/rules', 'data-testid': 'rules-link', text: t('lobby.rules') }))),
    el('section', { class: 'panel' }, el('h2', { text: t('lobby.recent') }), recent),
    el('section', { class: 'panel' }, el('h2', { text: t('lobby.mine') }), mine));
  let last = 0;
  const refresh = async (force = false) => {
    if (!force && Date.now() - last < REFRESH_MS) return;
    last = Date.now();
    fillGames(app, recent, await games('/api/games?limit=10'));
    const me = app.session?.person;
    fillGames(app, mine, me ? await games(`/api/games?limit=10&person=${encodeURIComponent(me)}`) : []);
  };
  refresh(true);
  return { el: root, refresh };
}

/** A table of three seats, two of them bots, started at once. */
async function playAgainstBots(app, button) {
  button.disabled = true;
  try {
    const name = app.t('lobby.bots_table', { name: app.session?.name || 'Guest' }).slice(0, 40);
    const made = await app.net.request('room_create', { name, seats: 3, private: true, bot_pace: 1 });
    if (!made.ok) { app.toast(app.t('err.server', { message: made.error?.message })); return; }
    const started = await app.net.request('room_start', { room: made.room.id, fill_with_bots: true });
    if (!started.ok) { app.toast(app.t('err.server', { message: started.error?.message })); return; }
    app.net.request('lobby_unwatch', {});
    app.go(`room/${made.room.id}`);
  } finally { button.disabled = false; }
}

async function games(url) {
  return (await apiJson(url))?.games || [];
}

function fillGames(app, list, found) {
  const t = app.t;
  clear(list);
  if (!found.length) { list.append(el('li', { class: 'muted', text: t('lobby.none') })); return; }
  for (const g of found) {
    const names = (c) => (g.seats || []).find((s) => (s.colours || []).includes(c))?.name || t(`colour.${c}`);
    const when = new Date((g.finished || 0) * 1000);
    list.append(el('li', { class: 'game-item', 'data-game': g.id },
      el('div', { class: 'room-title' }, el('strong', { text: g.name }), ' ',
        el('span', { class: 'muted', text: when.toLocaleString(app.lang) })),
      el('div', { class: 'room-meta' }, (g.seats || []).map((s) => [swatch((s.colours || [])[0]), ' ', s.name, ' ']),
        '· ', t('lobby.won', { names: (g.winners || []).map(names).join(', ') })),
      el('a', { class: 'button', href: `#/replay/${g.id}`, 'data-testid': 'open-replay', text: t('replay.open') })));
  }
}
