"""The upstream files `deckcheck update` knows (card_db/sources.yaml) and where to get them."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Literal
from urllib.parse import unquote, urlparse

from deckcheck import paths
from deckcheck.errors import DataError, InputError
from deckcheck.records import Record, record

Kind = Literal["cards", "names", "official", "lists"]
KINDS: tuple[Kind, ...] = ("cards", "names", "official", "lists")
#: Kinds that feed the card database (``--only cards``).
CARD_KINDS: tuple[Kind, ...] = ("cards", "names", "official")
ENV_SOURCE = "DECKCHECK_SOURCE"


@record
class Component(Record):
    """One upstream file: ``<owner>/<repo>/<path>`` on branch ``branch``."""

    owner: str
    repo: str
    branch: str
    path: str
    kind: Kind
    required: bool
    max_bytes: int
    # Default home when it is not the raw-file host (GitHub Pages, a release asset); a
    # mirror still serves the file as <owner>/<repo>/<path>.
    url: str | None = None

    @property
    def key(self) -> str:
        """Mirror-relative path, also the file's name in the download cache."""
        return f"{self.owner}/{self.repo}/{self.path}"


@record
class Source(Record):
    """Where the files come from: a URL template, a mirror URL, or a mirror directory."""

    label: str  # what the user named (or the default template)
    template: str | None = None  # URL with {owner} {repo} {branch} {path}
    directory: Path | None = None
    upstream: bool = False  # the default: each file's own home (Component.url) wins

    def locate(self, comp: Component) -> str:
        """The URL (or file path, for a directory mirror) of ``comp``."""
        if self.directory is not None:
            return str(self.directory / comp.owner / comp.repo / comp.path)
        assert self.template is not None
        template = comp.url if self.upstream and comp.url else self.template
        return template.format(owner=comp.owner, repo=comp.repo, branch=comp.branch, path=comp.path)


def _sources_file() -> Path:
    return paths.builtin_card_db_dir() / "sources.yaml"


def _raw() -> dict[str, Any]:
    import yaml  # only `update` pays for yaml

    f = _sources_file()
    try:
        data = yaml.safe_load(f.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise DataError(f"cannot read the sources file: {exc}", where=str(f)) from None
    if not isinstance(data, dict) or not isinstance(data.get("repositories"), list):
        raise DataError("expected a mapping with a 'repositories' list", where=str(f))
    return data


def default_template() -> str:
    return str(_raw()["url_template"])


def load_components(only: Kind | Literal["cards+names"] | None = None) -> list[Component]:
    """Every file of ``sources.yaml`` in order; ``only`` keeps one part ("cards" keeps the
    names and the official card data too)."""
    data = _raw()
    where = str(_sources_file())
    caps = data.get("max_mb") or {}
    out: list[Component] = []
    for i, repo in enumerate(data["repositories"]):
        try:
            kind = repo["kind"]
            if kind not in KINDS:
                raise DataError(f"repositories[{i}].kind: unknown kind {kind!r}", where=where)
            for f in repo["files"]:
                out.append(
                    Component(
                        owner=str(repo["owner"]),
                        repo=str(repo["repo"]),
                        branch=str(repo["branch"]),
                        path=str(f["path"]),
                        kind=kind,
                        required=bool(f.get("required", True)),
                        max_bytes=int(f.get("max_mb", caps.get(kind, 64)) * 1024 * 1024),
                        url=str(repo["url_template"]) if repo.get("url_template") else None,
                    )
                )
        except (KeyError, TypeError) as exc:
            raise DataError(f"repositories[{i}]: missing or bad key {exc}", where=where) from None
    if only == "lists":
        out = [c for c in out if c.kind == "lists"]
    elif only in ("cards", "cards+names"):
        out = [c for c in out if c.kind in CARD_KINDS]
    return out


def resolve_source(base: str | None) -> Source:
    """``--source`` (or ``$DECKCHECK_SOURCE``, or the GitHub default) as a Source."""
    base = base or os.environ.get(ENV_SOURCE) or None
    if not base:
        t = default_template()
        return Source(label=t, template=t, upstream=True)
    parsed = urlparse(base)
    if parsed.scheme in ("http", "https"):
        return Source(label=base, template=base.rstrip("/") + "/{owner}/{repo}/{path}")
    if parsed.scheme == "file":
        base = unquote(parsed.path)
    elif parsed.scheme and len(parsed.scheme) > 1:
        raise InputError(f"unsupported source {base!r}: use an http(s) URL or a directory")
    d = Path(base).expanduser()
    if not d.is_dir():
        raise InputError("source directory not found", where=str(d))
    return Source(label=str(d), directory=d.resolve())
