"""Play over SSH: `abstracts-tui serve` runs one asyncio loop for the connections, the
rooms and the store, and each terminal session's app on a thread of its own.

- `server`: the asyncssh server and its sessions;
- `terminal_session`: one session channel and its bounds;
- `commands`: `games`, `export` and `ratings`, answered from the store;
- `keys`: which clients' keys and signatures the server takes.

What SSH shares with the browsers' pages is the package above (`..`: the limits, who may
connect, the sessions' threads and processes, the room files); the app each connection
gets is `...tui.rooms` (the lobby and waiting screens, `app`, the `driver` that draws on
an SSH channel), line mode's lobby and rooms `...lines`; the rooms themselves are
`...rooms` (one model, over a live store of `...store`), reached through
`...rooms.client` (replicas of their games); `...crossing` is the one helper that
crosses between the loops and threads (line mode too).
"""
