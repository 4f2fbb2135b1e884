"""Every op of the backend has an ONNX translation or a recorded reason why not.

A new op fails here until it gets a translation in `hikeras/export/translations/`
or a line in `UNTRANSLATED` saying why it has none.
"""

from hikeras import backend
from hikeras.export.translations import TRANSLATIONS, UNTRANSLATED


def inference_ops():
    ops = backend.get_backend().ops
    return sorted(name for name in ops.names() if not ops[name].mutates)


def test_every_op_is_translated_or_has_a_reason():
    missing = [n for n in inference_ops() if n not in TRANSLATIONS and n not in UNTRANSLATED]
    assert not missing, ("Ops with no ONNX translation and no reason in "
                         f"hikeras/export/translations/registry.py UNTRANSLATED: {missing}")


def test_the_tables_name_only_existing_ops_and_each_once():
    names = set(inference_ops())
    assert not set(TRANSLATIONS) & set(UNTRANSLATED)
    assert set(TRANSLATIONS) <= names, sorted(set(TRANSLATIONS) - names)
    assert set(UNTRANSLATED) <= names, sorted(set(UNTRANSLATED) - names)
