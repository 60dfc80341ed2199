"""Run the web app in a real process: ``python _server.py PORT DB_URL AI_DELAY [REDIS_URL CHANNEL]``.

The toy game is registered first (it is only known to the tests)."""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from kernel.toy import ToyGame
from polytable.core import register


def main() -> None:
    import uvicorn

    from polytable.cli.cmd_web import SERVER_OPTIONS
    from polytable.web import Settings, create_app

    register(ToyGame())
    port, db, delay = int(sys.argv[1]), sys.argv[2], float(sys.argv[3])
    broadcaster = None
    if len(sys.argv) > 5:
        from polytable.web._pubsub import RedisBroadcaster

        broadcaster = RedisBroadcaster(sys.argv[4], sys.argv[5])
    app = create_app(db, Settings(ai_delay=delay, rooms_per_minute=10_000), broadcaster=broadcaster)
    uvicorn.run(app, host="127.0.0.1", port=port, **SERVER_OPTIONS)  # the stack `polytable serve` runs


if __name__ == "__main__":
    main()
