"""The browsers' pages: `abstracts-tui web` (`visitors`: the app in a browser, one app per
visitor, each `visitor` run by textual-serve) and `abstracts-tui serve --web` (`rooms`:
the SSH server's rooms, each page's app a session's, `room_page`).

- `page_session`: one page's websocket, each message checked (`limits`) before the app
  gets it; `signin`: signing in with SSH's names and passwords;
- `links`: the addresses people share (`/room/CODE`, `/@/NAME`, `/leaderboard/GAME`),
  `standings_page` the last two's HTML;
- `guard`: what a connection may hold before it is a page, and say in HTTP; `address`:
  where browsers reach the server; `internals`: what is taken from textual-serve beyond
  its documented use; `page.html`: the page.
"""
