"""`hikeras.tree` against Keras's own answers (fixtures/keras_surface) and by hand."""

import collections
import json
import pathlib

import pytest

from hikeras import tree

FIXTURE = json.loads((pathlib.Path(__file__).parent / "fixtures" / "keras_surface"
                      / "surface.json").read_text())["tree"]
STRUCTURE = {"b": [1, (2, 3)], "a": {"y": 4, "x": None}, "c": 5}


def as_json(value):
    return json.loads(json.dumps(value))


def test_matches_keras():
    assert tree.flatten(STRUCTURE) == FIXTURE["flatten"]
    assert as_json(tree.flatten_with_path(STRUCTURE)) == FIXTURE["flatten_with_path"]
    doubled = tree.map_structure(lambda v: None if v is None else v * 10, STRUCTURE)
    assert as_json(doubled) == FIXTURE["map_structure"]
    assert doubled["b"][1] == (20, 30)
    assert as_json(tree.pack_sequence_as(STRUCTURE, range(6))) == FIXTURE["pack_sequence_as"]
    assert repr(tree.lists_to_tuples({"a": [1, [2, 3]], "b": (4, [5])})) == \
        FIXTURE["lists_to_tuples"]
    assert repr(tree.map_shape_structure(lambda s: tuple(2 * d for d in s),
                                         {"a": (1, 2), "b": [(3,), (4, 5)]})) == \
        FIXTURE["map_shape_structure"]
    assert [tree.is_nested(v) for v in ([], (1,), {"a": 1}, 1, "s", None)] == \
        FIXTURE["is_nested"]


def test_named_tuples_keep_field_order_and_type():
    pair = collections.namedtuple("Pair", "b a")
    assert tree.flatten(pair(1, 2)) == [1, 2]
    assert tree.map_structure(lambda x: x + 1, pair(1, 2)) == pair(2, 3)


def test_several_structures_and_none():
    assert tree.map_structure(lambda a, b: (a, b), [1, (2,)], [3, (4,)]) == [(1, 3), ((2, 4),)]
    assert tree.map_structure(lambda x: 1, {"a": None}, none_is_leaf=False) == {"a": None}
    assert tree.map_structure(lambda x: 1, {"a": None}) == {"a": 1}


def test_traverse_and_up_to():
    assert tree.traverse(lambda x: 0 if isinstance(x, tuple) else None, [1, (2, 3)]) == [1, 0]
    assert tree.traverse(lambda x: tree.MAP_TO_NONE() if x == 2 else None, [1, (2, 3)]) == \
        [1, (None, 3)]
    assert tree.traverse(lambda x: sum(x) if isinstance(x, tuple) else None, [1, (2, 3)],
                         top_down=False) == [1, 5]
    assert tree.map_structure_up_to([1, [2]], repr, [[1, 2], [[3]]]) == ["[1, 2]", ["[3]"]]


def test_mismatches_raise():
    with pytest.raises(ValueError, match="same nested structure"):
        tree.map_structure(lambda a, b: a, [1, 2], [1, (2,)])
    with pytest.raises(ValueError, match="same nested structure"):
        tree.assert_same_structure((1, 2), [1, 2])
    tree.assert_same_structure({"a": 1, "b": (2,)}, {"b": (3,), "a": 4})
    with pytest.raises(ValueError, match="same paths"):
        tree.assert_same_paths({"a": 1}, {"b": 1})
    with pytest.raises(ValueError, match="3 leaves but the flat sequence has 2"):
        tree.pack_sequence_as([1, [2, 3]], [1, 2])
