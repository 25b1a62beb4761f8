"""Value types: parsing, canonical text, round trips and errors that quote the input."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from packing import DICE, Cargo, Engine, LoadPlan, ParseError, Placement, Status, Truck
from tests.packing.strategies import trucks


def test_cargo_from_roll_and_mapping() -> None:
    assert Cargo.from_roll([3, 2, 3, 0, 1]).counts == (3, 2, 3, 0, 1)
    assert Cargo({1: 3, 2: 2}).counts == (3, 2, 0, 0, 0)
    assert Cargo({5: 9}).volume == 45  # any non-negative counts, not only dice faces


@pytest.mark.parametrize(
    "faces", [[0, 0, 0, 0, 0], [6, 0, 0, 0, 0], [1, 5, 0, 0, 0], [1, 0, 0, 3, 0], [1, 2, 3]]
)
def test_cargo_from_roll_rejects_impossible_faces(faces: list[int]) -> None:
    with pytest.raises(ParseError, match=r"invalid roll"):
        Cargo.from_roll(faces)


@pytest.mark.parametrize("bad", [{6: 1}, {1: -1}, (1, 2, 3, 4, 5, 6), (1.5,)])
def test_cargo_rejects_bad_counts(bad: object) -> None:
    with pytest.raises(ParseError):
        Cargo(bad)  # type: ignore[arg-type]


def test_cargo_text_round_trip() -> None:
    cargo = Cargo((3, 2, 3, 0, 1))
    assert Cargo.parse(str(cargo)) == cargo
    assert eval(repr(cargo)) == cargo
    assert cargo.is_roll and not Cargo({1: 0}).is_roll
    with pytest.raises(ParseError, match=r"'3,x'"):
        Cargo.parse("3,x")
    with pytest.raises(ParseError, match=r"'3,2,3,0,7'"):
        Cargo.parse("3,2,3,0,7", roll=True)


def test_every_die_face_is_accepted() -> None:
    for faces in [(DICE[1][i], DICE[2][i], DICE[3][i], DICE[4][i], DICE[5][i]) for i in range(6)]:
        assert Cargo.from_roll(faces).counts == faces


def test_truck_parse_and_str_round_trip() -> None:
    truck = Truck.parse("#####/###../#####", height=3, name="T07")
    assert str(truck) == "#####/###../#####"
    assert (truck.capacity, truck.height, truck.name, len(truck.cells)) == (39, 3, "T07", 13)
    assert Truck.parse("#####\n###..\n#####", height=3, name="T07") == truck
    assert eval(repr(truck)) == truck
    assert truck.longest_run() == 5 and truck.fits(5)
    assert not Truck.parse("####/####", height=4).fits(5)


@pytest.mark.parametrize(
    ("mask", "height", "quoted"),
    [("##x", 1, "'##x'"), ("##/#", 1, "'##/#'"), ("..", 1, "'..'"), ("", 1, "''"), ("##", 0, "0")],
)
def test_truck_rejects_bad_input(mask: str, height: int, quoted: str) -> None:
    with pytest.raises(ParseError, match=quoted):
        Truck.parse(mask, height=height)


def test_placement_text_and_cubes() -> None:
    p = Placement.parse("3y@4,0,1")
    assert str(p) == "3y@4,0,1"
    assert p.cubes() == ((4, 0, 1), (4, 1, 1), (4, 2, 1))
    assert Placement(2, 0, 0, 0, "z").cubes() == ((0, 0, 0), (0, 0, 1))
    for bad in ["3w@0,0,0", "3x@0,0", "x@1,2,3", "6x@0,0,0"]:
        with pytest.raises(ParseError):
            Placement.parse(bad)


def test_load_plan_scores_come_from_the_placements() -> None:
    truck = Truck.parse("###", height=1)
    plan = LoadPlan.from_placements(truck, Cargo({2: 2}), [Placement(2, 0, 0, 0, "x")])
    assert (plan.loaded, plan.empty, plan.left_over, plan.penalty) == (2, 1, 2, 5)
    assert plan.left_behind == Cargo({2: 1})
    assert plan.status is Status.BY_HAND and plan.engine is Engine.BY_HAND and not plan.optimal
    assert "penalty 5" in plan.render()


def test_render_shows_every_level_and_rod() -> None:
    truck = Truck.parse("##/#.", height=2)
    plan = LoadPlan.from_placements(
        truck, Cargo({2: 1, 1: 1}), [Placement(2, 0, 0, 0, "z"), Placement(1, 1, 0, 0, "z")]
    )
    text = plan.render()
    assert "level 0  level 1" in text
    assert "AB       A." in text and "A=2 B=1" in text


@pytest.mark.parametrize(
    ("mask", "row"),
    [
        ("#####//#####", "row 2 of 3"),
        ("/#####", "row 1 of 2"),
        ("#####/", "row 2 of 2"),
        ("#####/   /#####", "row 2 of 3"),
        ("##\n\n##", "row 2 of 3"),
        ("##/ /", "row 2 of 3"),
    ],
)
def test_empty_mask_rows_are_errors_not_dropped(mask: str, row: str) -> None:
    with pytest.raises(ParseError) as caught:
        Truck.parse(mask, height=1)
    message = str(caught.value)
    assert repr(mask) in message and f"{row} is empty" in message


def test_space_around_the_mask_text_is_not_a_row() -> None:
    assert Truck.parse("  ##/#.\n", height=1) == Truck.parse("##/#.", height=1)
    assert Truck.parse("\n##\n#.\n", height=1) == Truck.parse("##/#.", height=1)


@pytest.mark.parametrize(
    ("mask", "height", "variant"),
    [
        ("#####/#####/#####", 4, False),
        ("##/#.", 1, False),
        ("#####/#####/#####", 5, True),
        ("######/######", 2, True),
        ("##/##/##/##", 1, True),
        ("#", 4, False),
    ],
)
def test_variants_are_told_apart(mask: str, height: int, variant: bool) -> None:
    truck = Truck.parse(mask, height=height)  # accepted either way: designers explore variants
    assert truck.is_variant is variant


def test_the_sample_deck_has_no_variant() -> None:
    from packing import SAMPLE_DECK

    assert not any(truck.is_variant for truck in SAMPLE_DECK)


def test_plan_status_and_engine_read_as_text() -> None:
    truck = Truck.parse("##", height=1)
    placements = (Placement.parse("2x@0,0,0"),)
    plan = LoadPlan(truck, Cargo({2: 1}), placements, "optimal", 2, engine="cp-sat")  # type: ignore[arg-type]
    assert plan.status is Status.OPTIMAL and plan.engine is Engine.CP_SAT
    assert (str(plan.status), str(plan.engine), str(Engine.BOUND), str(Status.BY_HAND)) == (
        "optimal",
        "cp-sat",
        "bound",
        "by-hand",
    )
    assert plan.to_dict()["engine"] == "cp-sat" and plan.to_dict()["status"] == "optimal"


@given(trucks(rows=6, columns=8, max_height=6), st.data())
def test_an_empty_row_anywhere_is_an_error(truck: Truck, data: st.DataObject) -> None:
    rows = str(truck).split("/")
    assert Truck.parse("/".join(rows), height=truck.height) == truck
    at = data.draw(st.integers(0, len(rows)))
    blank = data.draw(st.sampled_from(["", " ", "   "]))
    text = "/".join([*rows[:at], blank, *rows[at:]])
    with pytest.raises(ParseError, match=f"row {at + 1} of {len(rows) + 1} is empty") as caught:
        Truck.parse(text, height=truck.height)
    assert repr(text) in str(caught.value)
    assert truck.is_variant == (truck.rows > 3 or truck.columns > 5 or truck.height > 4)
