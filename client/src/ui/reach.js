// "Your turns" and how to be reached (server/notify/api.py): the tables being played where this person is
// seated, those waiting for them first with each deadline, and what they hear of each (every turn, only
// their move, a daily digest, nothing); an e-mail address (confirmed by a link) and this browser's web push.
// The page title counts the tables waiting: "(2) Tongiaki Online".
import { el, clear } from './dom.js';
import { apiJson, apiSend } from '../net.js';

const MODES = ['every', 'mine', 'digest', 'off'];
const REFRESH_MS = 30000;

/** The "Your turns" panel of the lobby: `{ el, refresh, destroy }`; it asks the server again every 30 s. */
export function renderReach(page) {
  const t = page.t;
  const turns = el('ul', { class: 'rooms your-turns', 'data-testid': 'your-turns' });
  const tell = el('div', { class: 'reach', 'data-testid': 'reach' });
  const root = el('section', { class: 'panel', 'data-testid': 'your-turns-panel' },
    el('h2', { text: t('reach.title') }), turns, el('h3', { text: t('reach.tell') }), tell);
  let me = null;
  let timer = null;
  let gone = false;

  let asked = 0;
  const refresh = async (soon = false) => {
    if (gone || !page.inLobby() || (soon && Date.now() - asked < 3000)) return;
    asked = Date.now();
    const got = await apiJson('/api/notify/me');
    if (gone || !got) return;
    me = got;
    draw();
  };
  const setMode = async (room, mode) => {
    const r = await apiSend('/api/notify/table', { room, mode });
    if (r.status !== 200) page.toast(t('err.server', { message: r.body?.error?.message || r.status }));
    else refresh();
  };

  function draw() {
    clear(turns);
    const waiting = me.turns.filter((x) => x.expected).length;
    if (page.inLobby() && inLobby()) document.title = waiting ? `(${waiting}) ${t('app.title')}` : t('app.title');
    if (!me.turns.length) turns.append(el('li', { class: 'muted', text: t('reach.none') }));
    for (const x of me.turns) {
      const mode = el('select', { 'data-testid': 'reach-mode', 'aria-label': t('reach.mode'), onchange: () => setMode(x.room, mode.value) },
        MODES.map((m) => el('option', { value: m, text: t(`reach.mode.${m}`) })));
      mode.value = x.mode;
      turns.append(el('li', { class: 'room-item', 'data-room': x.room, 'data-expected': String(x.expected) },
        el('div', { class: 'room-title' }, el('a', { href: `#/room/${x.room}`, text: x.name }), ' ',
          el('span', { class: `tag ${x.expected ? 'st-playing' : ''}`, text: t(x.expected ? 'reach.yours' : 'reach.others') })),
        el('div', { class: 'room-meta', 'data-testid': 'reach-deadline' }, x.deadline_ms ? t('reach.deadline', { when: when(x.deadline_ms, page) }) : '', ' '),
        el('label', { class: 'field' }, el('span', { text: t('reach.mode') }), mode)));
    }
    drawTell();
  }

  function drawTell() {
    clear(tell);
    if (!me.mail && !me.push) { tell.append(el('p', { class: 'muted', 'data-testid': 'reach-off', text: t('reach.off') })); return; }
    const reach = me.reach;
    if (me.mail) {
      const input = el('input', { type: 'email', maxlength: 254, value: reach.email || '', 'data-testid': 'reach-email', 'aria-label': t('reach.email') });
      const form = el('form', { class: 'nickname', onsubmit: async (e) => {
        e.preventDefault();
        const r = await apiSend('/api/notify/email', { email: input.value.trim(), lang: page.lang });
        if (r.status === 200) { me.reach = r.body.reach; drawTell(); } else page.toast(r.body?.error?.message || t('reach.bad_email'));
      } }, el('label', {}, t('reach.email'), ' ', input), el('button', { type: 'submit', 'data-testid': 'reach-send' }, t('reach.send_link')));
      tell.append(form);
      if (reach.email) {
        tell.append(el('p', { class: 'muted', 'data-testid': 'reach-email-state',
          text: t(reach.email_ok ? 'reach.confirmed' : 'reach.sent', { email: reach.email }) },
        ' ', el('button', { type: 'button', onclick: () => stop('mail') }, t('reach.stop'))));
      }
    }
    if (me.push && me.vapid && 'serviceWorker' in navigator && 'PushManager' in window) {
      if (reach.push) {
        tell.append(el('p', { class: 'muted', 'data-testid': 'reach-push-state', text: t('reach.push_on') }, ' ',
          el('button', { type: 'button', onclick: () => stop('push') }, t('reach.stop'))));
      } else {
        tell.append(el('button', { type: 'button', 'data-testid': 'reach-push', onclick: subscribe }, t('reach.push')));
      }
    }
  }

  async function stop(channel) {
    const r = await apiSend('/api/notify/stop', { channel });
    if (r.status === 200) { me.reach = r.body.reach; drawTell(); }
  }

  async function subscribe() {
    try {
      if (await Notification.requestPermission() !== 'granted') { page.toast(t('reach.push_denied')); return; }
      const registration = await navigator.serviceWorker.register('/sw.js');
      const sub = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: me.vapid });
      const r = await apiSend('/api/notify/push', { subscription: sub.toJSON(), lang: page.lang });
      if (r.status === 200) { me.reach = r.body.reach; drawTell(); } else page.toast(r.body?.error?.message || String(r.status));
    } catch (e) { page.toast(t('reach.push_denied')); console.error(e); }
  }

  // the count is the lobby's: leaving it, the title is the page's again (a table's own signals take over)
  const leave = () => { if (!inLobby() && /^\(\d+\) /.test(document.title)) document.title = t('app.title'); };
  window.addEventListener('hashchange', leave);
  refresh();
  timer = setInterval(refresh, REFRESH_MS);
  return { el: root, refresh, destroy() { gone = true; clearInterval(timer); window.removeEventListener('hashchange', leave); } };
}

/** Whether the address is the lobby's (a table being opened may not have changed the screen yet). */
function inLobby() { return /^(#\/?)?$/.test(location.hash); }

/** A deadline in the person's language and time zone, with the time left. */
function when(ms, page) {
  const left = Math.max(0, ms - Date.now());
  const h = Math.floor(left / 3600000), m = Math.floor((left % 3600000) / 60000);
  const at = new Date(ms).toLocaleString(page.lang, { weekday: 'short', hour: '2-digit', minute: '2-digit' });
  return `${at} (${page.t(h ? 'reach.left_h' : 'reach.left_m', { h, m })})`;
}
