"""The ops of `hikeras.ops` export one by one, and onnxruntime computes what the eager op
does (within 1e-5), on the dtypes each op takes and on its special values (signed
zeros, infinities, NaN, integer division by zero, shifts past the width).

Each case is a small functional model around one op; the table must cover every
op that the translation modules listed in `COVERED_MODULES` translate.
"""

import collections

import numpy as np
import pytest

import hikeras
from hikeras import ops
from hikeras.export.translations import TRANSLATIONS

ort = pytest.importorskip("onnxruntime")
pytest.importorskip("onnx")

BATCH = 3
COVERED_MODULES = ("trig", "binary_math", "bitwise", "ordering", "rearranging", "scatter",
                   "determinants", "custom_gradient", "special_functions", "error_function",
                   "ranking", "fourier", "framing", "segments", "sparsemax", "resampling",
                   "sampling", "linear_solve", "decompositions")

FIXED_BATCH = {"map_coordinates"}  # its first axis holds one row per input axis
EXACT = {"nextafter"}  # one unit in the last place: within 1e-5 would not see it
Case = collections.namedtuple("Case", "op fn inputs")  # inputs: [(shape, make(rng, shape))]


def floats(low=-3.0, high=3.0, dtype="float32"):
    def make(rng, shape):
        return rng.uniform(low, high, size=shape).astype(dtype)
    return make


def special(dtype="float32"):
    """Normal values with zeros of both signs, infinities and NaN mixed in."""
    def make(rng, shape):
        x = (rng.normal(size=shape) * 3).astype(dtype).reshape(-1)
        picks = rng.choice(x.size, size=min(6, x.size), replace=False)
        x[picks] = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0])[:len(picks)]
        return x.reshape(shape)
    return make


def ints(low=-20, high=20, dtype="int32"):
    def make(rng, shape):
        return rng.integers(low, high, size=shape).astype(dtype)
    return make


def bools(rng, shape):
    return rng.integers(0, 2, size=shape).astype(bool)


def f(low=-3.0, high=3.0):
    return ((4,), floats(low, high))


SPECIAL = ((6,), special())
CASES = {}


def case(name, fn, *inputs, op=None):
    CASES[name] = Case(op or name.split("-")[0], fn, inputs)


for name, low, high in [("sin", -4, 4), ("cos", -4, 4), ("tan", -1.4, 1.4),
                        ("arcsin", -0.99, 0.99), ("arccos", -0.99, 0.99), ("arctan", -9, 9),
                        ("sinh", -4, 4), ("cosh", -4, 4), ("arcsinh", -9, 9),
                        ("arccosh", 1.01, 9), ("arctanh", -0.99, 0.99), ("log2", 0.01, 99),
                        ("log10", 0.01, 99), ("exp2", -9, 9), ("cbrt", -30, 30),
                        ("reciprocal", 0.1, 9), ("sinc", -4, 4), ("deg2rad", -400, 400),
                        ("rad2deg", -7, 7)]:
    case(name, getattr(ops, name), f(low, high))
case("sinc-at-zero", ops.sinc, ((3,), lambda rng, s: np.array([0.0, 1e-3, -2.0], "float32")))
case("cbrt-of-ints", ops.cbrt, ((4,), ints()))
case("ceil", ops.ceil, SPECIAL)
case("trunc", ops.trunc, SPECIAL)
for name in ("isnan", "isinf", "isfinite", "isneginf", "isposinf", "signbit"):
    case(name, getattr(ops, name), SPECIAL)
    case(f"{name}-of-ints", getattr(ops, name), ((4,), ints()))
case("signbit-of-uint8", ops.signbit, ((4,), ints(0, 255, "uint8")))

for name in ("arctan2", "hypot", "logaddexp", "logaddexp2", "fmod", "mod", "fmax", "fmin",
             "divide_no_nan", "heaviside", "floor_divide"):
    case(name, getattr(ops, name), f(-5, 5), f(-5, 5))
    case(f"{name}-special", getattr(ops, name), SPECIAL, SPECIAL)
case("hypot-large", ops.hypot, f(1e20, 1e30), f(-1e20, 1e20))
case("logaddexp-far-apart", ops.logaddexp, f(-1.0, 1.0), f(-90.0, -60.0))
case("floor_divide-inexact", ops.floor_divide,
     ((3,), lambda rng, s: np.array([1.0, -1.0, 7.0], "float32")),
     ((3,), lambda rng, s: np.array([0.1, 0.1, -0.7], "float32")))
case("divide_no_nan-by-zero", ops.divide_no_nan, f(), ((4,), lambda rng, s: np.zeros(s, "f4")))
for name in ("mod", "fmod", "floor_divide", "fmax", "fmin"):
    case(f"{name}-ints", getattr(ops, name), ((8,), ints()), ((8,), ints(-4, 4)))  # 0 too
    case(f"{name}-int64", getattr(ops, name), ((8,), ints(dtype="int64")),
         ((8,), ints(-4, 4, "int64")))
case("mod-int8", ops.mod, ((8,), ints(dtype="int8")), ((8,), ints(-4, 4, "int8")))
case("ldexp", ops.ldexp, f(-5, 5), ((4,), ints(-20, 20)))
case("ldexp-extremes", ops.ldexp,
     ((6,), lambda rng, s: np.array([0.0, 1e-30, 3e38, 1.0, 2.0, -1.5], "float32")),
     ((6,), lambda rng, s: np.array([300, 140, -270, -149, 127, 128], "int32")))

case("logical_xor", ops.logical_xor, ((6,), bools), ((6,), bools))
case("logical_xor-of-floats", ops.logical_xor, f(-1, 1), ((4,), floats(-1, 1)))
for name in ("bitwise_and", "bitwise_or", "bitwise_xor"):
    case(name, getattr(ops, name), ((6,), ints(-99, 99)), ((6,), ints(-99, 99)))
    case(f"{name}-uint8", getattr(ops, name), ((6,), ints(0, 255, "uint8")),
         ((6,), ints(0, 255, "uint8")))
    case(f"{name}-bool", getattr(ops, name), ((6,), bools), ((6,), bools))
case("bitwise_invert", ops.bitwise_invert, ((6,), ints(-99, 99)))
case("bitwise_invert-uint8", ops.bitwise_invert, ((6,), ints(0, 255, "uint8")))
case("bitwise_invert-bool", ops.bitwise_invert, ((6,), bools))
for name in ("left_shift", "right_shift"):
    for dtype in ("int32", "int64", "uint8", "uint32"):
        low = 0 if dtype.startswith("u") else -999
        case(f"{name}-{dtype}", getattr(ops, name), ((8,), ints(low, 999, dtype)),
             ((8,), ints(0, 70, dtype)))  # counts past the width too
case("gcd", ops.gcd, ((8,), ints(-60, 60)), ((8,), ints(-60, 60)))
case("gcd-int64", ops.gcd, ((8,), ints(-10**12, 10**12, "int64")),
     ((8,), ints(-10**6, 10**6, "int64")))
case("gcd-zeros", ops.gcd, ((3,), lambda rng, s: np.array([0, 0, 12], "int32")),
     ((3,), lambda rng, s: np.array([0, -5, 0], "int32")))
case("i0", ops.i0, f(-16, 16))
case("i0-large", ops.i0, ((8,), lambda rng, s: np.array(
    [14.9, 15.0, 15.1, -20.0, 50.0, 88.0, 89.0, 95.0] * s[0], "float32").reshape(s)))
case("i0-special", ops.i0, SPECIAL)
NEXT = np.array([1.0, 1.0, 2.0, 2.0, -2.0, 0.0, -0.0, 1e-45, 1.2e-38, 3.4028235e38, np.inf,
                 -np.inf, np.nan, 5.0, 0.75, -3.0, 1.1754944e-38, 3.0], "float32")
TOWARD = np.array([2.0, 0.0, 3.0, -1.0, 0.0, -1.0, 1.0, 0.0, 0.0, np.inf, 0.0, 5.0, 1.0,
                   np.nan, 0.75, -9.0, 0.0, -3.0], "float32")
case("nextafter", ops.nextafter, ((18,), lambda rng, s: np.broadcast_to(NEXT, s).copy()),
     ((18,), lambda rng, s: np.broadcast_to(TOWARD, s).copy()))
case("nextafter-random", ops.nextafter, ((16,), lambda rng, s: (rng.normal(size=s) * 10.0 ** rng.integers(
    -40, 38, size=s)).astype("float32")), ((16,), floats(-1e30, 1e30)))
case("nextafter-float64", ops.nextafter, ((4,), floats(-9, 9, "float64")),
     ((4,), floats(-9, 9, "float64")))
case("lcm", ops.lcm, ((8,), ints(-60, 60)), ((8,), ints(-60, 60)))

for name in ("cumsum", "cumprod"):
    fn = getattr(ops, name)
    case(f"{name}-last", lambda x, fn=fn: fn(x, axis=-1), ((3, 7), floats(-1.5, 1.5)))
    case(f"{name}-axis1", lambda x, fn=fn: fn(x, axis=1), ((5, 2), floats(-1.5, 1.5)))
    case(f"{name}-flat", fn, ((2, 3), floats(-1.5, 1.5)))
    case(f"{name}-ints", lambda x, fn=fn: fn(x, axis=1), ((9,), ints(-3, 4)))
    case(f"{name}-bool", lambda x, fn=fn: fn(x, axis=1), ((5,), bools))
case("sort", ops.sort, ((7,), floats()))
case("sort-axis1", lambda x: ops.sort(x, axis=1), ((5, 2), floats()))
case("sort-ints", ops.sort, ((9,), ints(-3, 3)))
case("sort-flat", lambda x: ops.sort(x, axis=None), ((2, 3), floats()))
case("sort-special", ops.sort, SPECIAL)  # NaN last, as numpy
case("argsort-special", ops.argsort, SPECIAL)
case("argsort-ties", ops.argsort, ((9,), ints(-3, 3)))
case("argsort-floats", lambda x: ops.argsort(x, axis=0), ((4,), floats()))
case("argsort-ties-float", ops.argsort, ((8,), lambda rng, s: rng.integers(
    0, 3, size=s).astype("float32")))

case("flip", lambda x: ops.flip(x, axis=1), ((3, 4), floats()))
case("flip-all", ops.flip, ((3, 4), ints()))
case("roll", lambda x: ops.roll(x, 2, axis=1), ((5,), floats()))
case("roll-back-past-length", lambda x: ops.roll(x, -7, axis=-1), ((2, 5), floats()))
case("roll-two-axes", lambda x: ops.roll(x, (1, -2), axis=(1, 2)), ((3, 4), ints()))
case("roll-flat", lambda x: ops.roll(x, 4), ((2, 3), floats()))
case("diagonal", lambda x: ops.diagonal(x, axis1=1, axis2=2), ((3, 4), floats()))
case("diagonal-offset", lambda x: ops.diagonal(x, offset=1, axis1=2, axis2=1),
     ((4, 3), floats()))
case("diagonal-below", lambda x: ops.diagonal(x, offset=-2, axis1=1, axis2=2),
     ((5, 3), ints()))
case("take_along_axis", lambda x, i: ops.take_along_axis(x, i, axis=1),
     ((5,), floats()), ((4,), ints(-5, 5)))
case("take_along_axis-broadcast", lambda x, i: ops.take_along_axis(x, i[:1], axis=2),
     ((2, 4), floats()), ((2, 3), ints(0, 4)))
case("take_along_axis-flat", lambda x, i: ops.take_along_axis(x, i),
     ((2, 2), floats()), ((4,), ints(0, BATCH * 4)))

ROWS = np.array([[0, 1], [2, 0], [0, 1]])  # a repeated index: scatter adds
case("scatter", lambda v: ops.scatter(ROWS, v[0], (3, 2, 4)), ((3, 4), floats()))
case("scatter-ints", lambda v: ops.scatter(ROWS[:, :1], v[0], (3, 2)), ((3, 2), ints()))
case("scatter_update", lambda x, v: ops.scatter_update(x, np.array([[0, 1], [2, -1]]), v[0, :2]),
     ((4,), floats()), ((4,), floats()))
case("scatter_update-add", lambda x, v: ops.scatter_update(x, ROWS, v[:3, 0],
                                                           reduction="add"),
     ((3,), ints()), ((2,), ints()))
case("slogdet", ops.slogdet, ((3, 3), floats()))
case("slogdet-singular", ops.slogdet,
     ((2, 2), lambda rng, s: np.broadcast_to(np.array([[1, 2], [2, 4]], "f4"), s).copy()))


case("det", ops.det, ((3, 3), floats()))
def well_conditioned(n):
    def make(rng, shape):
        return (rng.normal(size=shape) + 3 * np.eye(n)).astype("float32")
    return ((n, n), make)


def needs_pivoting(rng, shape):  # a zero on the diagonal: elimination must swap rows
    a = rng.normal(size=shape).astype("float32")
    a[:, 0, 0] = 0.0
    return a


case("inv", ops.linalg.inv, well_conditioned(4))
case("inv-pivoting", ops.linalg.inv, ((3, 3), needs_pivoting))
case("solve", ops.linalg.solve, well_conditioned(3), ((3, 2), floats()))
case("solve-vector", lambda a, b: ops.linalg.solve(a[0], b[0]), well_conditioned(3),
     ((3,), floats()))
case("solve-broadcast", lambda a, b: ops.linalg.solve(a[:1], b), ((3, 3), needs_pivoting),
     ((3, 1), floats()))
case("solve_triangular", lambda a, b: ops.linalg.solve_triangular(a, b, lower=True),
     well_conditioned(4), ((4, 2), floats()))
case("solve_triangular-upper", ops.linalg.solve_triangular, well_conditioned(4),
     ((4, 3), floats()))
def positive_definite(n):
    def make(rng, shape):
        a = rng.normal(size=shape)
        return (a @ np.swapaxes(a, -1, -2) + n * np.eye(n)).astype("float32")
    return ((n, n), make)


case("cholesky", ops.linalg.cholesky, positive_definite(4))
case("cholesky-lower-triangle-only", lambda a: ops.linalg.cholesky(
    a + ops.triu(ops.ones((4, 4)), 1) * 9.0), positive_definite(4))
case("lu_factor", ops.linalg.lu_factor, ((4, 4), floats()))
case("lu_factor-pivoting", ops.linalg.lu_factor, ((3, 3), needs_pivoting))
case("lu_factor-ties", ops.linalg.lu_factor,  # equal magnitudes: the first row wins
     ((3, 3), lambda rng, s: np.broadcast_to(np.array([[1, 2, 0], [-1, 1, 1], [1, 0, 3]], "f4"),
                                             s).copy()))
case("qr", ops.linalg.qr, ((4, 4), floats()))
case("qr-tall", ops.linalg.qr, ((5, 3), floats()))
case("qr-tall-complete", lambda a: ops.linalg.qr(a, mode="complete"), ((5, 3), floats()))
case("qr-wide", ops.linalg.qr, ((3, 5), floats()))
case("qr-zero-column", ops.linalg.qr,  # no reflection: r keeps the diagonal's sign
     ((3, 3), lambda rng, s: np.broadcast_to(np.array([[-2, 1, 0], [0, 3, 1], [0, 0, 2]],
                                                      "f4"), s).copy()))
case("erf", ops.erf, f(-4, 4))
case("erfc", ops.erfc, f(-4, 4))
case("erfinv", ops.erfinv, f(-0.999, 0.999))
case("erfinv-edges", ops.erfinv,
     ((6,), lambda rng, s: np.broadcast_to(np.array([1, -1, 0, 1.5, np.nan, -0.5], "f4"), s)))
case("top_k", lambda x: ops.top_k(x, 3), ((7,), ints(0, 4)))  # ties: the lower index first
case("top_k-floats", lambda x: ops.top_k(x, 2), SPECIAL)  # NaN counts as the largest
case("in_top_k", lambda t, p: ops.in_top_k(t[:, 0], p, 2), ((1,), ints(-1, 5)),
     ((4,), lambda rng, s: rng.integers(0, 3, size=s).astype("float32")))
case("in_top_k-inf", lambda t, p: ops.in_top_k(t[:, 0], p, 2), ((1,), ints(0, 2)),
     ((2,), lambda rng, s: np.broadcast_to(np.array([np.inf, 1.0], "f4"), s)))
case("fft", lambda r, i: ops.fft((r, i)), ((8,), floats()), ((8,), floats()))
case("fft-odd", lambda r, i: ops.fft((r, i)), ((7,), floats()), ((7,), floats()))
case("fft2", lambda r, i: ops.fft2((r, i)), ((4, 6), floats()), ((4, 6), floats()))
case("fft-ifft2", lambda r, i: ops.ifft2((r, i)), ((4, 6), floats()), ((4, 6), floats()))
case("rfft", ops.rfft, ((8,), floats()))
case("rfft-cropped", lambda x: ops.rfft(x, 6), ((8,), floats()))
case("rfft-padded", lambda x: ops.rfft(x, 11), ((8,), floats()))
case("irfft", lambda r, i: ops.irfft((r, i)), ((5,), floats()), ((5,), floats()))
case("irfft-odd", lambda r, i: ops.irfft((r, i), 7), ((5,), floats()), ((5,), floats()))
case("irfft-cropped", lambda r, i: ops.irfft((r, i), 4), ((5,), floats()), ((5,), floats()))
case("rfft-stft", lambda x: ops.stft(x, 8, 4, 8), ((32,), floats()))
case("overlap_add-istft", lambda r, i: ops.istft((r, i), 8, 4, 8), ((9, 5), floats()),
     ((9, 5), floats()))
case("frame", lambda x: ops.extract_sequences(x, 4, 3), ((3, 13), floats()))
IDS = np.array([0, 2, 2, 5, -1, 1])  # 5 and -1 are dropped; segment 3 stays empty
for reduction in ("sum", "prod", "max", "min"):
    reduce = getattr(ops, f"segment_{reduction}")
    case(f"segment_reduce-{reduction}",
         lambda d, reduce=reduce: reduce(ops.transpose(d, (1, 0, 2)), IDS, num_segments=4),
         ((6, 3), floats()))
case("segment_reduce-ints", lambda d: ops.segment_max(ops.transpose(d), IDS, num_segments=4),
     ((6,), ints()))
case("sparsemax", ops.sparsemax, ((6,), floats()))
case("sparsemax-axis", lambda x: ops.sparsemax(x, axis=1), ((6, 2), floats()))
for method in ("bilinear", "nearest", "bicubic", "lanczos3", "area"):
    case(f"resample-{method}", lambda x, m=method: ops.image.resize(x, (5, 7), interpolation=m),
         ((4, 6, 2), floats()))
case("resample-antialias", lambda x: ops.image.resize(x, (2, 3), antialias=True),
     ((4, 6, 2), floats()))
case("resample-scale_and_translate", lambda x: ops.image.scale_and_translate(
    x, (3, 5, 8, 2), np.array([1.3, 1.5]), np.array([0.5, -1.0]), (1, 2), "bilinear"),
    ((4, 6, 2), floats()))
for order in (0, 1):
    for mode in ("constant", "nearest", "wrap", "mirror", "reflect"):
        case(f"map_coordinates-{order}-{mode}",
             lambda c, o=order, m=mode: ops.image.map_coordinates(
                 np.arange(20.0, dtype="float32").reshape(4, 5) ** 1.5, c, o, m, fill_value=1.5),
             ((3, 6), floats(-7, 11)))
case("map_coordinates-halves", lambda c: ops.image.map_coordinates(
    np.arange(20, dtype="int32").reshape(4, 5), c, 0, "constant"),
    ((3,), lambda rng, s: np.array([[0.5, 1.5, 2.5], [-0.5, 3.5, 4.5]], "f4")))  # to even


@ops.custom_gradient
def clipped_identity(x):
    def grad(upstream):
        return ops.clip(upstream, -1.0, 1.0)
    return ops.sin(x) * 2.0 + ops.square(x), grad


case("custom_gradient", lambda x: ops.exp(clipped_identity(x)), f())


def inputs_for(rng, spec, batch=BATCH):
    return [make(rng, (batch,) + shape) for shape, make in spec]


def export_and_run(fn, arrays, path, opset=None, fixed_batch=False):
    """Exports `fn` of `arrays` as a model (batch dynamic unless `fixed_batch`); runs it."""
    inputs = [hikeras.Input(a.shape[1:], dtype=str(a.dtype),
                            batch_size=a.shape[0] if fixed_batch else None) for a in arrays]
    outputs = fn(*inputs)
    model = hikeras.Model(inputs if len(inputs) > 1 else inputs[0], outputs)
    model.export(path, format="onnx", opset_version=opset,
                 input_signature=inputs if fixed_batch else None)
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    feeds = {i.name: a for i, a in zip(session.get_inputs(), arrays)}
    return session.run(None, feeds)


def test_every_new_family_op_has_a_case():
    translated = {name for name, fn in TRANSLATIONS.items()
                  if fn.__module__.rsplit(".", 1)[-1] in COVERED_MODULES}
    exercised = {c.op for c in CASES.values()} | {"argpartition"}  # tested on its own
    assert not translated - exercised, sorted(translated - exercised)


@pytest.mark.parametrize("name", sorted(CASES))
def test_op_exports_and_matches_the_eager_op(name, rng, tmp_path):
    c = CASES[name]
    batch = 2 if c.op in FIXED_BATCH else BATCH
    arrays = inputs_for(rng, c.inputs, batch)
    with np.errstate(all="ignore"):  # the special values warn in numpy
        expected = c.fn(*arrays)
        got = export_and_run(c.fn, arrays, tmp_path / "op.onnx",
                             fixed_batch=c.op in FIXED_BATCH)
    expected = expected if isinstance(expected, (tuple, list)) else (expected,)
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        e = ops.convert_to_numpy(e)
        assert g.dtype == e.dtype, (g.dtype, e.dtype)
        if c.op in EXACT:
            np.testing.assert_array_equal(g, e)
        else:
            np.testing.assert_allclose(g, e, rtol=1e-5, atol=1e-5)


def test_argpartition_exports_as_a_valid_partition(rng, tmp_path):
    # Which partition comes back is up to the implementation: check the property.
    x = rng.integers(-4, 5, size=(BATCH, 9)).astype("float32")
    (got,) = export_and_run(lambda t: ops.argpartition(t, 3, axis=-1), [x], tmp_path / "p.onnx")
    assert got.dtype == np.int32
    assert (np.sort(got, axis=-1) == np.arange(9)).all()  # a permutation of each row
    arranged = np.take_along_axis(x, got, axis=-1)
    kth = np.sort(x, axis=-1)[:, 3:4]
    np.testing.assert_array_equal(arranged[:, 3:4], kth)
    assert (arranged[:, :3] <= kth).all() and (arranged[:, 4:] >= kth).all()


def test_bitwise_ops_need_opset_18(tmp_path):
    x = np.array([[1, 2]], "int32")
    with pytest.raises(ValueError, match="op 'bitwise_and'.*opset 18.*opset 17"):
        export_and_run(lambda t: ops.bitwise_and(t, t), [x], tmp_path / "b.onnx", opset=17)
    (got,) = export_and_run(lambda t: ops.bitwise_and(t, 3), [x], tmp_path / "b.onnx", opset=18)
    np.testing.assert_array_equal(got, [[1, 2]])


def test_cumprod_along_a_dynamic_axis(rng, tmp_path):
    inputs = hikeras.Input((None,))
    model = hikeras.Model(inputs, ops.cumprod(inputs, axis=1))
    path = tmp_path / "c.onnx"
    model.export(path, format="onnx")
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    for steps in (1, 5, 8, 13):  # the number of doubling passes follows the length
        x = rng.uniform(-1.5, 1.5, size=(2, steps)).astype("float32")
        (got,) = session.run(None, {session.get_inputs()[0].name: x})
        np.testing.assert_allclose(got, np.cumprod(x, axis=1), rtol=1e-5, atol=1e-6)


def test_segment_max_and_min_need_opset_18(tmp_path):
    data = np.ones((4, 2), "float32")
    with pytest.raises(ValueError, match="op 'segment_reduce'.*opset 18"):
        export_and_run(lambda d: ops.segment_max(d, np.array([0, 1, 1, 0]), num_segments=2),
                       [data], tmp_path / "s.onnx", opset=17, fixed_batch=True)


@pytest.mark.parametrize("opset", [17, 20])
def test_fourier_transforms_at_the_opsets_where_dft_changes(opset, rng, tmp_path):
    real, imag = (rng.normal(size=(2, 6)).astype("float32") for _ in range(2))
    got = export_and_run(lambda r, i: ops.irfft(ops.fft((r, i)), 10), [real, imag],
                         tmp_path / "f.onnx", opset=opset)
    expected = ops.convert_to_numpy(ops.irfft(ops.fft((real, imag)), 10))
    np.testing.assert_allclose(got[0], expected, rtol=1e-5, atol=1e-5)
