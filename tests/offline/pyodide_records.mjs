// Plays seeded games with polytable's rules under Pyodide (the offline engine's runtime) and prints their
// records as JSON, for test_pyodide.py to compare with CPython's. Usage:
//   node pyodide_records.mjs PYODIDE_DIR WHEEL CASES_JSON   (the games are played by _records.py)
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import path from "node:path";

const [dir, wheel, casesFile] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(path.join(dir, "pyodide.mjs")).href);
const t0 = Date.now();
const py = await loadPyodide({ indexURL: dir + path.sep });
py.unpackArchive(new Uint8Array(readFileSync(wheel)), "wheel");
const loaded = Date.now() - t0;
py.globals.set("cases_json", readFileSync(casesFile, "utf8"));
py.globals.set("player_source", readFileSync(new URL("./_records.py", import.meta.url), "utf8"));
let out;
try {
  out = py.runPython(`
import json, sys
exec(compile(player_source, "_records.py", "exec"))
records = [play(case) for case in json.loads(cases_json)]
json.dumps({"python": sys.version.split()[0], "records": records})
`);
} catch (e) {
  process.stderr.write(String(e.message || e));
  process.exit(1);
}
const data = JSON.parse(out);
data.load_ms = loaded;
process.stdout.write(JSON.stringify(data));
