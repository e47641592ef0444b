"""A parent or grandparent named by what the family calls them ("Mum", "Papa") is the
writer's relative, whichever reader read the fact (models/heuristic/family_names.py).
Through the public API, offline, on real SQLite."""

from tests.conftest import MemoryFactory


def _subjects(mem, stream: str, word: str) -> set[str]:
    return {f.subject for f in mem.facts(stream) if word in f.text.lower()}


def test_mum_is_the_users_mother(open_memory: MemoryFactory) -> None:
    mem = open_memory()
    mem.add_turn("chat:me", user="Mama lives in Tarnów, she makes the best pierogi.")
    mem.process_pending()
    assert _subjects(mem, "chat:me", "tarnów") == {"user's mother"}


def test_in_a_group_papa_is_the_writers_father(open_memory: MemoryFactory) -> None:
    mem = open_memory()
    said = "And Papa is diabetic so the dessert table needs sugar free options"
    mem.add_turn("chat:family", user=said, speaker="Thandi")
    mem.process_pending()
    assert _subjects(mem, "chat:family", "diabetic") == {"thandi's father"}


def test_a_name_that_is_no_family_word_stays_a_name(open_memory: MemoryFactory) -> None:
    mem = open_memory()
    mem.add_turn("chat:me", user="Nana lives in Kumasi now, she moved in June.")
    mem.process_pending()
    assert "user's grandmother" not in _subjects(mem, "chat:me", "kumasi")
