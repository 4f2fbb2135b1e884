"""The new ops inside functional models: called on `Input`s whose batch size is
unknown, they build a graph whose predictions equal the eager results; bad
arguments are rejected with errors that name the op and the values."""

import numpy as np
import pytest

import hikeras
from hikeras import ops

GRAPHS = {
    "top_k": ((6,), lambda x: ops.top_k(x, 3)[0]),
    "logsumexp": ((4, 5), lambda x: ops.logsumexp(x, axis=-1)),
    "erf": ((5,), ops.erf),
    "rfft": ((8,), lambda x: ops.rfft(x)[1]),
    "stft": ((32,), lambda x: ops.stft(x, 8, 4, 8)[0]),
    "extract_sequences": ((10,), lambda x: ops.extract_sequences(x, 4, 2)),
    "inv": ((3, 3), lambda x: ops.linalg.inv(x + 3.0 * np.eye(3, dtype="float32"))),
    "norm": ((3, 4), lambda x: ops.linalg.norm(x, axis=-1)),
    "celu": ((5,), ops.nn.celu),
    "sparsemax": ((5,), ops.nn.sparsemax),
    "conv": ((6, 6, 2), lambda x: ops.nn.conv(x, np.ones((3, 3, 2, 4), "float32"))),
    "adaptive_average_pool": ((6, 5, 2), lambda x: ops.nn.adaptive_average_pool(x, 2)),
    "space_to_depth": ((4, 4, 2), lambda x: ops.nn.space_to_depth(x, 2)),
    "rms_normalization": ((3, 4), ops.nn.rms_normalization),
    "resize": ((8, 6, 3), lambda x: ops.image.resize(x, (4, 5), interpolation="bicubic")),
    "extract_patches": ((6, 6, 1), lambda x: ops.image.extract_patches(x, 2)),
    "rgb_to_hsv": ((4, 4, 3), ops.image.rgb_to_hsv),
    "gaussian_blur": ((5, 5, 2), ops.image.gaussian_blur),
}


@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_op_in_a_functional_model_matches_eager(name, rng):
    shape, fn = GRAPHS[name]
    inputs = hikeras.Input(shape=shape)
    outputs = fn(inputs)
    assert outputs.shape[0] is None
    model = hikeras.Model(inputs, outputs)
    data = rng.uniform(0.1, 0.9, size=(3,) + shape).astype("float32")
    np.testing.assert_allclose(model.predict(data, verbose=0), fn(data), rtol=1e-5, atol=1e-6)


BAD_CALLS = [
    (lambda: ops.top_k(np.ones((2, 3)), 5), "top_k.*x.shape=\\(2, 3\\), k=5"),
    (lambda: ops.linalg.inv(np.ones((2, 3))), "inv needs square matrices.*x.shape=\\(2, 3\\)"),
    (lambda: ops.linalg.qr(np.ones((3, 3)), mode="full"), "qr: mode.*mode='full'"),
    (lambda: ops.linalg.norm(np.ones((2, 3)), axis=4), "norm.*axis=4"),
    (lambda: ops.stft(np.ones(20, "float32"), 8, 4, 4), "fft_length must be at least"),
    (lambda: ops.extract_sequences(np.ones(3), 5, 1), "extract_sequences.*sequence_length=5"),
    (lambda: ops.nn.glu(np.ones((2, 3))), "glu needs an even size.*x.shape=\\(2, 3\\)"),
    (lambda: ops.nn.conv(np.ones((1, 4, 4, 1)), np.ones((3, 1, 1))), "conv needs.*kernel.shape"),
    (lambda: ops.nn.normalize(np.ones(3), order=0), "order must be an int >= 1.*order=0"),
    (lambda: ops.image.resize(np.ones((4, 4, 1)), (2, 2), interpolation="cubic"),
     "resize: interpolation.*'cubic'"),
    (lambda: ops.image.pad_images(np.ones((4, 4, 1)), 1), "pad_images needs exactly two"),
    (lambda: ops.image.map_coordinates(np.ones((3, 3)), np.ones((1, 4)), 1),
     "one row of coordinates per input axis"),
    (lambda: ops.segment_sum(np.ones((3, 2)), np.array([0, 1])), "segment_sum needs one segment id"),
]


@pytest.mark.parametrize("call,message", BAD_CALLS, ids=[m.split(" ")[0] for _, m in BAD_CALLS])
def test_bad_arguments_name_the_op_and_values(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_jvp_matches_the_jacobian_times_the_tangent():
    x = np.array([0.5, -1.0, 2.0])
    tangent = np.array([1.0, 0.5, -2.0])
    outputs, tangents = ops.linalg.jvp(lambda a: ops.multiply(ops.exp(a), a), (x,), (tangent,))
    np.testing.assert_allclose(outputs, np.exp(x) * x, rtol=1e-12)
    np.testing.assert_allclose(tangents, (np.exp(x) * x + np.exp(x)) * tangent, rtol=1e-10)


def test_jvp_with_aux_returns_it():
    primal, tangent, aux = ops.linalg.jvp(lambda a: (ops.square(a), "aux"), (np.array([3.0]),),
                                          (np.array([1.0]),), has_aux=True)
    assert aux == "aux" and tangent.tolist() == [6.0] and primal.tolist() == [9.0]


def test_sparsemax_rows_are_on_the_simplex(rng):
    out = ops.nn.sparsemax(rng.standard_normal((20, 7)) * 3)
    np.testing.assert_allclose(out.sum(axis=-1), 1.0, rtol=1e-12)
    assert (out >= 0).all()


def test_elastic_transform_is_reproducible_and_identity_without_displacement(rng):
    images = rng.uniform(size=(2, 9, 8, 3)).astype("float32")
    first = ops.image.elastic_transform(images, seed=3)
    np.testing.assert_array_equal(first, ops.image.elastic_transform(images, seed=3))
    assert not np.allclose(first, images)
    still = ops.image.elastic_transform(images, alpha=0.0, seed=3)
    np.testing.assert_allclose(still, images, atol=1e-6)


def test_polar_and_complex_views():
    z = ops.nn.polar(np.array([2.0, 1.0]), np.array([0.0, np.pi / 2]))
    np.testing.assert_allclose(z, [2.0, 1j], atol=1e-12)
    np.testing.assert_array_equal(ops.view_as_complex(ops.view_as_real(z)), z)


def _attention_reference(q, k, v, bias, cap, causal):
    logits = np.einsum("btnh,bsnh->bnts", q, k) / np.sqrt(q.shape[-1]) + bias
    logits = cap * np.tanh(logits / cap)
    if causal:
        logits = np.where(np.tril(np.ones(logits.shape[-2:], bool)), logits, -np.inf)
    weights = np.exp(logits - logits.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    return np.einsum("bnts,bsnh->btnh", weights, v)


def test_attention_with_bias_and_soft_cap_matches_numpy(rng):
    q, k, v = (rng.standard_normal((2, 4, 3, 5)) for _ in range(3))
    bias = rng.standard_normal((1, 3, 4, 4))
    out = ops.nn.dot_product_attention(q, k, v, bias=bias, is_causal=True,
                                       attn_logits_soft_cap=2.0)
    np.testing.assert_allclose(out, _attention_reference(q, k, v, bias, 2.0, True), rtol=1e-10)


UNKNOWN = [
    ("erf", (None, None), ops.erf, (None, None)),
    ("erfinv", (None,), ops.erfinv, (None,)),
    ("logsumexp", (None, None, 4), lambda x: ops.logsumexp(x, axis=1), (None, 4)),
    ("rfft", (None, None), lambda x: ops.rfft(x)[0], (None, None)),
    ("rfft_length", (None, None), lambda x: ops.rfft(x, 8)[0], (None, 5)),
    ("extract_sequences", (None, None), lambda x: ops.extract_sequences(x, 4, 2),
     (None, None, 4)),
    ("stft", (None, None), lambda x: ops.stft(x, 8, 4, 8)[0], (None, None, 5)),
    ("norm", (None, None, 3), lambda x: ops.linalg.norm(x, axis=-1), (None, None)),
    ("det", (None, 3, 3), ops.linalg.det, (None,)),
    ("celu", (None, None), ops.nn.celu, (None, None)),
    ("sparsemax", (None, None), ops.nn.sparsemax, (None, None)),
    ("conv", (None, None, None, 2), lambda x: ops.nn.conv(x, np.ones((3, 3, 2, 4), "float32")),
     (None, None, None, 4)),
    ("moments", (None, None, 3), lambda x: ops.nn.moments(x, (0, 1))[1], (3,)),
    ("rms_normalization", (None, None), ops.nn.rms_normalization, (None, None)),
    ("resize", (None, None, None, 3), lambda x: ops.image.resize(x, (4, 5)), (None, 4, 5, 3)),
    ("extract_patches", (None, None, None, 2), lambda x: ops.image.extract_patches(x, 2),
     (None, None, None, 8)),
    ("rgb_to_hsv", (None, None, None, 3), ops.image.rgb_to_hsv, (None, None, None, 3)),
    ("ssim", (None, None, None, 3), lambda x: ops.image.ssim(x, x), (None,)),
]


@pytest.mark.parametrize("name,shape,fn,expected", UNKNOWN, ids=[u[0] for u in UNKNOWN])
def test_shapes_with_every_unknown_dimension(name, shape, fn, expected):
    from hikeras.backend import SymbolicTensor

    out = fn(SymbolicTensor(shape, "float32"))
    assert out.shape == expected and out.dtype == np.float32
