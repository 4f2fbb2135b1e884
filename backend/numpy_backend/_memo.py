"""A small cache for the Python side of kernels: geometry by shapes and attributes.

A one-sample call of a convolution or pooling kernel takes tens of
microseconds, and validating its geometry (window sizes, strides, padding,
output shape) costs 5-15 microseconds more. It depends only on the input
shapes and the op's attributes, which a model repeats call after call, so it
is computed once per distinct key.
"""

# Distinct keys kept at most: a model has a few per layer (the last, smaller
# batch of a dataset adds one); past this the cache starts again.
MAX_ENTRIES = 256


def memoized(compute):
    """`compute(*key)`, remembered per key; a key with an unhashable part (a list of
    strides, say) is computed every time. `compute` must not raise for a key
    it would later answer differently, and callers must not modify what it returns."""
    answers = {}

    def lookup(*key):
        try:
            return answers[key]
        except KeyError:
            pass
        except TypeError:   # unhashable: nothing to remember it by
            return compute(*key)
        answer = compute(*key)
        if len(answers) >= MAX_ENTRIES:
            answers.clear()
        answers[key] = answer
        return answer

    lookup.__doc__ = compute.__doc__
    return lookup
