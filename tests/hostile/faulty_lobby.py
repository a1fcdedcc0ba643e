"""Imported by the server of processes of `faulty_server.py`, before it forks a
session's process: the faults of `faults.py`, applied there too."""

import faults

faults.apply()
