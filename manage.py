#!/usr/bin/env python
"""Django's command-line utility for Junta."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "junta.settings")
    if sys.argv[1:2] == ["serve"]:
        # `make run`: development mode (JUNTA_DEV in junta/settings.py), for serve and the web
        # server and worker it starts; DEBUG stays off unless DJANGO_DEBUG=1 is set.
        os.environ.setdefault("JUNTA_DEV", "1")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
