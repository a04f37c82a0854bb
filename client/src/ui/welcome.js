// The top of the lobby: what the game is (two lines), "Play against bots now" (one click), "How to
// play" and the rules, the recent finished games and the person's own (GET /api/games, §12).
import { el, clear, swatch } from './dom.js';
import { refusal } from '../i18n.js';
import { apiJson } from '../net.js';
import { BOT_LEVELS, botTag } from './room.js';

const REFRESH_MS = 3000;
const LEVEL_KEY = 'tongiaki.botLevel';   // the level "Play against bots now" last played (kept)

function storedLevel() {
  let level = null;
  try { level = localStorage.getItem(LEVEL_KEY); } catch { /* ignore */ }
  return BOT_LEVELS.includes(level) ? level : 'greedy';
}

export function renderWelcome(page) {
  const t = page.t;
  const recent = el('ul', { class: 'games', 'data-testid': 'recent-games' });
  const mine = el('ul', { class: 'games', 'data-testid': 'my-games' });
  const level = el('select', { 'data-testid': 'play-bots-level', 'aria-label': t('bot.level'),
    onchange: () => { try { localStorage.setItem(LEVEL_KEY, level.value); } catch { /* ignore */ } } },
  BOT_LEVELS.map((l) => el('option', { value: l, text: t(`bot.${l}`) })));
  level.value = storedLevel();
  const playBots = el('button', { type: 'button', class: 'primary big', 'data-testid': 'play-bots', onclick: () => playAgainstBots(page, playBots, level.value) }, t('lobby.play_bots'));
  const root = el('div', { class: 'welcome' },
    el('section', { class: 'panel intro', 'data-testid': 'intro' },
      el('p', { text: t('lobby.intro1') }), el('p', { text: t('lobby.intro2') }),
      el('div', { class: 'buttons' }, el('span', { class: 'play-bots' }, playBots, el('label', { class: 'bots-level' }, t('bot.level'), ' ', level)),
        el('a', { class: 'button', href: '#/learn', 'data-testid': 'how-to-play', text: t('lobby.how') }),
        el('a', { class: 'button', href: '#/rules', 'data-testid': 'rules-link', text: t('lobby.rules') }))),
    el('section', { class: 'panel' }, el('h2', { text: t('lobby.recent') }), recent),
    el('section', { class: 'panel' }, el('h2', { text: t('lobby.mine') }), mine));
  let last = 0;
  const refresh = async (force = false) => {
    if (!force && Date.now() - last < REFRESH_MS) return;
    last = Date.now();
    fillGames(page, recent, await games('/api/games?limit=10'));
    const me = page.session()?.person;
    fillGames(page, mine, me ? await games(`/api/games?limit=10&person=${encodeURIComponent(me)}`) : []);
  };
  refresh(true);
  return { el: root, refresh };
}

/** A table of three seats, two bots of the chosen level, started at once. */
async function playAgainstBots(page, button, level) {
  button.disabled = true;
  try {
    const name = page.t('lobby.bots_table', { name: page.session()?.name || 'Guest' }).slice(0, 40);
    const made = await page.request('room_create', { name, seats: 3, private: true, bot_pace: 1 });
    if (!made.ok) { page.toast(refusal(page.t, made.error)); return; }
    for (const seat of [1, 2]) {
      const added = await page.request('bot_add', { room: made.room.id, seat, level });
      if (!added.ok) { page.toast(refusal(page.t, added.error)); return; }
    }
    const started = await page.request('room_start', { room: made.room.id, fill_with_bots: true });
    if (!started.ok) { page.toast(refusal(page.t, started.error)); return; }
    page.request('lobby_unwatch', {});
    page.go(`room/${made.room.id}`);
  } finally { button.disabled = false; }
}

/** A finished game's seats in rank order: the winners first, then by score (a seat's score is its
 *  best colour's; equal scores share a rank). */
export function standings(g) {
  const winners = new Set(g.winners || []);
  const rows = (g.seats || []).map((seat) => {
    const cs = seat.colours || [];
    const score = cs.length ? Math.max(...cs.map((c) => g.scores?.[c] ?? -Infinity)) : null;
    return { seat, score: Number.isFinite(score) ? score : null, won: cs.some((c) => winners.has(c)) };
  });
  rows.sort((a, b) => (b.won - a.won) || ((b.score ?? -1) - (a.score ?? -1)));
  rows.forEach((r, i) => {
    const prev = rows[i - 1];
    r.rank = prev && prev.won === r.won && prev.score === r.score ? prev.rank : i + 1;
  });
  return rows;
}

async function games(url) {
  return (await apiJson(url))?.games || [];
}

function fillGames(page, list, found) {
  const t = page.t;
  clear(list);
  if (!found.length) { list.append(el('li', { class: 'muted', text: t('lobby.none') })); return; }
  for (const g of found) {
    const when = new Date((g.finished || 0) * 1000);
    list.append(el('li', { class: 'game-item', 'data-game': g.id, 'data-mode': g.game || 'tongiaki' },
      el('div', { class: 'room-title' }, el('strong', { text: g.name }), ' ',
        el('span', { class: 'tag', 'data-testid': 'game-mode', text: g.game === 'expeditions' ? t('ex.mode') : 'Tongiaki' }), ' ',
        el('span', { class: 'muted', text: when.toLocaleString(page.lang) })),
      el('ol', { class: 'standings', 'data-testid': 'standings' }, standings(g).map(({ seat, rank, score }) => el('li', { 'data-rank': rank },
        el('span', { class: 'rank', text: `${rank}.` }), ' ', swatch((seat.colours || [])[0]), ' ', seat.name || '?',
        seat.kind === 'bot' ? [' ', botTag(t, seat)] : null, ' ', el('b', { class: 'score', text: String(score ?? '–') })))),
      el('a', { class: 'button', href: `#/replay/${g.id}`, 'data-testid': 'open-replay', text: t('replay.open') })));
  }
}
