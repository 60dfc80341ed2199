"""Run every benchmark and write the figures as JSON (``python benchmarks/run_all.py [OUT.json]``).

The same benchmarks are behind ``polytable bench``; this script exists so that a benchmark run can be
archived next to the commit it measured. Figures are printed and saved, never asserted.
"""

from __future__ import annotations

import json
import platform
import sys
import time

from polytable.bench import benchmarks


def main() -> None:
    out = sys.argv[1] if len(sys.argv) > 1 else None
    results: dict[str, object] = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "when": time.strftime("%Y-%m-%d %H:%M:%S"),
    }
    for name, run in benchmarks().items():
        print(f"running {name} ...", file=sys.stderr)
        results[name] = run(False)
    text = json.dumps(results, indent=1)
    if out:
        with open(out, "w", encoding="utf-8") as fh:
            fh.write(text)
    print(text)


if __name__ == "__main__":
    main()
