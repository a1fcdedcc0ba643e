"""Play over SSH: `abstracts-tui serve` runs one asyncio loop for the connections, the
rooms and the store, and each terminal session's app on a thread of its own.

- `driver`: the Textual driver that draws on an SSH channel;
- `auth`: who may connect, passwords, keys, the host key;
- `limits`: the server's settings and limits;
- the rooms themselves are `..rooms` (one model, over a live store of `..store`);
- `room_files`: the room files of earlier versions, checked and imported into the store;
- `commands`: `games`, `export` and `ratings`, answered from the store;
- `files`: reading the data folder without following links, setting bad files aside;
- `lobby`: the lobby and waiting screens; `app`: the app each connection gets;
- `server`: the asyncssh server and its sessions;
- `session_thread`: a session's app on its own thread and loop (which loop owns what);
- `room_client`: the one way such an app reaches the rooms (replicas of their games);
- `crossing`: the one helper that crosses between the loops and threads (line mode too).
"""
