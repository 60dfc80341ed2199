// The page's side of the offline engine: calls into the worker (worker.js) as promises, a socket that
// speaks the room protocol to it (so room.js and every board work as with a server), and the saved games
// in IndexedDB. Nothing here knows a rule: it passes JSON to polytable's Python rules in the worker.

let worker = null;
let seq = 0;
const waiting = new Map();

// On a first visit the service worker is still caching the engine: the worker starts once it controls the
// page, so the engine's files are fetched once (by the cache) and not a second time by the worker.
let controlled = null;
function serviceWorkerReady() {
  if (!controlled) {
    controlled =
      !("serviceWorker" in navigator) || !window.isSecureContext || navigator.serviceWorker.controller
        ? Promise.resolve()
        : Promise.race([
            new Promise((resolve) =>
              navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true }),
            ),
            new Promise((resolve) => setTimeout(resolve, 120_000)), // no service worker after all: start anyway
          ]);
  }
  return controlled;
}

/** Call one operation of the offline engine; rejects with the engine's message (e.g. an illegal move), and
 * for an engine error its ``reason`` (engine.<code>) and ``params``, so it is shown translated. */
export async function call(op, args) {
  await serviceWorkerReady();
  if (!worker) {
    worker = new Worker("/static/offline/worker.js", { type: "module" });
    worker.onmessage = (ev) => {
      const { id, ok, value, error, reason, params } = ev.data;
      const done = waiting.get(id);
      if (!done) return;
      waiting.delete(id);
      if (ok) done.resolve(value);
      else done.reject(Object.assign(new Error(error), { reason, params }));
    };
    worker.onerror = (ev) => {
      const err = new Error(ev.message || "the offline engine could not start");
      for (const done of waiting.values()) done.reject(err);
      waiting.clear();
      worker = null;
    };
  }
  const id = ++seq;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    worker.postMessage({ id, op, args });
  });
}

/** An error of the worker as the room shows it: an engine error by its code, anything else as "the offline
 * engine could not start: <message>". */
function engineError(e) {
  if (e.reason) return { reason: e.reason, params: e.params, message: e.message };
  return { reason: "offline_engine", params: { message: e.message }, message: e.message };
}

/**
 * A stand-in for the room's WebSocket: ``send`` takes the client's messages (act, undo, preview, sync),
 * the engine answers with the server's messages (welcome, state, preview, error). AI seats move after a
 * short pause so people can follow, and every change is saved so a reload resumes the game.
 */
export class LocalSocket {
  constructor(game, { delay = 600 } = {}) {
    this.game = game; // {id, start|record, seats}
    this.delay = delay;
    this.readyState = 0;
    this.onopen = this.onmessage = this.onclose = null;
    this.closed = false;
    this.open();
  }

  async open() {
    try {
      const first = this.game.record
        ? await call("resume", { record: this.game.record, seats: this.game.seats })
        : await call("start", { ...this.game.start, seats: this.game.seats });
      this.readyState = 1;
      if (this.onopen) this.onopen();
      await this.deliver(first);
    } catch (e) {
      this.emit({ type: "error", code: "offline", ...engineError(e) });
    }
  }

  emit(m) {
    if (!this.closed && this.onmessage) this.onmessage({ data: JSON.stringify(m) });
  }

  async deliver(replies) {
    for (const m of replies) this.emit(m);
    if (replies.some((m) => m.type === "state")) {
      await this.save();
      this.pace();
    }
  }

  pace() {
    clearTimeout(this.timer);
    this.timer = setTimeout(async () => {
      if (this.closed) return;
      try {
        const state = await call("aiStep");
        if (state) await this.deliver([state]);
      } catch (e) {
        this.emit({ type: "error", code: "offline", ...engineError(e) });
      }
    }, this.delay);
  }

  async save() {
    if (this.game.temporary) return; // a guided first game is not kept
    this.game.record = await call("record");
    this.game.saved = Date.now();
    delete this.game.start;
    await saveGame(this.game);
  }

  send(text) {
    const m = JSON.parse(text);
    if (m.type === "hello") return;
    call("send", m)
      .then((replies) => this.deliver(replies))
      .catch((e) =>
        this.emit({
          type: "error",
          code: "illegal",
          reason: e.reason,
          params: e.params,
          message: e.message,
        }),
      );
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
  }
}

// ---------------------------------------------------------------- saved games (IndexedDB)
const DB = "polytable-offline";
const STORE = "games";

function db() {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE, { keyPath: "id" });
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

async function tx(mode, fn) {
  const d = await db();
  return new Promise((resolve, reject) => {
    const t = d.transaction(STORE, mode);
    const req = fn(t.objectStore(STORE));
    t.oncomplete = () => resolve(req && req.result);
    t.onerror = () => reject(t.error);
  });
}

export const saveGame = (g) => tx("readwrite", (s) => s.put(JSON.parse(JSON.stringify(g))));
export const loadGame = (id) => tx("readonly", (s) => s.get(id));
export const listGames = () => tx("readonly", (s) => s.getAll());
export const deleteGame = (id) => tx("readwrite", (s) => s.delete(id));
