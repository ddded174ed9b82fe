"""tools/walkthrough.sh -- the README's five-minute walk-through -- runs clean."""
from __future__ import annotations

import pathlib
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.mark.slow  # ~25 tiplu processes
@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_the_walkthrough_script_passes():  # rules
    env = {"PATH": f"{pathlib.Path(sys.executable).parent}:/usr/bin:/bin", "TIPLU": f"{sys.executable} -m audit.cli",
           "HOME": str(ROOT)}
    done = subprocess.run(["bash", str(ROOT / "tools" / "walkthrough.sh")], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "walkthrough: all steps passed" in done.stdout
    # the second reveal at the end is refused with one line on stderr
    assert done.stderr.strip().splitlines()[-1].startswith("tiplu: error: hand 'demo-1' is revealed")
