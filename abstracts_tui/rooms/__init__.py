"""Rooms: one shared game each, known by a short code, for the SSH server and the web.

- `room`: a room (its code, setup, the live `Session`, its terms, version, seat holders);
- `terms`: what a room adds to its game (the offers waiting, the rematch, its keeper);
- `holder`: which connection a command comes from;
- `apply`: one function applies a command to a room's game and terms;
- `gateway`: a room's commands: checked on a copy, committed, then applied;
- `live`: the live-rooms store's protocol and its errors (implementations in `store/`);
- `rooms`: every room of a server, over a live store;
- `presence`: who is connected to each room's game;
- `rows`: a room's game read back from its row, checked;
- `play`: what resign, abort, take-back and rematch do to a room's game;
- `chat`: a room's chat lines, cleaned, bounded and rate-limited;
- `client`: the one way a session's app reaches the rooms (replicas of their games).

No Textual, asyncssh or psycopg here.
"""
