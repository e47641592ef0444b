"""Stale facts: after an update worded freely, does the context still present the old value
as current?

Fifty conversations (benchmarks/data/stale/conversations.jsonl, written for this benchmark
in several voices: terse, rambling, texting, formal, non-native, hedged, group chats) each
state something, talk about other things for a while (benchmarks/data/stale/filler.jsonl),
then update it in their own words: a move, a new job, a death, a reversed decision, a
hedged change of diet. Each conversation runs on its own stream of one SQLite file through
the public API (add_turn, end_session, process_pending), offline, without vectors; then
every check asks its question at each budget and reads the context:

- stale facts: lines of the facts sections (stream facts, global facts, profiles; a
  profile line is read clause by clause) that state the old value as current: they hold
  every word of a `stale` alternative, none of a `current` one, are not worded as past or
  ended ("was", "no longer", "left", ...), and carry no marker ("outdated", "superseded");
- stale elsewhere: summary lines and retrieved items that do the same (recent turns are
  shown as they were said, newest last, and are not counted);
- current: whether a `current` alternative appears anywhere in the context.

A word of an alternative matches a word of the text that starts with it (at least four
letters; shorter words must match whole), so "vegan" finds "veganism".

First run, on main at 7d495ac (memstrata), before any change made for it (issue 36):

    budget  checks  stale facts  checks w/ stale fact  stale elsewhere  current
    500     51      11           11                    10               0.98
    1000    51      27           25                    37               0.98
    2000    51      27           25                    37               0.98
    4000    51      27           25                    37               0.98
    6000    51      27           25                    37               0.98

The set is frozen since: a change tuned on it reports its figures apart. After issue 36's
changes, which were tuned on it (so not blind; the columns marked and false alarms were
added then):

    budget  checks  stale facts  w/ stale fact  stale elsewhere  current  marked  false alarms
    500     51      4            4              24               0.98     33      2
    1000+   51      4            4              27               0.98     37      3

Session 20 marked summary lines and retrieved items by the current facts as well (an older
line on a newer fact's topic that states another value, or the value of a fact a newer
message doubts). Tuned set, on it (so not blind): stale elsewhere 21 -> 14 at 500 and
26 -> 19 at 1,000 and above; stale facts 4, current 0.98, false alarms 2-3, unchanged.

The held-out set (`--set heldout`, twelve conversations, thirteen checks, written before
that change and not looked into while making it). First run, on main at bf6abd7:

    budget  checks  stale facts  w/ stale fact  stale elsewhere  current  marked  false alarms
    500     13      0            0              12               1.00     9       0
    1000+   13      0            0              15               1.00     16      0

After the change, its first run: stale elsewhere 11 at 500 and 14 at 1,000 and above
(marked 10 and 17, false alarms 0). Frozen since.

The fresh set (`--set fresh`, fifteen conversations, eighteen checks: a fishing family's
group chat, a gamer, a landlord, a retired civil servant, a lorry driver, a ship's
engineer, a code-switching expat...; some updates said only as a terse answer to the
assistant's question), written before session 21's change to summary lines and retrieved
items and not looked into while making it. "wrong marks" (added with it) counts marked
lines, of any marker, that without the marker state no old value as current: they name
none, or name one as past or beside the value now in force. First run, on main at c7c1798:

    budget  checks  stale facts  w/ stale fact  stale elsewhere  current  all marks  wrong marks
    500     18      4            2              13               1.00     5          0
    1000    18      4            2              27               1.00     10         0
    2000+   18      4            2              29               1.00     10         0

With `--vectors` (the default embedder, MiniLM), also before any change, on main at c7c1798:
stale elsewhere 17 at 500, 29 at 1,000 and 31 at 2,000 and above; the rest as above.

Session 21's change (context/staleness.py: one word said rarely in view and a word that
says a value was replaced tie an older line to the update; an earlier turn cannot retell a
newer message; change words name no topic; lines about the past are left alone), tuned on
the tuned set and on development examples of its own. Tuned set (not blind): stale
elsewhere 15 -> 7 at 500 and 19 -> 7 at 1,000 and above, wrong marks 5-6 unchanged. The
earlier held-out set (not blind any more, but not looked into): 11 -> 4 and 14 -> 4,
false alarms 0. The fresh set, its first run after the change (blind):

    budget  checks  stale facts  w/ stale fact  stale elsewhere  current  all marks  wrong marks
    500     18      4            2              13               1.00     7          2
    1000    18      4            2              27               1.00     14         4
    2000+   18      4            2              29               1.00     14         4

No stale line fewer, and two to four wrong marks more: the change did not carry to new
voices. With `--vectors`: 17 / 29 / 31 stale elsewhere, 2 / 4 wrong marks. Frozen since.
The change was therefore not shipped (branch stale36b keeps it): word lists do not carry
to new voices, and the lead kept only its fix of a retrieved fact outdated by itself.

The blind22 set (`--set blind22`, fifteen conversations, eighteen checks, session 22),
written blind before session 22's change to how stale lines are marked and frozen after
this one run, in voices used nowhere else: a Lagos market trader (Pidgin), a FIFO mine
worker, an orchestral harpist answering tersely, a separated father on his children, a
Singlish speaker, a chef texting, a Quebec hockey parent, a hospice chaplain whose mother
dies ("slipped away"), a Karoo farmer, a five-a-side group chat, a postdoc hedging then
deciding, a sarcastic comedian. Most changes carry no cue word and five are about other
people. Four checks are of values confirmed unchanged (a sommelier, a photographer, a
father staying in his care home, a wife whose transfer fell through): their `stale` is
the alternative considered and turned down, so a marker on the kept value is a wrong
mark. First run, on main at a912970, before any change:

    budget  checks  stale facts  w/ stale fact  stale elsewhere  current  all marks  wrong marks
    500     18      0            0              13               1.00     7          0
    1000+   18      0            0              29               1.00     14         1

With `--vectors`, also its first run on main at a912970: the same, but all marks 8 at 500
and 15 at 1,000 and above ("marked" and "false alarms" equal "all marks" and "wrong
marks" in both runs). The wrong mark is the comedian's open mic (unchanged) marked
"possibly outdated" after a sarcastic "retiring from comedy forever. until Monday".

Session 22's change (branch stale36c, context/staleness.py `Meaning`): with an embedder,
a newer user message needs no change word; it marks an older fact, summary line or
retrieved item whose vector is near its own (cosine >= 0.35, MiniLM) when it is no
question and names none of the item's value (a fact's value; any content word of a
line), and only its own speaker's lines. Threshold chosen on `--set dev` (sixteen
development conversations written for it, nothing else): stale facts 3 -> 2, stale
elsewhere 1 -> 1, wrong marks 4 -> 4 (0.30 added wrong marks). Not blind, with
--vectors against main's --vectors: the tuned set stale facts 4 -> 2, stale elsewhere
16 / 20 -> 15 / 19 at 500 / 1,000, wrong marks 4 / 5 -> 6 / 7; the old held-out one
stale elsewhere 11 / 15 -> 9 / 14, wrong marks 0 -> 1. Without vectors all three older
sets are exactly as on main. First runs after the change, each run once:

    set, mode            budget  stale facts  stale elsewhere  all marks  wrong marks
    fresh                500     4            13               4          0
                         1000    4            27               10         0
                         2000    4            29               10         0
    fresh --vectors      500     2            15               7          0
                         1000    2            27               14         0
                         2000    2            29               14         0
    blind22              500     0            13               7          0
                         1000+   0            29               14         1
    blind22 --vectors    500     0            13               9          1
                         1000+   0            29               16         2

Without vectors both sets are as on main. With vectors the fresh set loses 2 stale facts
and 2 stale lines at each budget (main: 4 and 17 / 29 / 31) with no wrong mark, but
blind22 keeps every stale line and gains one wrong mark: the ship rule (fewer stale
lines on the blind sets, no more wrong marks) is not met, and the change stays on its
branch. Looked into after those runs (nothing changed from it): of the pairs (old
statement, later update) in fresh / blind22, 73% / 71% reach the cosine, but 80% / 76%
share a content word with the old statement (the person's name, "josh has packed in the
football", the topic), which the rule reads as naming its value: the rule, more than
the threshold, holds them back. A line's value needs reading (the trained reader's
spans), not guessing from shared words.

The blind23 set (`--set blind23`, fifteen conversations, seventeen checks, session 23),
written blind before session 23's changes to the reader and to how updates are stored,
and frozen after this one run, in voices used nowhere else: a Hinglish software tester
in Pune, a retired Jamaican-British bus driver, a Cornish surf instructor, a Korean-
American pharmacist, a New Zealand dairy farmer, a Boston historian, an Osaka office
worker, a Trinidadian costume maker, an Alaska bush pilot, a Brooklyn retiree, three
sisters' group chat, a San Antonio mechanic (Spanglish), a Dutch commuter, a Geordie
welder, a Kentucky horse trainer. Seven checks are about other people; four values are
corrected rather than changed (the surf school, the historian's university, the rehab
home named by one sister and put right by another, the bike); four are confirmed
unchanged (the pharmacist's job, the costume band, the retiree's home, the filly's
barn), their `stale` the alternative turned down. First run, on main at 16a1bfb (branch
blind35e bd1f34b: main plus this set and its `--set` name), before any change:

    budget  checks  stale facts  w/ stale fact  stale elsewhere  current  all marks  wrong marks
    500     17      0            0              9                1.00     20         7
    1000+   17      0            0              19               1.00     32         14

With `--vectors`, its first run at the same commit: stale elsewhere 11 at 500 and 20 at
1,000 and above, wrong marks 8 and 14; the rest as above ("marked" and "false alarms"
were 20 / 32 and 4 / 5 in both runs). Looked into after the runs (nothing changed): at
1,000 two of the wrong marks are the line naming Dr Feldman, rightly marked, which the
scorer reads as past because it says "since my Herbie was alive"; the others mark a
line that names no stale value (the surfer's "name is Newquay", the pharmacist's Kaiser,
the farmer's son taking over the farm, a sister's correction itself).

Session 26 (issue 36, helper mark36), measured and NOT shipped: a change word would tie a
newer message to an older line only through what it speaks of (its nearest content words,
its sentence for "now"/"instead", the whole message for "actually"), so that the demo's
"Legal flagged the liability clause in the vendor contract" is not marked by "The vendor
sent a revised quote for the hosting contract". On development sets (tuned, dev, and
`dev36`, fourteen new look-alike conversations) wrong marks fell (dev36 9/12 -> 2/3 at 500
/ 1,000) with stale lines unchanged. First runs on the frozen sets, at 500 / 1,000+:
heldout and fresh unchanged; blind22 all marks 9/17 -> 7/13, wrong marks 3/5 -> 2/4, stale
lines 13/29 -> 14/31; blind23 all marks 22/34 -> 16/26, wrong marks 9/16 -> 8/14, stale
facts 1 -> 2, stale lines 9/19 -> 11/22. On text written before it, most marks it removed
were true ones: a stale fact unmarked misleads more than a wrong mark. Branch `mark36`.

Session 38 (issue 36, helper h38c), measured and NOT shipped (branch `h38c-unread`): a
first-person statement in which the reader read nothing at all, nearest in meaning
(MiniLM, the reader's own encoder, so offline too) to the sentence a held fact of its
writer was read from, at cosine >= 0.3, and naming none of its value, doubted that one
fact (Fact.doubted_by). Chosen on dev / dev36 / tuned, where the unread updates reach 0.24
to 0.38 and no small talk in the first person passed 0.22: stale facts dev 2 -> 1 (the
hedged "eating fish again"), tuned 1 -> 1, stale elsewhere tuned 14 -> 13 at 1,000, false
alarms unchanged. First runs on the older blind sets, at 1,000 (no --vectors): heldout
stale facts 0 -> 0, false alarms 0 -> 1; fresh 4 -> 4, unchanged; blind23 1 -> 1, false
alarms 3 -> 9, wrong marks 11 -> 17. No stale fact fewer and more false alarms: related
talk that does not repeat a value ("we did a medley on bass" names it; most do not) is as
near as an update, so nearness alone does not tell a change from talk about the topic.

The blind38 set (`--set blind38`, twenty-two checks, session 38), written blind by another
helper before session 38's change and not read by it (nor its queries); frozen after these
runs. First run, on main at a43cd01 (this script and set from branch h38c), before any
change:

    budget  checks  stale facts  w/ stale fact  stale elsewhere  current  all marks  wrong marks
    500     22      7            6              6                1.00     28         18
    1000    22      7            6              16               1.00     44         29
    2000+   22      7            6              16               1.00     48         31

With `--vectors`, the same but all marks 43 and wrong marks 28 at 1,000 ("marked" and
"false alarms" 28/44/48 and 17/27/29). Session 38's shipped change (a bot's or an
integration's turn is no newer message; none in these sets), its first runs at 4b0992b,
with and without --vectors: exactly as main's. The unread-statement attempt above was not
run on it.

The blind39 set (`--set blind39`, sixteen conversations, twenty-five checks, session 39),
written blind by a helper who saw no code or data of the project, in voices used nowhere
else (a Sami herder, a Cuban coach in Miami, a hospice chaplain, a Glasgow taxi group...);
three changes turned down, several checks on a fact that stays true beside the one that
changes. First run, on main at f2097b6, before any change, and frozen since:

    budget  checks  stale facts  w/ stale fact  stale elsewhere  current  all marks  wrong marks
    500     25      5            5              9                1.00     30         14
    1000    25      5            5              25               1.00     45         20
    2000+   25      5            5              31               1.00     48         20

With `--vectors`: the same, but all marks 32 / 46 / 49 and wrong marks 16 / 21 / 21, and
stale elsewhere 10 at 500. Session 39's change to the outdated mark's words ("(outdated:
<the old fact>; now: ...)") left every figure as it was.
Session 40's changes to project facts (a project's facts doubted by its own stream, a
turn outdated in what was read from it) left every figure as it was (its second run).

The blind40p set (`--set blind40p`, fourteen project channels, twenty-one checks, session
40): named speakers and no assistant (a hospital EHR cutover, a shipping ops desk, a game
studio, a water utility, a wedding venue, a newsroom...), each conversation in its own
project stream (its "stream" field), its small talk its own (no filler from the pool);
dates that slip, meetings that move, owners handed over, decisions reversed, a vendor
switched, three changes turned down. Written blind by a helper who saw no code, after
session 40's changes, and run once on main before them (8cddde8) and once after (dccedbb):

    budget  checks  stale facts  w/ stale fact  stale elsewhere  current  all marks  wrong marks
    500     21      0            0              9                1.00     24 -> 25   7
    1000    21      0            0              15               1.00     46         17 -> 16
    2000+   21      0            0              24               1.00     77         35 -> 34

No stale fact is shown as current, but nearly half the marks are wrong: a team channel says
"now", "new", "moved" and "update" of everything, and a mark needs only a change word and
two shared words.

Session 43 (issue 36, helper m43): marks that are right in team channels. Main at
3052ed7 had drifted from the figures above (blind40p 79 marks, 36 wrong at 2,000). The
change (context/staleness.py, the `keep` list of context/data/topics.json): a line by a
named person needs three shared words with another person's message that does not name
them (two with their own); a clause that says something stays ("observation window
unchanged", "we're keeping the Foundry") names no topic, unless it says so as a change
("actually we're keeping"); a message's questions name no topic; words with a digit are
compared whole ("SEC-202" is not "SEC-201"); a summary line that tells a turn in view
said after the message is as new as that turn; a named person's message with no change
word marks a line of their own that shares three words with it and that it restates with
another name or number ("Flowers sorted: Wildroot are doing the arch"); "gave" and
"given" say a change only as "gave up" / "given up". Development sets, all tuned on
(stale facts / stale elsewhere / all marks / wrong marks at 500, 1,000, 2,000), main ->
the change; sets not listed (dev, dev36, tuned, fresh, heldout) are the same on both, and
so are the stale facts everywhere:

    set        main 500    main 1000    main 2000    ->  500        1000        2000
    blind40p   0/9/26/9    0/15/47/18   0/24/79/36       0/6/27/7   0/12/42/12  0/22/65/22
    blind22    2/8/11/3    2/28/27/5    2/28/27/5        2/8/10/2   2/28/26/4   2/28/26/4
    blind23    1/6/21/5    1/18/35/12   1/18/35/12       1/6/21/5   1/18/34/11  1/18/34/11
    blind38    6/5/29/16   6/12/53/29   6/12/60/31       6/5/26/13  6/12/48/24  6/12/55/26
    blind39    4/8/29/14   4/24/45/21   4/29/49/21       (the same)

With `--vectors`: blind40p 0/11/30/9, 0/15/49/19, 0/24/79/36 -> 0/8/29/6, 0/12/44/13,
0/22/65/22; blind22, blind23 and blind38 one to five wrong marks fewer; the rest the same.
Measured and dropped: change words naming no topic (lost true marks that share "start"
or "update" by luck), a line touched only through one sentence of a message (session
26's finding again: blind39 stale lines 29 -> 36), a long message needing more shared
words (lost the one true update in a round-up), ", not" as a change word (more wrong
marks), a summary that holds one of the message's sentences as retelling it, and
"until" not a change word (two stale lines more).

The blind44p set (`--set blind44p`, fourteen project channels, twenty-two checks, session
43), written blind by another helper while session 43's change was made, not opened by it,
and run once on main's code (3052ed7) and once on the change (85fdb18), after the change
was final; frozen since ("w/ stale": checks w/ stale fact; "false al.": false alarms; "all" and
"wrong": all marks and wrong marks). Main:

    budget  checks  stale facts  w/ stale  stale elsewhere  current  marked  false al.  all  wrong
    500         22            2         2               25     0.95      14          3   14      5
    1000        22            2         2               41     1.00      31         11   31     15
    2000        22            2         2               51     1.00      46         18   46     22
    4000        22            2         2               51     1.00      46         18   46     22

The change:

    budget  checks  stale facts  w/ stale  stale elsewhere  current  marked  false al.  all  wrong
    500         22            2         2               21     0.95      16          3   16      3
    1000        22            2         2               37     1.00      29          6   29      8
    2000        22            2         2               44     1.00      46         10   46     12
    4000        22            2         2               44     1.00      46         10   46     12

The blind56 set (`--set blind56`, twenty conversations, thirty-one checks, session 56),
written by a helper who saw no code and no other set: a Lagos bus mechanic, an Ohio
retired teacher, a Polish nurse in Dublin, a family WhatsApp group, a start-up's channel,
a vicar, a beekeeper, a long-haul pilot...; most changes said without a change word
("first week on the council reablement team done"), some hedged, in passing on the way to
a request, or as a terse answer ("Gatwick" after "Still based at Heathrow?"), and eight
checks of values said again unchanged (`"stale": []`), which only marks can get wrong.
First run, on main at 6f7ca58 before any change made for it (with `--vectors` the same):

    budget  checks  stale facts  w/ stale  stale elsewhere  current  marked  false al.  all  wrong
    500         31            5         4               11     1.00      47         27   48     27
    1000        31            5         4               25     1.00      73         37   75     39
    2000+       31            5         4               31     1.00      87         43   89     45

Half its marks are false alarms. In the older sets, read since, most false alarms come from
a change word said of something else ("the sourdough sold out", "the gig went great", "a
heating pipe broke") beside a shared topic word: the next change to marks is judged here.
Session 56 kept "news" whole (no plural of "new", a change word): blind56 identical, the
older sets' false alarms at 1,000 and 2,000 tokens 191 -> 187, nothing else moved.

    .venv/bin/python benchmarks/stale.py [--budgets 500 1000 2000 4000 6000] [--show]
        [--set tuned|heldout|fresh|blind22|blind23|blind38|blind39|blind40p|blind44p|blind56
               |dev|dev36]
        [--vectors]
"""

import argparse
import json
import re
import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from threefold import Memory
from threefold.domain import Context

DATA = Path(__file__).parent / "data" / "stale"
START = datetime(2026, 5, 4, 8, 0, tzinfo=UTC)
STEP = timedelta(hours=3)
"""Turns are three hours apart, so a conversation spans days and its summary periods."""
BUDGETS = (500, 1000, 2000, 4000, 6000)
FACT_SECTIONS = frozenset({"stream_facts", "global_facts", "profiles"})
ELSEWHERE = frozenset({"summary", "retrieved"})
MARKERS = ("outdated", "superseded")
DOUBT = "possibly outdated"
"""The marker of an item a newer message may have changed; on one that states no stale
value it is counted as a false alarm (added after the first run, when main had none)."""
"""Words by which a context says an item may no longer hold."""
PAST_OR_ENDED = re.compile(
    r"\b(?:was|were|no\s+longer|not|isn't|aren't|anymore|any\s+more|used\s+to|former(?:ly)?"
    r"|previously|ex-\w+|left|quit|sold|dropped|gave\s+up|given\s+up|stopped|abandoned"
    r"|stepped\s+down|stood\s+down|handed|ended|passed\s+away|died|gone|is\s+over)\b",
    re.IGNORECASE,
)
"""Wording that states a value as past: such a line does not present it as current."""
_WORD = re.compile(r"[\w:,'-]+")


@dataclass(frozen=True)
class Check:
    conversation: str
    query: str
    stale: tuple[str, ...]
    current: tuple[str, ...]


@dataclass
class Tally:
    checks: int = 0
    stale_facts: int = 0
    checks_with_stale: int = 0
    stale_elsewhere: int = 0
    current: int = 0
    marked: int = 0
    false_alarms: int = 0
    all_marks: int = 0
    wrong_marks: int = 0


SETS = {
    "tuned": "conversations.jsonl",
    "heldout": "heldout.jsonl",
    "fresh": "fresh.jsonl",
    "blind22": "blind22.jsonl",
    "blind23": "blind23.jsonl",
    "blind38": "blind38.jsonl",
    "blind39": "blind39.jsonl",
    "blind40p": "blind40p.jsonl",
    "blind44p": "blind44p.jsonl",
    "blind56": "blind56.jsonl",
    "dev": "dev.jsonl",
    "dev36": "dev36.jsonl",
}
"""The fifty conversations above, and twelve more written in other voices (dictated
notes, an older speaker, support chats, a teenager, clinical notes) before the change to
summary lines and retrieved items that they judge (session 20, issue 36); and fifteen
more in other voices again (session 21), written before the change they judge; and
fifteen more again (session 22, blind22), written before session 22's change to how
stale lines are marked; and fifteen more again (session 23, blind23), written before
session 23's reader and update changes; and blind38 (session 38), written blind by
another helper before session 38's change and frozen after its first runs; and blind39
(session 39), the same way; and blind40p (session 40), fourteen project channels (named
speakers, no assistant, each its own project stream, no filler from the pool), written
blind after session 40's changes to project facts and run once on main before and after
them; and blind44p (session 43), fourteen more project channels written blind by another
helper for session 43's change to which lines a team channel's messages mark, run once on
main and once after that change. `dev`:
sixteen development conversations written by session 22's change to mark stale lines by
meaning, to choose its threshold; no evaluation set. `dev36`: fourteen development
conversations written by session 26's change to what ties an older line to a newer
message (issue 36): look-alike non-updates (a newer message with a change word and shared
words about another thing) beside real updates; no evaluation set."""


def load(name: str = "tuned") -> tuple[list[dict], list[dict]]:
    def read(name: str) -> list[dict]:
        lines = (DATA / name).read_text(encoding="utf-8").splitlines()
        return [json.loads(line) for line in lines if line.strip()]

    return read(SETS[name]), read("filler.jsonl")


def exchanges(conversation: dict, filler: list[dict]) -> list[dict]:
    """The conversation's turns, each {"filler": n} replaced by n small-talk exchanges,
    taken in turn from the pool so that conversations differ."""
    out: list[dict] = []
    offset = sum(map(ord, conversation["id"]))
    for turn in conversation["turns"]:
        if "filler" not in turn:
            out.append(turn)
            continue
        for n in range(turn["filler"]):
            out.append(filler[(offset + n) % len(filler)])
        offset += turn["filler"]
    return out


def ingest(mem: Memory, conversations: list[dict], filler: list[dict]) -> list[Check]:
    checks = []
    for conversation in conversations:
        stream = conversation.get("stream") or f"chat:{conversation['id']}"
        for n, turn in enumerate(exchanges(conversation, filler)):
            mem.add_turn(
                stream, user=turn["u"], assistant=turn["a"], at=START + n * STEP,
                speaker=turn.get("speaker"),
            )  # fmt: skip
        mem.end_session(stream)
        for check in conversation["checks"]:
            checks.append(
                Check(stream, check["query"], tuple(check["stale"]), tuple(check["current"]))
            )
    mem.process_pending()
    return checks


def _words(text: str) -> list[str]:
    return [w.strip(",'").lower() for w in _WORD.findall(text)]


def _holds(text: str, alternatives: tuple[str, ...]) -> bool:
    """Whether every word of some alternative starts a word of `text` (short words whole)."""
    words = _words(text)

    def found(needed: str) -> bool:
        if len(needed) < 4:
            return needed in words
        return any(w.startswith(needed) for w in words)

    return any(all(found(n) for n in _words(alt)) for alt in alternatives)


def states_stale(text: str, check: Check) -> bool:
    """Whether `text` states the old value as current."""
    lowered = text.lower()
    return (
        _holds(text, check.stale)
        and not _holds(text, check.current)
        and not PAST_OR_ENDED.search(text)
        and not any(marker in lowered for marker in MARKERS)
    )


_MARK = re.compile(r"\s*\((?:possibly outdated|outdated|superseded)\b.*$", re.IGNORECASE)
"""A marker, to the end of its line: every context appends it to the item it doubts."""


def wrongly_marked(line: str, checks: list[Check]) -> bool:
    """Whether `line` carries a marker though, without it, it states no old value as
    current: it names none, or names one as past or beside the value now in force."""
    if not any(marker in line.lower() for marker in MARKERS):
        return False
    bare = _MARK.sub("", line)
    return not any(states_stale(bare, c) for c in checks)


def fact_clauses(context: Context) -> list[str]:
    clauses = []
    for section in context.sections:
        if section.name in FACT_SECTIONS:
            for item in section.items:
                clauses.extend(item.text.split("; "))
    return clauses


def other_lines(context: Context) -> list[str]:
    return [
        line
        for section in context.sections
        if section.name in ELSEWHERE
        for item in section.items
        for line in item.text.splitlines()
    ]


def judge(mem: Memory, checks: list[Check], budgets: list[int], show: bool) -> dict[int, Tally]:
    tallies = {budget: Tally() for budget in budgets}
    for check in checks:
        for budget in budgets:
            context = mem.context(check.conversation, check.query, budget=budget)
            stale = [c for c in fact_clauses(context) if states_stale(c, check)]
            elsewhere = [line for line in other_lines(context) if states_stale(line, check)]
            body = context.text.rpartition("## Current question")[0] or context.text
            tally = tallies[budget]
            tally.checks += 1
            tally.stale_facts += len(stale)
            tally.checks_with_stale += bool(stale)
            tally.stale_elsewhere += len(elsewhere)
            tally.current += _holds(body, check.current)
            doubted = [x for x in fact_clauses(context) + other_lines(context) if DOUBT in x]
            stale_here = tuple(
                a for c in checks if c.conversation == check.conversation for a in c.stale
            )
            wrong = [x for x in doubted if not _holds(x, stale_here)]
            tally.marked += len(doubted)
            tally.false_alarms += len(wrong)
            mine = [c for c in checks if c.conversation == check.conversation]
            lines = fact_clauses(context) + other_lines(context)
            tally.all_marks += sum(any(m in x.lower() for m in MARKERS) for x in lines)
            misread = [x for x in lines if wrongly_marked(x, mine)]
            tally.wrong_marks += len(misread)
            if show and misread:
                print(f"{budget:>5} {check.conversation} wrong mark")
                for line in misread:
                    print(f"        {line[:150]}")
            if show and wrong:
                print(f"{budget:>5} {check.conversation} false alarm")
                for line in wrong:
                    print(f"        {line[:150]}")
            if show and (stale or elsewhere):
                print(f"{budget:>5} {check.conversation} {check.query!r}")
                for line in stale + elsewhere:
                    print(f"        {line[:150]}")
    return tallies


def run(budgets: list[int], show: bool, which: str = "tuned", vectors: bool = False) -> None:
    conversations, filler = load(which)
    with tempfile.TemporaryDirectory() as tmp:
        settings = {"background_worker": False}
        # The default embedder (MiniLM with the `local` extra) when vectors are asked for.
        embedder = {} if vectors else {"embedder": None}
        with Memory.open(Path(tmp) / "stale.db", **embedder, **settings) as mem:
            checks = ingest(mem, conversations, filler)
            tallies = judge(mem, checks, budgets, show)
    print(
        f"{'budget':<7} {'checks':>6} {'stale facts':>12} {'checks w/ stale fact':>21}"
        f" {'stale elsewhere':>16} {'current':>8} {'marked':>7} {'false alarms':>13}"
        f" {'all marks':>10} {'wrong marks':>12}"
    )
    for budget, t in tallies.items():
        print(
            f"{budget:<7} {t.checks:>6} {t.stale_facts:>12} {t.checks_with_stale:>21}"
            f" {t.stale_elsewhere:>16} {t.current / t.checks:>8.2f} {t.marked:>7}"
            f" {t.false_alarms:>13} {t.all_marks:>10} {t.wrong_marks:>12}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--budgets", type=int, nargs="+", default=list(BUDGETS))
    parser.add_argument("--show", action="store_true", help="print every stale line found")
    parser.add_argument("--set", choices=sorted(SETS), default="tuned", dest="which")
    parser.add_argument("--vectors", action="store_true", help="with the default embedder")
    args = parser.parse_args()
    run(args.budgets, args.show, args.which, args.vectors)


if __name__ == "__main__":
    main()
