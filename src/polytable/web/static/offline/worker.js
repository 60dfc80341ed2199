// The offline engine: polytable's own Python rules under Pyodide (WebAssembly CPython) in a Web Worker.
// It loads the runtime and the rules wheel the server made from its own modules (both cached by the
// service worker), holds one table (polytable.match.Table) and answers the page's calls with JSON.
// No rule is written in JavaScript: this file only moves JSON between the page and Python.
//
// Starting Python and importing the rules is most of a load: the first start keeps a memory snapshot of
// the interpreter with the rules imported (Pyodide's snapshots, in the Cache API, named by the Pyodide
// version and the wheel's hash), and later starts restore it instead. A snapshot that cannot be restored
// is marked and Python starts normally (see docs/offline.md).
import { loadPyodide, version } from "/static/vendor/pyodide/pyodide.mjs";
import createPyodideModule from "/static/vendor/pyodide/pyodide.asm.mjs";

const INDEX = "/static/vendor/pyodide/";
const SNAPSHOTS = "polytable-engine-snapshot";
const IMPORTS = `import json
from polytable.ai import make_bot
from polytable.core import PolytableError
from polytable.match import Table, engine_reason, game_catalogue
game_catalogue()  # imports every game, so a snapshot holds them all
_error = None
def _run(src, mode):
    """Run the page's call; an engine error is kept (message, reason engine.<code>, params) for the page."""
    global _error
    _error = None
    try:
        return eval(src, globals()) if mode == "eval" else exec(src, globals())
    except PolytableError as e:
        _error = json.dumps({"message": str(e), **engine_reason(e)})
        raise
`;

let table = null; // the Python Table of the game on this device
let py = null;
let started = null; // "snapshot" or "fresh": how Python started (the "engine" operation reports it)

const hex = (buf) => Array.from(new Uint8Array(buf), (b) => b.toString(16).padStart(2, "0")).join("");

// Emscripten's module makes its own memory: grow it to the snapshot's size before Pyodide copies it in.
const growTo = (snapshot) => async (settings) => {
  const size = (await snapshot).length;
  const grow = (mod) => {
    if (mod.HEAP8.length < size) mod._free(mod._malloc(size));
  };
  settings.preRun = [...settings.preRun, grow];
  return createPyodideModule(settings);
};

async function restore(hit, wheel) {
  // read while Pyodide fetches its runtime
  const snapshot = hit.arrayBuffer().then((b) => new Uint8Array(b));
  const options = { indexURL: INDEX, _loadSnapshot: snapshot, createPyodideModule: growTo(snapshot) };
  const restored = await loadPyodide(options);
  restored.unpackArchive(wheel, "wheel"); // the files are not in the snapshot: modules imported late read them
  if (restored.runPython("Table.__name__") !== "Table") throw new Error("the snapshot holds no rules");
  return restored;
}

// Called before any game is opened: the snapshot is taken at once and stored in the background. It is kept
// as it is (38 MB): gzip makes it 8.5 MB but zipping holds up this thread, so a move's save waits seconds.
async function keep(fresh, store, key) {
  const snapshot = new Blob([fresh.makeMemorySnapshot()]);
  for (const old of await store.keys()) await store.delete(old); // only the current snapshot is kept
  await store.put(key, new Response(snapshot));
}

const ready = (async () => {
  const res = await fetch("/offline/rules.whl");
  if (!res.ok) throw new Error(`the rules could not be loaded (${res.status})`);
  const wheel = new Uint8Array(await res.arrayBuffer());
  // The Cache API and crypto.subtle need a secure context (https or this machine): elsewhere, no snapshot.
  const store = self.isSecureContext ? await caches.open(SNAPSHOTS).catch(() => null) : null;
  const key = store && `/offline/snapshot/${version}/${hex(await crypto.subtle.digest("SHA-256", wheel))}`;
  const hit = store && (await store.match(key));
  if (hit && hit.headers.get("X-Unusable") === null) {
    try {
      py = await restore(hit, wheel);
      started = "snapshot";
      return py;
    } catch (e) {
      console.warn("the engine's snapshot could not be restored; starting Python anew", e);
      const unusable = new Response("", { headers: { "X-Unusable": "1" } });
      await store.put(key, unusable).catch(() => {}); // not tried again
    }
  }
  const snapshots = store !== null && !hit;
  py = await loadPyodide({ indexURL: INDEX, _makeSnapshot: snapshots });
  py.unpackArchive(wheel, "wheel");
  py.runPython(IMPORTS);
  started = "fresh";
  if (snapshots) keep(py, store, key).catch((e) => console.warn("the engine's snapshot was not kept", e));
  return py;
})();

const run = (code, mode = "eval") => py.globals.get("_run")(code, mode);
const callPy = (code, args) => {
  py.globals.set("args_json", JSON.stringify(args ?? null));
  return JSON.parse(run(code));
};

const OPS = {
  catalogue: () => callPy(`json.dumps(game_catalogue())`),
  start: (a) => {
    py.globals.set("args_json", JSON.stringify(a));
    run(
      `_a = json.loads(args_json)
if _a.get("mode") == "companion":
    _t = Table.companion(_a["game"], _a.get("options"), _a.get("players"), int(_a.get("seed", 0)))
else:
    _t = Table.new(_a["game"], _a.get("options"), _a.get("players"), int(_a.get("seed", 0)), _a.get("seats"), make_bot)
`,
      "exec",
    );
    table = true;
    return callPy(`json.dumps([_t.welcome(), _t.message()])`);
  },
  resume: (a) => {
    py.globals.set("args_json", JSON.stringify(a));
    run(
      `_a = json.loads(args_json)
_t = Table.resume(_a["record"], _a.get("seats"), make_bot)`,
      "exec",
    );
    table = true;
    return callPy(`json.dumps([_t.welcome(), _t.message()])`);
  },
  send: (msg) => callPy(`json.dumps(_t.handle(json.loads(args_json)))`, msg),
  aiStep: () => callPy(`json.dumps(_t.message() if _t.ai_step() else None)`),
  aiPending: () => callPy(`json.dumps(_t.ai_seat())`),
  hint: (seat) => callPy(`json.dumps(_t.hint(int(json.loads(args_json))))`, seat),
  record: () => callPy(`json.dumps(_t.record())`),
  step: (n) => callPy(`json.dumps(_t.step(int(json.loads(args_json))))`, n),
  engine: () => ({ pyodide: version, started }),
};

self.onmessage = async (ev) => {
  const { id, op, args } = ev.data;
  try {
    await ready;
    if (!OPS[op]) throw new Error(`unknown operation ${op}`);
    if (!["catalogue", "start", "resume", "engine"].includes(op) && !table) throw new Error("no game is open");
    self.postMessage({ id, ok: true, value: OPS[op](args) });
  } catch (e) {
    // An engine error comes with its code (reason engine.<code>, params) so the page can translate it;
    // any other Python exception's last line is its message ("ValueError: ..."): keep that, not the trace.
    const kept = py && py.globals.get("_error");
    if (typeof kept === "string") {
      const { message, reason, params } = JSON.parse(kept);
      self.postMessage({ id, ok: false, error: message, reason, params });
      return;
    }
    const text = String((e && e.message) || e)
      .trim()
      .split("\n")
      .pop();
    self.postMessage({ id, ok: false, error: text });
  }
};
