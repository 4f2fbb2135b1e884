import csv

import pytest

from hikeras import callbacks


def _rows(path, delimiter=","):
    with open(path, newline="") as f:
        return list(csv.DictReader(f, delimiter=delimiter))


def test_rows_parse_back_to_the_logged_values(make_model, data, tmp_path):
    x, y = data
    path = tmp_path / "log.csv"
    history = make_model(metrics=["mae"]).fit(
        x, y, batch_size=8, epochs=3, verbose=0, validation_data=data,
        callbacks=[callbacks.CSVLogger(path)])
    rows = _rows(path)
    assert list(rows[0]) == ["epoch", "loss", "mae", "val_loss", "val_mae"]
    assert [int(r["epoch"]) for r in rows] == [0, 1, 2]
    for key in ("loss", "mae", "val_loss", "val_mae"):
        assert [float(r[key]) for r in rows] == history.history[key]  # exact round trip


def test_separator_append_and_missing_validation(make_model, data, tmp_path):
    x, y = data
    path = tmp_path / "log.tsv"
    model = make_model()
    model.fit(x, y, epochs=2, verbose=0, validation_data=data, validation_freq=2,
              callbacks=[callbacks.CSVLogger(path, separator="\t")])
    model.fit(x, y, epochs=1, verbose=0, validation_data=data,
              callbacks=[callbacks.CSVLogger(path, separator="\t", append=True)])
    text = path.read_text()
    assert text.count("epoch\tloss\tval_loss") == 1  # one header
    rows = _rows(path, "\t")
    assert [r["epoch"] for r in rows] == ["0", "1", "0"]
    assert rows[0]["val_loss"] == "NA" and rows[1]["val_loss"] != "NA"


def test_overwrite_by_default(make_model, data, tmp_path):
    x, y = data
    path = tmp_path / "log.csv"
    path.write_text("stale\n")
    make_model().fit(x, y, epochs=1, verbose=0, callbacks=[callbacks.CSVLogger(path)])
    assert path.read_text().splitlines()[0] == "epoch,loss"


def test_new_columns_in_appended_file_are_an_error(make_model, data, tmp_path):
    x, y = data
    path = tmp_path / "log.csv"
    make_model().fit(x, y, epochs=1, verbose=0, callbacks=[callbacks.CSVLogger(path)])
    with pytest.raises(ValueError, match=r"\['mae'\], which are not columns"):
        make_model(metrics=["mae"]).fit(x, y, epochs=1, verbose=0,
                                        callbacks=[callbacks.CSVLogger(path, append=True)])


def test_unwritable_location_fails_before_training(make_model, data, tmp_path):
    x, y = data
    blocker = tmp_path / "a_file"
    blocker.write_text("")
    started = []
    watcher = callbacks.LambdaCallback(on_train_batch_begin=lambda b, logs: started.append(b))
    with pytest.raises(ValueError, match="CSVLogger: cannot write to the directory"):
        make_model().fit(x, y, epochs=1, verbose=0,
                         callbacks=[watcher, callbacks.CSVLogger(blocker / "log.csv")])
    assert started == []
    with pytest.raises(ValueError, match="single character"):
        callbacks.CSVLogger(tmp_path / "x.csv", separator="::")
