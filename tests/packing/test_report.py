"""The game's report text (``packing.report.play_text``, what ``packing play`` prints)."""

from __future__ import annotations

from packing import SAMPLE_DECK, Game, Truck
from packing.report import play_text


def test_a_report_names_the_variant_trucks_of_its_deck() -> None:
    variants = (
        Truck.parse("#####/#####/#####", height=5, name="V1"),
        Truck.parse("######/######", height=2, name="V2"),
    )
    text = play_text(Game(players=2, deck=(*SAMPLE_DECK[:28], *variants)), ["a", "b"])
    assert "variant trucks in the deck: V1, V2" in text.splitlines()
    assert "variant" not in play_text(Game(players=2), ["a", "b"])


def test_the_html_table_writes_every_negative_with_one_minus_sign() -> None:
    from packing import bot, play_game

    for seed in range(40):
        state = play_game([bot("random"), bot("random")], seed=seed, start_points=5)
        if min(state.points) < 0:
            break
    else:
        raise AssertionError("no game below zero among 40 seeds")
    html = state._repr_html_()
    assert "−" in html and not any(f"-{digit}" in html for digit in "0123456789")
