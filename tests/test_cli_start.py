"""A command loads only the parts it uses: `--help` none of the engine, `facts` no search,
no model and no vectors, `context` no embedder unless the stream has vectors to compare.

What each command imports is checked in a fresh process, as `threefold` runs; how long
that takes is measured in benchmarks/cli_start.py, not here.
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from threefold import Memory, load_settings
from threefold.domain import DEFAULT_TENANT
from threefold.faces.cli import app

STREAM = "project:alpha"
EMBEDDING = ("numpy", "onnxruntime", "tokenizers", "threefold.store.vectors")
READING = ("threefold.models.heuristic.extract", "pysbd", "dateparser", "threefold.team.cues")
ENGINE = ("threefold.memory", "pydantic_settings", "tiktoken", "httpx", "openai")
NEVER_SHORT = ("pydantic_settings", "tomllib", "tiktoken")
"""Settings are read by threefold (tomllib only for a settings file), and a short command
counts tokens in Python over the rank table file: none of these on `facts` or `context`."""

_RUN = """
import json, sys
from threefold.faces.cli import app
sys.argv = ["threefold", *json.loads(sys.argv[1])]
try:
    app()
except SystemExit as exit:
    assert not exit.code, exit.code
print(json.dumps(sorted(sys.modules)), file=sys.stderr)
"""


def loaded(args: list[str], **env: str) -> set[str]:
    """The modules loaded once `threefold *args` has run."""
    done = subprocess.run(
        [sys.executable, "-c", _RUN, json.dumps(args)],
        env={"PATH": "/usr/bin:/bin", "HOME": str(Path.home()), **env},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return set(json.loads(done.stderr.strip().splitlines()[-1]))


@pytest.fixture(scope="module")
def stores(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A stream with its facts and more turns than a context shows verbatim (so that it
    searches the older ones), once without vectors and once with the hashing embedder's."""
    made = {}
    for kind in ("none", "hashing"):
        db = tmp_path_factory.mktemp("cli") / f"{kind}.db"
        settings = load_settings(db=db, embed={"kind": kind})
        with Memory.open(settings=settings, background_worker=False) as memory:
            memory.add_turn(STREAM, "Raj is the Lead Architect.", "Noted.")
            memory.add_turn(STREAM, "The Alpha deadline is March 27.", "Got it.")
            for n in range(settings.session_turns + settings.recent_turns):  # older ones too
                memory.add_turn(STREAM, f"Standup {n}: nothing new on the badge printer.", "Ok.")
            memory.process_pending()
        made[kind] = db
    return made


def test_help_loads_none_of_the_engine() -> None:
    modules = loaded(["--help"])
    assert not {*EMBEDDING, *READING, *ENGINE} & modules
    assert not {m for m in modules if m.startswith(("threefold.store", "threefold.pipeline"))}


def test_facts_load_no_search_no_model_and_no_vectors(stores: dict[str, Path]) -> None:
    for kind, db in stores.items():
        modules = loaded(["--db", str(db), "facts", STREAM], THREEFOLD_EMBED__KIND=kind)
        assert "threefold.memory" in modules, kind
        assert not {*EMBEDDING, *READING, *NEVER_SHORT, "threefold.recall.search"} & modules, kind
        # Into a pipe the rows are plain tab-separated lines: rich is for a terminal.
        assert "rich" not in modules, kind


def test_context_embeds_only_a_stream_with_vectors(stores: dict[str, Path]) -> None:
    question = ["context", STREAM, "Who is the lead architect?"]
    plain = loaded(["--db", str(stores["none"]), *question], THREEFOLD_EMBED__KIND="none")
    assert "threefold.context.assemble" in plain
    assert not {*EMBEDDING, *READING, *NEVER_SHORT, "rich"} & plain
    # With vectors the question is embedded, and so compared: numpy is needed then.
    embedded = loaded(["--db", str(stores["hashing"]), *question], THREEFOLD_EMBED__KIND="hashing")
    assert {"numpy", "threefold.store.vectors"} <= embedded


def test_without_tenant_a_command_acts_as_the_default_tenant(tmp_path: Path) -> None:
    db = tmp_path / "memory.db"
    added = CliRunner().invoke(app, ["--db", str(db), "add-turn", STREAM, "--user", "Hi."])
    assert added.exit_code == 0, added.output
    with Memory.open(db, embedder=None, background_worker=False) as memory:
        assert [t.user for t in memory.turns(STREAM, tenant=DEFAULT_TENANT)] == ["Hi."]


def _run(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """`threefold *args` as a user runs it (the CLI builds only the commands a call
    names, in typer's __call__, which a CliRunner does not go through)."""
    code = "import sys; from threefold.faces.cli import app; sys.argv[0] = 'threefold'; app()"
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        env={"PATH": "/usr/bin:/bin", "HOME": str(Path.home()), **env},
        capture_output=True,
        text=True,
        check=False,
    )


def test_a_value_that_names_another_command_runs_the_command_asked(
    stores: dict[str, Path],
) -> None:
    # "context" is the tenant's name here, and "facts" the command.
    db = str(stores["none"])
    done = _run("--db", db, "--tenant", "context", "facts", STREAM, THREEFOLD_EMBED__KIND="none")
    assert done.returncode == 0, done.stderr
    ours = _run("--db", db, "facts", STREAM, THREEFOLD_EMBED__KIND="none")
    assert "Raj is the Lead Architect." in ours.stdout
    assert "Raj" not in done.stdout  # another tenant's memory holds nothing yet


def test_help_and_a_mistyped_command_still_see_every_command() -> None:
    listed = _run("--help")
    assert listed.returncode == 0, listed.stderr
    assert all(name in listed.stdout for name in ("context", "facts", "team", "keys", "serve"))
    typo = _run("contxt", STREAM)
    assert typo.returncode == 2
    assert "No such command 'contxt'" in typo.stderr and "context" in typo.stderr
    group = _run("team", "--help")
    assert group.returncode == 0 and "rebuild" in group.stdout, group.stderr
