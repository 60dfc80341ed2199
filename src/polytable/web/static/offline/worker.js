// The offline engine: polytable's own Python rules under Pyodide (WebAssembly CPython) in a Web Worker.
// It loads the runtime and the rules wheel the server made from its own modules (both cached by the
// service worker), holds one table (polytable.match.Table) and answers the page's calls with JSON.
// No rule is written in JavaScript: this file only moves JSON between the page and Python.
import { loadPyodide } from "/static/vendor/pyodide/pyodide.mjs";

let table = null; // the Python Table of the game on this device
let py = null;
const ready = (async () => {
  py = await loadPyodide({ indexURL: "/static/vendor/pyodide/" });
  const res = await fetch("/offline/rules.whl");
  if (!res.ok) throw new Error(`the rules could not be loaded (${res.status})`);
  py.unpackArchive(new Uint8Array(await res.arrayBuffer()), "wheel");
  py.runPython(`import json
from polytable.ai import make_bot
from polytable.core import PolytableError
from polytable.match import Table, engine_reason, game_catalogue
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
`);
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
    run(`_a = json.loads(args_json)
if _a.get("mode") == "companion":
    _t = Table.companion(_a["game"], _a.get("options"), _a.get("players"), int(_a.get("seed", 0)))
else:
    _t = Table.new(_a["game"], _a.get("options"), _a.get("players"), int(_a.get("seed", 0)), _a.get("seats"), make_bot)
`, "exec");
    table = true;
    return callPy(`json.dumps([_t.welcome(), _t.message()])`);
  },
  resume: (a) => {
    py.globals.set("args_json", JSON.stringify(a));
    run(`_a = json.loads(args_json)
_t = Table.resume(_a["record"], _a.get("seats"), make_bot)`, "exec");
    table = true;
    return callPy(`json.dumps([_t.welcome(), _t.message()])`);
  },
  send: (msg) => callPy(`json.dumps(_t.handle(json.loads(args_json)))`, msg),
  aiStep: () => callPy(`json.dumps(_t.message() if _t.ai_step() else None)`),
  aiPending: () => callPy(`json.dumps(_t.ai_seat())`),
  hint: (seat) => callPy(`json.dumps(_t.hint(int(json.loads(args_json))))`, seat),
  record: () => callPy(`json.dumps(_t.record())`),
  step: (n) => callPy(`json.dumps(_t.step(int(json.loads(args_json))))`, n),
};

self.onmessage = async (ev) => {
  const { id, op, args } = ev.data;
  try {
    await ready;
    if (!OPS[op]) throw new Error(`unknown operation ${op}`);
    if (op !== "catalogue" && op !== "start" && op !== "resume" && !table) throw new Error("no game is open");
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
    const text = String((e && e.message) || e).trim().split("\n").pop();
    self.postMessage({ id, ok: false, error: text });
  }
};
