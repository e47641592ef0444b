"""How the trained reader turns each token's tag chances into value spans
(models/reader/heads.spans): by each token's likeliest tag, or, with a floor, by the chance
of each label with its B- and I- tags pooled."""

import numpy as np
import pytest

from threefold.models.reader.heads import spans
from threefold.models.reader.labels import MODALITIES, SUBJECTS, tags

TEXT = "we moved to Perth"
OFFSETS = [(0, 2), (3, 8), (9, 11), (12, 17)]
"""One token a word; "Perth" is the fourth."""


def chances(perth: dict[str, float]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Tag chances: every token surely no value but "Perth", whose tags are `perth`
    (the rest of its chance on O)."""
    names = tags()
    tag_p = np.zeros((len(OFFSETS), len(names)))
    tag_p[:, 0] = 1.0
    tag_p[3, 0] = 1.0 - sum(perth.values())
    for tag, chance in perth.items():
        tag_p[3, names.index(tag)] = chance
    mod_p = np.full((len(OFFSETS), len(MODALITIES)), 1 / len(MODALITIES))
    subj_p = np.full((len(OFFSETS), len(SUBJECTS)), 1 / len(SUBJECTS))
    return tag_p, mod_p, subj_p


def read(perth: dict[str, float], floor: float | None) -> list[tuple[str, str, float]]:
    found = spans(TEXT, OFFSETS, *chances(perth), floor=floor)
    return [(TEXT[s.start : s.end], s.label, round(s.confidence, 2)) for s in found]


def test_without_a_floor_each_token_takes_its_likeliest_tag() -> None:
    assert read({"B-home": 0.6}, None) == [("Perth", "home", 0.6)]
    assert read({"B-home": 0.3, "I-home": 0.25}, None) == []  # O, at 0.45, is likeliest


def test_a_label_split_between_its_b_and_i_tags_is_pooled() -> None:
    assert read({"B-home": 0.3, "I-home": 0.25}, 0.9) == [("Perth", "home", 0.55)]


def test_a_value_under_no_value_is_read_from_the_floor_up() -> None:
    assert read({"B-home": 0.4}, 0.35) == [("Perth", "home", 0.4)]
    assert read({"B-home": 0.3}, 0.35) == []


def test_the_label_with_the_most_chance_in_all_is_taken() -> None:
    # B-hometown is the likeliest single tag, home the likeliest label
    found = read({"B-hometown": 0.3, "B-home": 0.2, "I-home": 0.2}, 0.35)
    assert found == [("Perth", "home", 0.4)]


@pytest.mark.parametrize("floor", [None, 0.35])
def test_neighbouring_tokens_of_one_label_are_one_span(floor: float | None) -> None:
    names = tags()
    tag_p, mod_p, subj_p = chances({})
    tag_p[2:, 0] = 0.1
    tag_p[2, names.index("B-plan")] = 0.9
    tag_p[3, names.index("I-plan")] = 0.9
    found = spans(TEXT, OFFSETS, tag_p, mod_p, subj_p, floor=floor)
    assert [(TEXT[s.start : s.end], s.label) for s in found] == [("to Perth", "plan")]


def test_a_spans_rival_is_another_labels_chance_never_its_own() -> None:
    """The columns left out of a span's rival are its own label's (kept per label): read
    one after the other, a home and a hometown each count the other's chance alone."""
    as_home = spans(TEXT, OFFSETS, *chances({"B-home": 0.5, "I-home": 0.2, "B-job": 0.1}))
    as_hometown = spans(
        TEXT, OFFSETS, *chances({"B-hometown": 0.5, "I-hometown": 0.2, "B-home": 0.15})
    )
    assert [(s.label, round(s.rival, 2)) for s in as_home] == [("home", 0.1)]
    assert [(s.label, round(s.rival, 2)) for s in as_hometown] == [("hometown", 0.15)]
