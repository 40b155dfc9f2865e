#!/usr/bin/env python3
"""The example adapter: the kit's loop with the example's handlers. In your project:
    from lembas_adapter import serve
and `lembas-check run --impl 'python3 tests/lembas_adapter.py'`."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))  # the kit, in the repo

from lembas_adapter import serve  # noqa: E402
from fs_access import fs_access  # noqa: E402
from jobs import jobs  # noqa: E402

if __name__ == "__main__":
    serve({"fs_access": fs_access, "jobs": jobs}, {
        "name": "example Python adapter",
        "version": "0.1.0",
        "language": "python",
        "harness_spec": "3.1.0",
        "homepage": "https://github.com/LLeMbas/lembas-check/tree/main/adapters/python",
    })
