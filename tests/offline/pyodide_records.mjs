// Plays seeded games with polytable's rules under Pyodide (the offline engine's runtime) and prints their
// records as JSON, for test_pyodide.py to compare with CPython's. Usage:
//   node pyodide_records.mjs PYODIDE_DIR WHEEL CASES_JSON
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
let out;
try {
  out = py.runPython(`
import json, sys
from polytable.match import random_record
records = [random_record(g, o, p, s) for g, o, p, s in json.loads(cases_json)]
json.dumps({"python": sys.version.split()[0], "records": records})
`);
} catch (e) {
  process.stderr.write(String(e.message || e));
  process.exit(1);
}
const data = JSON.parse(out);
data.load_ms = loaded;
process.stdout.write(JSON.stringify(data));
