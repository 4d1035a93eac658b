"""Headless Chromium for page screenshots: Debian's package, installed once when missing.

A missing browser that cannot be installed (not root, no network) fails the test that needs it with
the reason: a screenshot check that silently skips would prove nothing.
"""

import os
import shutil
import subprocess
import threading
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
INSTALL_TIMEOUT_S = 900
SCREENSHOT_TIMEOUT_S = 120
_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
)

_install_lock = threading.Lock()
_install_attempted = False


def _install() -> str:
    """apt-get output tail on failure, "" on success."""
    if not shutil.which("apt-get"):
        return "apt-get is not available (the helper installs Debian's chromium package)"
    if os.geteuid() != 0:
        return "installing chromium needs root: run `apt-get update && apt-get install -y chromium`"
    environment = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for command in (["apt-get", "update"], ["apt-get", "install", "-y", "chromium"]):
        try:
            done = subprocess.run(
                command,
                capture_output=True,
                text=True,
                timeout=INSTALL_TIMEOUT_S,
                env=environment,
                check=False,
            )
        except subprocess.TimeoutExpired:
            return f"`{' '.join(command)}` took longer than {INSTALL_TIMEOUT_S} s"
        if done.returncode != 0:
            return f"`{' '.join(command)}` failed ({done.returncode}): {(done.stderr or done.stdout)[-600:]}"
    return ""


def chromium_path() -> Path:
    """/usr/bin/chromium, installing Debian's package on first need; fails the test if impossible."""
    global _install_attempted
    with _install_lock:
        if not CHROMIUM.exists() and not _install_attempted:
            _install_attempted = True
            problem = _install()
            if problem:
                pytest.fail(f"chromium is missing and could not be installed: {problem}")
    if not CHROMIUM.exists():
        pytest.fail(f"chromium is missing at {CHROMIUM} (an earlier install attempt failed)")
    return CHROMIUM


def screenshot(url: str, png: Path, profile_dir: Path, width: int = 1280, height: int = 2000) -> None:
    """Loads `url` in headless Chromium and writes a `width`×`height` PNG of it to `png`."""
    command = [
        str(chromium_path()),
        *_FLAGS,
        f"--user-data-dir={profile_dir}",
        f"--screenshot={png}",
        f"--window-size={width},{height}",
        url,
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=SCREENSHOT_TIMEOUT_S, check=False)
    if done.returncode != 0 or not png.exists():
        pytest.fail(f"chromium could not screenshot {url} ({done.returncode}): {done.stderr[-800:]}")
