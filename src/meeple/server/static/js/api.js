// The REST lobby (docs/server.md) and what the browser keeps: the display name, and per table
// the seat and its secret token (returned once by join; needed to reconnect).

async function call(method, path, body, token) {
  const headers = body === undefined ? {} : {'Content-Type': 'application/json'};
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(path, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    const detail = data && data.detail;
    let message = `${response.status} ${response.statusText}`;
    if (detail && detail.message) message = `${detail.message} (${detail.code})`;
    else if (Array.isArray(detail)) message = detail.map((d) => d.msg).join('; ');
    const error = new Error(message);
    error.code = detail && detail.code;
    // the server's message in words only (no code): what the lobby shows a person
    error.words = detail && detail.message ? detail.message : message;
    throw error;
  }
  return data;
}

/** Upload a content file (a File or Blob) for `game`'s file parameter `param`: its id. */
async function upload(game, param, file) {
  const response = await fetch(`/api/content/${encodeURIComponent(game)}/${encodeURIComponent(param)}` +
    `?name=${encodeURIComponent(file.name || 'upload.json')}`, {method: 'POST', body: file});
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    const detail = data && data.detail;
    const error = new Error(detail && detail.message ? detail.message
      : response.status === 413 ? 'the file is too large' : `${response.status} ${response.statusText}`);
    error.code = detail && detail.code;
    throw error;
  }
  return data;
}

export const api = {
  games: () => call('GET', '/api/games'),
  tables: (offset = 0) => call('GET', `/api/tables?offset=${offset}`),
  recent: () => call('GET', '/api/recent'),
  table: (id) => call('GET', `/api/tables/${encodeURIComponent(id)}`),
  create: (body) => call('POST', '/api/tables', body),
  join: (id, name, seat) => call('POST', `/api/tables/${encodeURIComponent(id)}/join`,
    seat === undefined || seat === null ? {name} : {name, seat}),
  rematch: (id) => call('POST', `/api/tables/${encodeURIComponent(id)}/rematch`),
  leave: (id, token) => call('POST', `/api/tables/${encodeURIComponent(id)}/leave`, undefined, token),
  upload,
  survey: (id, token) => call('GET', `/api/tables/${encodeURIComponent(id)}/survey`, undefined, token),
  answer: (id, token, answers) => call('POST', `/api/tables/${encodeURIComponent(id)}/survey`,
    answers, token),
};

const NAME_KEY = 'meeple.name';
const seatKey = (id) => `meeple.seat.${id}`;

export function playerName() {
  return localStorage.getItem(NAME_KEY) || '';
}

export function setPlayerName(name) {
  localStorage.setItem(NAME_KEY, name);
}

/** The seat held at table `id` in this browser: {seat, token} or null. */
export function heldSeat(id) {
  try {
    const held = JSON.parse(localStorage.getItem(seatKey(id)));
    return held && typeof held.token === 'string' ? held : null;
  } catch {
    return null;
  }
}

export function keepSeat(id, seat, token) {
  localStorage.setItem(seatKey(id), JSON.stringify({seat, token}));
}

export function forgetSeat(id) {
  localStorage.removeItem(seatKey(id));
}

/** Join table `id` (seat optional), keep its token, and go to its page. */
export async function joinAndGo(id, name, seat) {
  const joined = await api.join(id, name, seat);
  keepSeat(id, joined.seat, joined.token);
  window.location.assign(`/table/${encodeURIComponent(id)}`);
}

/** A seat's name at a table: its colour (Four Gods) or `Seat N`, and who sits there. */
export function seatLabel(table, seat) {
  const name = (table.seat_names && table.seat_names[seat]) || `Seat ${seat}`;
  const info = table.seats && table.seats[seat];
  if (!info || info.kind === 'open') return name;
  return info.kind === 'bot' ? `${name} (bot ${info.name})` : `${name} (${info.name})`;
}
