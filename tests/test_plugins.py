"""Plugins: models and embedders from other installed distributions' entry points.

Each test installs real distributions into a temporary folder on sys.path: a
``*.dist-info`` with METADATA and entry_points.txt beside the plugin's module, which is
what pip leaves behind, and what importlib.metadata reads.
"""

import importlib.metadata
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from threefold import Memory, load_settings
from threefold.errors import SettingsError
from threefold.plugins import _BUILT_IN, EMBEDDERS, MODELS, PluginWarning, available, load_all

WORDCOUNT = '''
import numpy as np

class LetterEmbedder:
    """Counts of the letters a-z: crude, but a real embedder with its own name."""
    name = "letters-26"
    dim = 26

    def embed(self, texts):
        out = np.zeros((len(texts), 26), dtype=np.float32)
        for row, text in enumerate(texts):
            for char in text.lower():
                if "a" <= char <= "z":
                    out[row, ord(char) - 97] += 1
        norms = np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-12)
        return out / norms

def build(settings):
    return LetterEmbedder()
'''

SHOUTING = '''
from threefold.models.heuristic import HeuristicModel

class ShoutingModel(HeuristicModel):
    """The heuristic model under another name, with a summary in capitals."""
    name = "shouting"

    def __init__(self, prefix):
        self.prefix = prefix

    def summarize_session(self, turns, target_tokens):
        digest = super().summarize_session(turns, target_tokens)
        return digest.model_copy(update={"text": self.prefix + digest.text.upper()})

def build(settings):
    return ShoutingModel(settings.options.get("prefix", ""))
'''

BROKEN = """
import a_module_that_is_not_installed
"""

InstallPlugin = Callable[..., None]


@pytest.fixture
def install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> InstallPlugin:
    """Installs a one-module distribution whose entry points are given per group."""
    site = tmp_path / "site"
    site.mkdir()
    monkeypatch.syspath_prepend(str(site))
    added: list[str] = []

    def install_plugin(dist: str, module: str, source: str, points: dict[str, dict]) -> None:
        (site / f"{module}.py").write_text(textwrap.dedent(source))
        info = site / f"{dist}-1.0.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.0\n")
        lines = []
        for group, entries in points.items():
            lines.append(f"[{group}]")
            lines += [f"{name} = {value}" for name, value in entries.items()]
        (info / "entry_points.txt").write_text("\n".join(lines) + "\n")
        added.append(module)

    yield install_plugin
    for module in added:
        sys.modules.pop(module, None)


def test_the_built_in_entry_points_are_the_installed_ones() -> None:
    for group in (MODELS, EMBEDDERS):
        declared = {
            point.name: point.value
            for point in importlib.metadata.entry_points(group=group)
            if point.dist is not None and point.dist.name == "threefold"
        }
        assert declared == _BUILT_IN[group]


def test_a_plugin_embedder_is_used_by_name(install: InstallPlugin, tmp_path: Path) -> None:
    install(
        "letters-plugin",
        "letters_plugin",
        WORDCOUNT,
        {EMBEDDERS: {"letters": "letters_plugin:build"}},
    )
    assert "letters" in available(EMBEDDERS)
    settings = load_settings(embed={"kind": "letters"})
    with Memory.open(tmp_path / "m.db", settings=settings, background_worker=False) as mem:
        assert mem.recall.embedder is not None
        assert mem.recall.embedder.name == "letters-26"
        mem.add_turn("chat:1", user="My favourite colour is teal.")
        mem.process_pending()
        hits = mem.search("favourite colour", stream="chat:1")
        assert hits and "teal" in hits[0].text


def test_a_plugin_model_gets_its_options(install: InstallPlugin, tmp_path: Path) -> None:
    install(
        "shouting-plugin",
        "shouting_plugin",
        SHOUTING,
        {MODELS: {"shouting": "shouting_plugin:build"}},
    )
    settings = load_settings(
        model={"kind": "shouting", "options": {"prefix": ">> "}}, session_turns=2
    )
    with Memory.open(tmp_path / "m.db", settings=settings, background_worker=False) as mem:
        mem.add_turn("chat:1", user="We ship the beta on Friday.", assistant="Noted.")
        mem.add_turn("chat:1", user="Priya owns the release notes.", assistant="Noted.")
        mem.process_pending()
        (summary,) = mem.summaries("chat:1", kind="session")
        assert summary.text.startswith(">> ")
        assert "PRIYA" in summary.text


def test_a_broken_plugin_warns_and_the_rest_still_load(install: InstallPlugin) -> None:
    install(
        "broken-plugin", "broken_plugin", BROKEN, {EMBEDDERS: {"broken": "broken_plugin:build"}}
    )
    install(
        "letters-plugin",
        "letters_plugin",
        WORDCOUNT,
        {EMBEDDERS: {"letters": "letters_plugin:build"}},
    )
    with pytest.warns(PluginWarning, match="'broken'.*a_module_that_is_not_installed"):
        loaded = load_all(EMBEDDERS)
    assert "broken" not in loaded
    assert {"letters", "minilm", "openai", "hashing"} <= set(loaded)
    assert loaded["letters"](None).name == "letters-26"


def test_choosing_a_broken_plugin_is_a_settings_error(install: InstallPlugin, tmp_path) -> None:
    install("broken-plugin", "broken_plugin", BROKEN, {MODELS: {"broken": "broken_plugin:build"}})
    settings = load_settings(model={"kind": "broken"})
    with pytest.raises(SettingsError, match="model plugin 'broken'.*a_module_that_is_not"):
        Memory.open(tmp_path / "m.db", settings=settings)
    # The other kinds are unaffected by it.
    with Memory.open(tmp_path / "m.db", background_worker=False) as mem:
        assert mem.pipeline.model.name == "heuristic"


def test_a_plugin_cannot_take_a_built_in_name(install: InstallPlugin) -> None:
    install(
        "sneaky-plugin", "sneaky_plugin", WORDCOUNT, {EMBEDDERS: {"minilm": "sneaky_plugin:build"}}
    )
    with pytest.warns(PluginWarning, match="takes a built-in name"):
        points = available(EMBEDDERS)
    assert points["minilm"].value == "threefold.embed.minilm:build"


def test_an_unknown_kind_lists_the_plugins_too(install: InstallPlugin, tmp_path) -> None:
    install(
        "letters-plugin",
        "letters_plugin",
        WORDCOUNT,
        {EMBEDDERS: {"letters": "letters_plugin:build"}},
    )
    settings = load_settings(embed={"kind": "sentence-bert"})
    with pytest.raises(SettingsError, match="'sentence-bert'; choose one of .*hashing, letters"):
        Memory.open(tmp_path / "m.db", settings=settings)


def test_a_factory_that_returns_no_embedder_is_refused(install: InstallPlugin, tmp_path) -> None:
    install(
        "odd-plugin",
        "odd_plugin",
        "def build(settings):\n    return 42\n",
        {EMBEDDERS: {"odd": "odd_plugin:build"}},
    )
    with pytest.raises(SettingsError, match="odd embedder factory returned 42"):
        Memory.open(tmp_path / "m.db", settings=load_settings(embed={"kind": "odd"}))
