// The room page's connection: the server's WebSocket (or, for a game on this device, the offline engine's
// socket that speaks the same protocol), opened again after a loss with a growing pause and jitter. Its state is this
// object's own; the page hears of messages and losses through the handlers it passes.
import { LocalSocket } from "../offline/engine.js";
import { reconnectDelay } from "../lib/reconnect.js";

/** A connection to room ``code`` (``local``: a saved game on this device). ``hello()`` is the first message
 * on every (re)opened socket, ``onMessage(m)`` gets each parsed message, ``onLost()`` is called when the
 * socket closed and a new one is about to be tried. */
export function roomSocket(code, local, { hello, onMessage, onLost }) {
  const conn = { ws: null, closed: false, attempt: 0 }; // attempts since the socket last opened

  function open() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const ws = local ? new LocalSocket(local) : new WebSocket(`${proto}://${location.host}/ws/${code}`);
    conn.ws = ws;
    ws.onopen = () => {
      conn.attempt = 0;
      ws.send(JSON.stringify(hello()));
    };
    ws.onmessage = (ev) => {
      let m;
      try {
        m = JSON.parse(ev.data);
      } catch {
        return;
      }
      onMessage(m);
    };
    ws.onclose = () => {
      if (conn.closed) return;
      onLost();
      setTimeout(() => {
        if (!conn.closed) open();
      }, reconnectDelay(conn.attempt++));
    };
  }

  return {
    open,
    /** Whether the socket is open now. */
    ready: () => !!conn.ws && conn.ws.readyState === WebSocket.OPEN,
    /** Send ``obj``; false when the socket is not open (nothing is sent). */
    send(obj) {
      if (!this.ready()) return false;
      conn.ws.send(JSON.stringify(obj));
      return true;
    },
    /** Close this socket and open a new one (a seat was taken: its token is said in the new hello). */
    reconnect: () => conn.ws && conn.ws.close(),
    /** Close for good (the page is left, or the room is missing). */
    close() {
      conn.closed = true;
      if (conn.ws) conn.ws.close();
    },
    /** Stop reconnecting without closing (the room is missing: the server closes it). */
    stop() {
      conn.closed = true;
    },
  };
}
