"""The fuzz campaign: load thousands of mutants of saved files, classify every outcome.

Each mutant (see `fuzz_mutations`) is loaded in a forked worker, and ends as:

- `loaded-identical`: it loaded, and the weights are those of the unmutated file;
- `clear error`: a `ValueError` or `OSError` that is a hikeras error type or names
  the file, and, where it quotes Python's own words about bad input (`list index
  out of range`, ...), also names the layer;
- `unclear error`: any other `ValueError`/`OSError`;
- `crash`: any other exception, or the worker died (a signal, an abort in libhdf5);
- `hang`: the case ran past the watchdog; its worker is killed and replaced;
- `silent alteration`: it loaded with weights other than the file's (or, for
  `load_model`, another architecture or compile state), or a failed
  `load_weights` changed the model.

Mutant `i` of a source is rebuilt from a seed of `(source name, i)` in whichever
worker runs it, so a campaign is the same in every run and any case replays
alone with `run_case`.

Speed: `open_h5` walks a file's metadata in a forked child under a time limit
(the product's guard against libhdf5 loops), and a fork costs tens of
milliseconds on a busy machine. The first pass therefore runs that walk in the
worker itself (`fast_walk`); the walk's verdict is the same wherever it runs,
unless it loops or crashes, and every case that hangs or kills its worker in
the first pass is run again exactly as the product runs it, with the forked
walk, and classified by that second run.
"""

import collections
import dataclasses
import hashlib
import json
import multiprocessing
import multiprocessing.connection
import os
import random
import re
import time
import warnings
import zlib

import numpy as np

import hikeras
from hikeras.saving import SavedFileError, h5_open
from hikeras.serialization.config_errors import ConfigError
from hikeras.serialization.limits import ResourceLimitError
from tests.saving import fuzz_mutations

# The product's metadata-walk limit (`h5_open.WALK_SECONDS`, 10 s) in the second pass:
# a case reaches it only after its walk has already looped through the first pass.
RECHECK_WALK_SECONDS = 3.0
FIRST_PASS_SECONDS = 3.0
OUTCOMES = ("loaded-identical", "clear error", "unclear error", "crash", "hang",
            "silent alteration")
# Python's words for bad input reaching code that expected good input.
_INTERNAL = re.compile(
    r"list indices must be|index out of range|unexpected keyword argument|object has no attribute|"
    r"not subscriptable|is not iterable|unsupported operand|not supported between instances|"
    r"Unable to allocate|cannot be interpreted as an integer|required positional argument|"
    r"positional arguments? but|NoneType")
_NAMES_LAYER = re.compile(r"Cannot rebuild |layer '[^']+'")
_DIED = "the worker died"


@dataclasses.dataclass
class Source:
    """Files of one saved model, and how to load them.

    `kind` is "model" (`load_model(main)`) or "weights" (`template().load_weights(main)`);
    `mutations` lists the kinds `make_mutant` draws from (see `fuzz_mutations`).
    """

    name: str
    kind: str
    files: dict
    main: str
    hikeras_written: bool
    mutations: tuple
    template: object = None
    expected: list = None
    expected_architecture: str = None


def architecture_of(model):
    """The model's config and compile config, as one comparable string."""
    compiled = model.get_compile_config() if getattr(model, "optimizer", None) else None
    return model.to_json() + json.dumps(compiled, sort_keys=True, default=repr)


def weights_of(model):
    return [np.array(v.value, copy=True) for v in model.weights]


def _same(a, b):
    return len(a) == len(b) and all(
        x.shape == y.shape and x.dtype == y.dtype and np.array_equal(
            x, y, equal_nan=x.dtype.kind == "f") for x, y in zip(a, b))


def make_mutant(source, index):
    """`(files, description)`: mutant `index` of `source`, the same in every run."""
    rng = random.Random(zlib.crc32(f"{source.name}:{index}".encode()))
    kind = rng.choice(source.mutations)
    files = dict(source.files)
    if kind == "json":  # the sharded index
        target = source.main
        mutated, what = fuzz_mutations.json_mutant(files[target].decode("utf-8"), rng)
        files[target] = mutated.encode("utf-8", "surrogatepass")
    elif kind == "h5":
        target = rng.choice([f for f in files if not f.endswith((".json", "checkpoint"))])
        mutated, what = fuzz_mutations.h5_mutant(
            files[target], rng, json_attributes=("model_config", "training_config"))
        files[target] = mutated
    elif kind == "zip":
        target = source.main
        files[target], what = fuzz_mutations.zip_mutant(files[target], rng)
    else:
        target = rng.choice(sorted(files))
        files[target], what = fuzz_mutations.byte_mutant(files[target], rng)
    return files, f"{target}: {what}"


def classify_error(error, names):
    """The outcome class of an exception raised by a load; `names` identify the file."""
    if not isinstance(error, (ValueError, OSError)):
        return "crash"
    message = str(error)
    ours = isinstance(error, (SavedFileError, ConfigError, ResourceLimitError))
    if not (ours or any(n in message for n in names)):
        return "unclear error"
    if _INTERNAL.search(message) and not _NAMES_LAYER.search(message):
        return "unclear error"
    return "clear error"


def run_case(source, index, directory, models):
    """Loads mutant `index` of `source` in `directory`; `(outcome, description, message)`."""
    try:
        files, what = make_mutant(source, index)
    except Exception as e:  # noqa: BLE001  (the edit did not apply to this file)
        files, what = dict(source.files), f"unmutated ({type(e).__name__} while mutating)"
    for relative, data in files.items():  # a source's mutants all have the same files
        path = os.path.join(directory, relative)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
    path = os.path.join(directory, source.main)
    names = [directory, *files]
    try:
        if source.kind == "model":
            model = hikeras.models.load_model(path)
            got = weights_of(model)
            if _same(got, source.expected) and (
                    architecture_of(model) != source.expected_architecture):
                return "silent alteration", what, "the architecture or compile state differs"
        else:
            if source.name not in models:
                models[source.name] = source.template()
            model = models[source.name]
            before = weights_of(model)
            try:
                model.load_weights(path)
            except Exception:
                if not _same(weights_of(model), before):
                    model.set_weights(before)
                    return "silent alteration", what, "a failed load changed the model"
                raise
            got = weights_of(model)
            model.set_weights(before)
    except Exception as e:  # noqa: BLE001  (classified, never swallowed)
        return classify_error(e, names), what, f"{type(e).__name__}: {e}"[:500]
    if _same(got, source.expected):
        return "loaded-identical", what, ""
    return "silent alteration", what, "loaded weights differ from the file's"


def _worker(sources, cases, connection, directory, fast_walk):
    warnings.simplefilter("ignore")
    if fast_walk:
        h5_open._walk_in_child = h5_open._walk  # this forked worker only
    else:
        h5_open.WALK_SECONDS = RECHECK_WALK_SECONDS
    models = {}
    for source_index, index in cases:
        connection.send(("start", source_index, index))
        outcome = run_case(sources[source_index], index, directory, models)
        connection.send(("done", source_index, index, *outcome))
    connection.send(("end",))


@dataclasses.dataclass
class Result:
    source: str
    index: int
    outcome: str
    description: str
    message: str


def run_campaign(sources, counts, directory, workers=2, case_seconds=60.0):
    """Runs `counts[k]` mutants of `sources[k]` in `workers` forked processes.

    A case that runs past `case_seconds` is a hang: its worker is killed and a
    new one takes the rest of its cases; a worker that dies mid-case is a crash.
    Both are first re-run with the product's forked metadata walk (see the
    module docstring). Returns a list of `Result`s, one per case.
    """
    cases = [(k, i) for k, n in enumerate(counts) for i in range(n)]
    # A first-pass hang only sends the case to the second pass: it may wait less.
    results = _run(sources, cases, directory, workers, FIRST_PASS_SECONDS, fast_walk=True)
    again = [r for r in results if r.outcome == "hang" or r.message.startswith(_DIED)]
    if not again:
        return results
    index = {(r.source, r.index): r for r in results}
    positions = {s.name: k for k, s in enumerate(sources)}
    # A zeroed block of a small file recurs among the mutants: run each distinct one once.
    digests = {(r.source, r.index): _digest(make_mutant(sources[positions[r.source]],
                                                         r.index)[0]) for r in again}
    distinct = {}
    for key, digest in digests.items():
        distinct.setdefault(digest, key)
    redone = _run(sources, [(positions[s], i) for s, i in distinct.values()],
                  os.path.join(directory, "again"), 1, case_seconds, fast_walk=False)
    by_digest = {digests[(r.source, r.index)]: r for r in redone}
    for key, digest in digests.items():
        r = by_digest[digest]
        index[key] = Result(key[0], key[1], r.outcome, r.description,
                            r.message + " (run again with the forked metadata walk)")
    return list(index.values())


def _digest(files):
    return hashlib.sha256(b"".join(hashlib.sha256(files[k]).digest()
                                   for k in sorted(files))).hexdigest()


def _run(sources, cases, directory, workers, case_seconds, fast_walk):
    context = multiprocessing.get_context("fork")
    chunks = [collections.deque(cases[w::workers]) for w in range(workers)]
    results, running = [], {}
    generation = 0

    def start(queue):
        nonlocal generation
        generation += 1
        receive, send = context.Pipe(duplex=False)
        process = context.Process(target=_worker, daemon=True, args=(
            sources, list(queue), send,
            os.path.join(directory, f"worker-{generation}"), fast_walk))
        process.start()
        send.close()
        running[receive] = {"process": process, "queue": queue, "current": None,
                            "since": time.monotonic()}

    def fail_current(state, outcome, message):
        source_index, index = state["current"]
        description = make_mutant(sources[source_index], index)[1]
        results.append(Result(sources[source_index].name, index, outcome, description,
                              message))
        state["queue"].popleft()

    for queue in chunks:
        if queue:
            start(queue)
    while running:
        ready = multiprocessing.connection.wait(list(running), timeout=1.0)
        for receive in ready:
            state = running[receive]
            try:
                message = receive.recv()
            except EOFError:
                state["process"].join()
                del running[receive]
                if state["current"] is not None:
                    fail_current(state, "crash",
                                 f"{_DIED} (exit code {state['process'].exitcode})")
                if state["queue"]:
                    start(state["queue"])
                continue
            if message[0] == "start":
                state["current"], state["since"] = message[1:], time.monotonic()
            elif message[0] == "done":
                _, source_index, index, outcome, description, text = message
                results.append(Result(sources[source_index].name, index, outcome,
                                      description, text))
                state["queue"].popleft()
                state["current"] = None
            else:
                state["process"].join()
                del running[receive]
        for receive, state in list(running.items()):
            if state["current"] is not None and (
                    time.monotonic() - state["since"] > case_seconds):
                state["process"].kill()
                state["process"].join()
                del running[receive]
                fail_current(state, "hang", f"no result within {case_seconds} s")
                if state["queue"]:
                    start(state["queue"])
    return results


def tally(results):
    """`{source: Counter(outcome)}`."""
    counts = collections.defaultdict(collections.Counter)
    for r in results:
        counts[r.source][r.outcome] += 1
    return dict(counts)
