"""The real server with the faults of `faults.py` put in its lobby, for
`test_session_threads.py`: `python tests/hostile/faulty_server.py serve ...` (each
session's process has them too; with `--threads`, each session's thread)."""

from __future__ import annotations

if __name__ == "__main__":
    import os

    import faults  # this script's folder is on the path

    from abstracts_tui.cli import main
    from abstracts_tui.server import session_process

    faults.apply()
    # The server of processes is a new interpreter: it finds `faulty_lobby` (which
    # applies the faults as it is imported) on the path it is given.
    here = os.path.dirname(os.path.abspath(__file__))
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [here, os.environ.get("PYTHONPATH")]))
    session_process.PRELOAD.append("faulty_lobby")
    main()
