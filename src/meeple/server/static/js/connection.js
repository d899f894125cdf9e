// One websocket to a table (protocol version 1, docs/server.md): hello with the seat's token,
// frames handed to `onFrame`, and reconnecting by itself with exponential backoff; each new
// connection gets a full snapshot (welcome, state, history), so nothing else needs resyncing.
// A heartbeat notices a connection that died without closing (a lost network sends no close):
// a `ping` every 10 s, and one unanswered for 15 s (no frame at all since) ends the connection.

const FIRST_DELAY_MS = 500;
const MAX_DELAY_MS = 15000;
const PING_EVERY_MS = 10000;
const SILENCE_LIMIT_MS = 15000;

export class TableConnection {
  /**
   * @param {string} tableId
   * @param {string|null} token the seat's secret, or null to watch
   * @param {{onFrame: Function, onStatus: Function, onRefused: Function}} handlers
   */
  constructor(tableId, token, handlers) {
    this.tableId = tableId;
    this.token = token;
    this.handlers = handlers;
    this.attempt = 0;
    this.nextId = 1;
    this.socket = null;
    this.stopped = false;
    this.timer = null;
  }

  url() {
    const scheme = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
    return `${scheme}//${window.location.host}/ws/tables/${encodeURIComponent(this.tableId)}`;
  }

  connect() {
    clearTimeout(this.timer);
    this.handlers.onStatus('connecting', this.attempt);
    const socket = new WebSocket(this.url());
    this.socket = socket;
    let beat = null;
    let waitingSince = null; // when the oldest ping not yet followed by any frame was sent
    socket.addEventListener('open', () => {
      socket.send(JSON.stringify({type: 'hello', v: 1, token: this.token}));
      beat = setInterval(() => {
        if (this.socket !== socket) {
          clearInterval(beat);
        } else if (waitingSince === null) {
          waitingSince = performance.now();
          this.send({type: 'ping'});
        } else if (performance.now() - waitingSince > SILENCE_LIMIT_MS) {
          clearInterval(beat);
          this.socket = null; // its close event, whenever it comes, is ignored
          socket.close();
          this.scheduleReconnect();
        }
      }, PING_EVERY_MS);
    });
    socket.addEventListener('message', (event) => {
      waitingSince = null;
      let frame;
      try {
        frame = JSON.parse(event.data);
      } catch {
        return;
      }
      if (frame.type === 'welcome') {
        this.attempt = 0;
        this.handlers.onStatus('connected', 0);
      }
      this.handlers.onFrame(frame);
    });
    socket.addEventListener('close', (event) => {
      clearInterval(beat);
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.stopped) return;
      if (event.code === 4401 || event.code === 4404) {
        // a token that holds no seat here, or no such table: retrying cannot help
        this.handlers.onRefused(event.code);
        return;
      }
      this.scheduleReconnect();
    });
  }

  scheduleReconnect() {
    const delay = Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** this.attempt);
    const jittered = Math.round(delay * (0.75 + Math.random() * 0.5));
    this.attempt += 1;
    this.handlers.onStatus('reconnecting', this.attempt, jittered);
    this.timer = setTimeout(() => this.connect(), jittered);
  }

  /** Send a client frame; returns its id, or null when not connected. */
  send(frame) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return null;
    const id = this.nextId++;
    this.socket.send(JSON.stringify({...frame, id}));
    return id;
  }

  /** Change the token (e.g. after a refused one: watch instead) and reconnect. */
  restart(token) {
    this.token = token;
    this.attempt = 0;
    if (this.socket) {
      const old = this.socket;
      this.socket = null;
      old.close();
    }
    this.connect();
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    if (this.socket) this.socket.close();
  }
}
