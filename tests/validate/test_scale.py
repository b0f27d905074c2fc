"""``deckcheck.scale`` on a real dask.distributed LocalCluster: a JSONL table of ydke decks
checked on 2 worker processes, every verdict the same as ``deckcheck validate`` gives."""

from __future__ import annotations

import datetime as dt
import json
import os
import random
from pathlib import Path

import pytest

from tests.builders import run_deckcheck
from tests.conftest import REPO

DATE = "2026-06-01"


def _distributed() -> None:
    try:
        import dask.distributed  # noqa: F401
    except ImportError:
        # dask is in the `test` extra: CI has it; only a bare local checkout may lack it.
        if os.environ.get("DECKCHECK_REQUIRE_SHARED"):
            pytest.fail("dask[distributed] is not installed (pip install -e '.[test]')")
        pytest.skip("dask[distributed] is not installed")


def _links(shared_data: Path) -> list[str]:
    """The 209 real decks as ydke links, and as many again with a random real card added
    (unknown, forbidden, off-region cards: more kinds of verdict)."""
    from deckcheck import decks
    from deckcheck.carddb import open_db
    from deckcheck.decks.write import to_ydke
    from deckcheck.model import DeckEntry

    real = [decks.read_path(p) for p in sorted((shared_data / "decks").rglob("*.ydk"))]
    ids = open_db().all_ids()
    rng = random.Random(18)
    out = [to_ydke(d) for d in real]
    for d in real:
        d.main.append(DeckEntry("main", rng.choice([*ids, 1, 99999999]), None))
        out.append(to_ydke(d))
    return out


@pytest.mark.slow
def test_cluster_verdicts_match_validate(
    real_home: Path, shared_data: Path, tmp_path: Path
) -> None:
    _distributed()
    from dask.distributed import Client, LocalCluster

    from deckcheck import scale

    links = _links(shared_data)
    table = tmp_path / "decks.jsonl"
    with table.open("w") as f:
        for i in range(20_000):
            f.write(json.dumps({"id": f"d{i}", "ydke": links[i % len(links)]}) + "\n")
        f.write(json.dumps({"id": "broken", "ydke": "ydke://not-base64!!"}) + "\n")

    # What `deckcheck validate` says about each distinct link (one .ydke file each).
    folder = tmp_path / "links"
    folder.mkdir()
    for i, link in enumerate(links):
        (folder / f"{i:04d}.ydke").write_text(link + "\n")
    proc = run_deckcheck(
        "validate",
        "-d",
        DATE,
        "-o",
        "json",
        str(folder),
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert proc.returncode == 1, proc.stderr
    expected = []
    for d in json.loads(proc.stdout)["decks"]:
        sev = [f["severity"] for f in d["findings"]]
        expected.append(
            {
                "legal": d["legal"],
                "errors": sev.count("error"),
                "warnings": sev.count("warning"),
                "codes": sorted({f["code"] for f in d["findings"]}),
            }
        )
    assert len(expected) == len(links)
    assert any(e["legal"] for e in expected) and len({tuple(e["codes"]) for e in expected}) > 5

    data = scale.prepare("tcg", dt.date.fromisoformat(DATE))
    with (
        LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        Client(cluster) as client,
    ):
        n = scale.run(table, tmp_path / "out", data, client)
        assert len(client.scheduler_info()["workers"]) == 2
    got = scale.read_verdicts(tmp_path / "out")
    assert n == len(got) == 20_001
    assert len(list((tmp_path / "out").glob("part-*.jsonl"))) > 1  # both workers had work
    for i, v in enumerate(got[:-1]):
        assert v["id"] == f"d{i}"
        assert {k: v[k] for k in expected[0]} == expected[i % len(links)], v
    assert got[-1]["id"] == "broken" and not got[-1]["legal"] and got[-1]["codes"] == ["DC101"]


def test_check_rows_without_a_cluster(real_home: Path, shared_data: Path) -> None:
    """The library side alone: the snapshot pickles, rows come back in order, a row without
    the column is an unreadable deck, not a dropped one."""
    import pickle

    from deckcheck import scale

    data = pickle.loads(pickle.dumps(scale.prepare("tcg", dt.date.fromisoformat(DATE))))
    link = _links(shared_data)[0]
    rows = [{"id": 1, "ydke": link}, {"id": 2}, {"id": 3, "ydke": link}]
    got = list(scale.check_rows(rows, data))
    assert [g["id"] for g in got] == [1, 2, 3]
    assert got[0] == {**got[2], "id": 1}
    assert got[1]["codes"] == ["DC101"] and not got[1]["legal"]
