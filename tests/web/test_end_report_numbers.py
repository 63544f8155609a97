"""The end report's numbers for a short campaign written out by hand: three families, two turns.

docs/rules.md §end: "The family with the most money in the Bank wins; ties share the win" (the
pocket does not count). Every expected value below was counted by hand from the rows, not by
running the report's code; `end_report.tell` reads no database.
"""

from __future__ import annotations

from junta.engine import Catalog, PhaseKind
from junta.games import end_report

A, B, C = "Don Alvaro", "Dona Beatriz", "Don Cosme"
ELDER = "Dona Beatriz the Elder"  # Beatriz's first character, who dies in turn 1
INFORMANT = next(c.id for c in Catalog.cards() if c.name == "Informant")


def family(seat: int, name: str, bank: int, pocket: int = 0, status: str = "alive",
           hand: list[int] | None = None) -> dict:
    return {"seat": seat, "name": name, "bank": bank, "pocket": pocket, "status": status,
            "hand": hand or []}


def row(number: int, turn: int, kind: str, players: list[dict], *, president: int | None,
        deck: int, events: list[dict] | None = None, orders: dict | None = None) -> dict:
    return {"phase__number": number, "phase__turn": turn, "phase__kind": kind,
            "state_after": {"players": players, "positions": {"president": president},
                            "money_deck": list(range(deck)), "extra_bills": 2},
            "events": events or [], "orders_used": orders or {}}


def votes(*record: tuple[int, object, int]) -> dict:
    return {"kind": "votes_cast", "data": {"record": [
        {"seat": seat, "choice": choice, "votes": n} for seat, choice, n in record]}}


ROWS = [
    # before the first turn: Beatriz elected, by Alvaro's 3 votes and her own 2
    row(1, 0, PhaseKind.ELECTION, [family(0, A, 0), family(1, ELDER, 0), family(2, C, 0)],
        president=1, deck=40, events=[votes((0, 1, 3), (1, 1, 2), (2, 0, 4))]),
    # turn 1: the budget passes 5 to 4; Alvaro plays his Informant, Cosme keeps one
    row(2, 1, PhaseKind.BUDGET_VOTE, [family(0, A, 0), family(1, ELDER, 0),
                                      family(2, C, 0, hand=[INFORMANT])],
        president=1, deck=30,
        events=[votes((0, "yes", 3), (1, "yes", 2), (2, "no", 4)), {"kind": "budget_passed"}],
        orders={"0": [{"kind": "play_card", "card": INFORMANT}],
                "2": [{"kind": "play_card", "card": INFORMANT}]}),
    # turn 1: Cosme shoots the President (fatal) and Alvaro misses Cosme
    row(3, 1, PhaseKind.LOCATIONS, [family(0, A, 3), family(1, ELDER, 2, status="dead"),
                                    family(2, C, 1, pocket=9)],
        president=None, deck=30,
        events=[{"kind": "death", "text": f"{ELDER} is dead: shot at home.",
                 "data": {"victim": 1, "how": "assassinated"}}],
        orders={"2": [{"kind": "assassinate", "target": 1}],
                "0": [{"kind": "assassinate", "target": 2}]}),
    # turn 2: Beatriz is back as her heir; Alvaro's coup (Cosme stands by the vacant
    # Presidency) succeeds; Alvaro rules
    row(4, 2, PhaseKind.COUP_FINAL, [family(0, A, 3), family(1, B, 2), family(2, C, 1, 9)],
        president=0, deck=20,
        events=[{"kind": "coup_side", "data": {"seat": 0, "side": "junta"}},
                {"kind": "coup_side", "data": {"seat": 2, "side": "president"}},
                {"kind": "coup_result", "data": {"result": "junta"}}]),
    # turn 2: the budget is defeated 7 to 1; the game ends with banks 5, 5, 2
    row(5, 2, PhaseKind.BUDGET_VOTE, [family(0, A, 5, pocket=1), family(1, B, 5),
                                      family(2, C, 2, pocket=20)],
        president=0, deck=2,
        events=[votes((0, "no", 3), (1, "yes", 1), (2, "no", 4)), {"kind": "budget_failed"}]),
]


def report() -> end_report.Report:
    return end_report.tell(7, ROWS, [(0, A), (1, ELDER), (1, B), (2, C)],
                           {0: "ana", 1: "bea", 2: "cos"})


def test_the_campaign_in_numbers_counted_by_hand():
    r = report()
    assert r.turns == [1, 2]
    assert r.presidents == [(0, ELDER), (2, A)]  # the Elder from the start, then Alvaro
    assert r.coups == [(2, "succeeded")]
    assert (r.attempts, r.fatal, r.deaths) == (2, 1, 1)
    assert (r.budgets_passed, r.budgets_defeated) == (1, 1)
    assert [(b["label"], b["yes"], b["no"], b["outcome"]) for b in r.budgets] == [
        ("1", 5, 4, "passed"), ("2", 1, 7, "defeated")]
    assert r.deck == [(1, 30), (2, 2)]
    assert r.extra_bills == 2


def test_the_ranking_by_hand_ties_shared_pockets_ignored():
    r = report()
    assert [(f.label, f.name, f.bank, f.pocket, f.player) for f in r.ranking] == [
        ("1st=", A, 5, 1, "ana"), ("1st=", B, 5, 0, "bea"), ("3rd", C, 2, 20, "cos")]
    assert r.winners == [A, B]  # Cosme's 20 MP in his pocket count for nothing


def test_each_familys_story_by_hand():
    stories = {s.seat: s for s in report().stories}
    alvaro, beatriz, cosme = stories[0], stories[1], stories[2]
    assert alvaro.place == "1st=" and alvaro.final_bank == 5
    assert alvaro.ballots == [("Presidential Election", 1, 3), ("Budget Vote", 2, 6)]
    assert alvaro.votes_total == 9
    assert alvaro.cards == [(1, "Informant")]  # Cosme's stayed in his hand: not played
    assert cosme.cards == []
    assert alvaro.coups_joined == 1 and cosme.coups_joined == 0
    assert [c["outcome"] for c in alvaro.coups] == ["the coup succeeded"]
    assert [(a["target"], a["killed"]) for a in alvaro.attempts_made] == [(C, False)]
    assert [(a["by"], a["killed"]) for a in beatriz.attempts_suffered] == [(C, True)]
    assert [(a["target"], a["killed"]) for a in cosme.attempts_made] == [(ELDER, True)]
    assert [d["text"] for d in beatriz.deaths] == [f"{ELDER} is dead: shot at home."]
    assert beatriz.lives == [ELDER, B] and beatriz.heirs == [B]
    assert beatriz.name == B  # the story's title: the family's last character
    assert [v["choice"] for v in alvaro.votes][:1] == [ELDER]  # whom he elected, as then named
    assert [t for t, _ in beatriz.positions] == [1]  # El Presidente in turn 1 only
    assert alvaro.positions == [(2, ["El Presidente"])]
    assert alvaro.bank == [(1, 3), (2, 5)]


def test_the_report_in_a_sentence_for_a_shared_links_preview():
    from junta.games.report_views import summary

    assert summary(report()) == (f"Winners: {A} and {B} (5 MP in Switzerland). 2 turns, 1 coup, "
                                 "1 death.")
