"""`deckcheck update` fetches the official lists (limit-regulation vectors, the Duel Links
dev.db) from a loopback mirror laid out as BASE/<owner>/<repo>/<path>, with every file kind;
a second update downloads nothing."""

from __future__ import annotations

import json
import threading
from http.server import ThreadingHTTPServer
from pathlib import Path

import pytest
from click.testing import CliRunner

from deckcheck.cli import cli
from deckcheck.update import download
from deckcheck.update.sources import load_components
from tests.update.test_update import Mirror, _build_mirror, _handler


def test_sources_name_the_official_list_files() -> None:
    keys = {c.key for c in load_components("lists")}
    assert "falsepopsky/forbidden-duel-links/prisma/dev.db" in keys
    assert "DawnbrandBots/yaml-yugi-limit-regulation/data/tcg/2026-05-18.vector.json" in keys
    assert all(not c.required for c in load_components("lists")
               if c.owner in ("falsepopsky", "DawnbrandBots"))


def test_update_installs_official_lists_and_a_second_run_downloads_nothing(
    shared_data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _build_mirror(shared_data, tmp_path / "upstream")
    lr = shared_data / "banlists" / "yaml-yugi-limit-regulation"
    links = {"falsepopsky/forbidden-duel-links/prisma/dev.db":
             shared_data / "upstream/falsepopsky__forbidden-duel-links/prisma/dev.db"}
    for c in load_components("lists"):
        if c.owner == "DawnbrandBots":
            links[c.key] = lr / c.path.removeprefix("data/")
    for rel, target in links.items():
        assert target.is_file(), target
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).symlink_to(target)
    home = tmp_path / "home"
    monkeypatch.setenv("DECKCHECK_HOME", str(home))
    monkeypatch.setattr(download, "BACKOFF", 0.0)
    m = Mirror(root)
    srv = ThreadingHTTPServer(("127.0.0.1", 0), _handler(m))
    srv.daemon_threads = True
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    m.url = f"http://127.0.0.1:{srv.server_address[1]}"
    try:
        res = CliRunner().invoke(cli, ["update", "--source", m.url, "-o", "json"],
                                 catch_exceptions=False)
        assert res.exit_code == 0, res.output
        report = json.loads(res.stdout)
        status = {f["file"]: f["status"] for f in report["files"]}
        for key in links:
            assert status[key] == "new", key
        # the Duel Links history is installed, named through the new card database
        dl = sorted((home / "banlists" / "duel-links").glob("*.yaml"))
        assert dl and dl[-1].name == "2025-05-07.yaml"
        assert (home / "banlists" / "duel-links-rush" / "2025-04-07.yaml").is_file()
        text = dl[-1].read_text(encoding="utf-8")
        assert "date_exact: true" in text and "falsepopsky/forbidden-duel-links" in text
        m.reset()
        again = CliRunner().invoke(cli, ["update", "--source", m.url, "-o", "json"],
                                   catch_exceptions=False)
        assert again.exit_code == 0, again.output
        assert m.count(200) == 0  # conditional requests only: nothing downloaded
        assert m.count(304) >= len(links)
    finally:
        srv.shutdown()
        srv.server_close()
        t.join()
