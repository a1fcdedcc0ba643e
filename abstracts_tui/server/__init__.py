"""The servers: `abstracts-tui serve` (SSH, and `--web` beside it) and `abstracts-tui web`,
hosting each session's app on a thread or in a process of its own.

- `limits`: the server's settings and limits; `auth`: who may connect, passwords, keys,
  the host key; `guesses`: password checks under a budget per address;
- `session_thread`: a session's app on its own thread and loop (which loop owns what);
  `session_process` (the server's side) and `session_child` (the process's): the app in a
  process of its own, with `messages` the link between the two;
- `room_desk`: a session's desk on the server's loop, the server's side of the rooms'
  client (`..rooms.client`);
- `room_files`: the room files of earlier versions, checked and imported into the store;
  `files`: reading the data folder without following links, setting bad files aside;
- `capacity`, `bites`, `held_frames`, `collector`, `lateness`, `descriptors`,
  `quiet_log`: what one client may take of the server, and the server's watch over its
  loop; `serving`: running until told to stop;
- `ssh/`: the SSH server; `web/`: the browsers' pages.

The apps themselves are `..tui` (the full-screen app, with the rooms' screens in
`..tui.rooms`) and `..lines` (line mode); nothing below this package imports it.
"""
