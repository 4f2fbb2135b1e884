"""The shape of the import graph: floors in `hikeras/`, and a backend that stands alone.

The graph is read from the source with `ast` (nothing is imported), counting
every import wherever it sits: at module level, inside `if`/`try`, inside
functions. `from pkg import name` is an edge to the module `pkg.name` when that
is a module, else to `pkg` (its `__init__`). `hikeras.backend` is the
`backend/` directory, outside `hikeras/`: it is not a node here.

The floors (docs/architecture.md): `hikeras.serialization` at the bottom,
imported by every package; the families, `models/` and `trainers/` above it;
the file formats of `hikeras.saving` on top. `models/` reaches up to the
formats only from inside `Model`'s saving methods and its `load_model`-style
aliases (Keras's tie between models and their saving), and that tie is the
largest cycle left.
"""

import ast
import collections
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAX_CYCLE = 6

Import = collections.namedtuple("Import", "name line in_function")

# Imports of hikeras modules that run inside a function, and why each may. Any other
# is an import placed to dodge a cycle: move what is needed down, pass it in as an
# argument, or let the higher module register it in a table.
DEFERRED_IMPORTS = {
    # Keras's tie between models and their saving: the formats sit above `models/`.
    ("hikeras.models", "hikeras.saving.saving_api"): "load_model/save_model aliases",
    ("hikeras.models", "hikeras.saving.model_config"): "the model_from_json alias",
    ("hikeras.models.model_saving", "hikeras.saving.saving_api"): "Model.save & co.",
    ("hikeras.models.model_saving", "hikeras.saving.model_config"): "Model.to_json",
    ("hikeras.models.model_saving", "hikeras.saving.training_config"): "compile configs",
    ("hikeras.layers.preprocessing.feature_space.feature_space", "hikeras.saving.saving_api"):
        "FeatureSpace.save, as Model.save",
    # Model.export: the exporters trace models, so they sit above `models/` (and load onnx).
    ("hikeras.models.model_saving", "hikeras.export"): "Model.export",
    # `import hikeras` does not import h5py: the entry points that use it load on first use.
    ("hikeras.saving", "hikeras.saving.saving_api"): "h5py",
    ("hikeras.saving", "hikeras.saving.file_editor"): "h5py (KerasFileEditor, on first use)",
    ("hikeras.callbacks.backup_and_restore", "hikeras.saving.h5_open"): "h5py",
    # FeatureSpace is built from the preprocessing layers, which import hikeras.utils.
    ("hikeras.utils", "hikeras.layers.preprocessing.feature_space.feature_space"):
        "utils.FeatureSpace",
    # Resuming checks the backup's values as every loader does; saving sits above callbacks.
    ("hikeras.callbacks.backup_and_restore", "hikeras.saving.value_checks"): "load checks",
    ("hikeras.callbacks._training_state", "hikeras.saving.checksums"): "backup checksums",
}


def module_files(directory, package):
    """`{dotted module name: path}` for every `.py` file under `directory`."""
    modules = {}
    for path in sorted(directory.rglob("*.py")):
        parts = [package, *path.relative_to(directory).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules[".".join(parts)] = path
    return modules


def imports(module, path):
    """Every import in `module`'s source, as `Import`s.

    `name` is the dotted name imported (`from a import b` gives `a.b`; relative
    imports are resolved against `module`'s package); `in_function` says whether
    the import runs only when a function does.
    """
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    tree = ast.parse(path.read_text(), filename=str(path))
    yield from _imports_below(tree, package, in_function=False)


def _imports_below(node, package, in_function):
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.Import):
            for alias in child.names:
                yield Import(alias.name, child.lineno, in_function)
        elif isinstance(child, ast.ImportFrom):
            source = child.module
            if child.level:
                parts = package.split(".")
                base = parts[: len(parts) - (child.level - 1)]
                source = ".".join(base + ([child.module] if child.module else []))
            for alias in child.names:
                name = source if alias.name == "*" else f"{source}.{alias.name}"
                yield Import(name, child.lineno, in_function)
        else:
            inside = in_function or isinstance(
                child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            yield from _imports_below(child, package, inside)


def target(name, modules, external=("hikeras.backend",)):
    """The module in `modules` that importing `name` depends on, or None."""
    if any(name == e or name.startswith(e + ".") for e in external):
        return None
    if name in modules:
        return name
    parent = name.rpartition(".")[0]  # `from pkg import function`: the edge is to pkg
    return parent if parent in modules else None


def import_graph(modules, external=("hikeras.backend",)):
    """`{module: set of modules in `modules` it imports}`, without self-edges."""
    graph = {}
    for module, path in modules.items():
        edges = {target(i.name, modules, external) for i in imports(module, path)}
        graph[module] = edges - {None, module}
    return graph


def strongly_connected_components(graph):
    """Tarjan's algorithm, iterative (the graph is deep enough to trouble recursion)."""
    index, low, on_stack, stack, components = {}, {}, set(), [], []
    for root in sorted(graph):
        if root in index:
            continue
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        work = [(root, iter(sorted(graph[root])))]
        while work:
            node, successors = work[-1]
            for successor in successors:
                if successor not in index:
                    index[successor] = low[successor] = len(index)
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(sorted(graph[successor]))))
                    break
                if successor in on_stack:
                    low[node] = min(low[node], index[successor])
            else:  # every successor of `node` done
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == node:
                            break
                    components.append(component)
    return components


def cycles(graph):
    """The import cycles (components of more than one module), largest first."""
    found = [sorted(c) for c in strongly_connected_components(graph) if len(c) > 1]
    return sorted(found, key=lambda c: (-len(c), c))


def hikeras_imports():
    """`(module, path, Import, imported module)` for every import of a `hikeras/` module."""
    modules = module_files(ROOT / "hikeras", "hikeras")
    for module, path in modules.items():
        for imp in imports(module, path):
            imported = target(imp.name, modules)
            if imported is not None and imported != module:
                yield module, path, imp, imported


def _where(path, imp):
    return f"{path.relative_to(ROOT)}:{imp.line}: imports {imp.name}"


# -------------------------------------------------------------- the graph code itself
def test_the_graph_code_finds_cycles():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": {"e"}, "e": {"d"}, "f": {"a"}}
    assert cycles(graph) == [["a", "b", "c"], ["d", "e"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_graph_code_resolves_imports(tmp_path):
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("from . import a\n")
    (package / "a.py").write_text("from .sub import helper, b\n"
                                  "def f():\n    from . import c\n")
    (package / "c.py").write_text("import pkg.sub.b\nfrom pkg.backend import x\n")
    (package / "sub" / "__init__.py").write_text("def helper():\n    pass\n")
    (package / "sub" / "b.py").write_text("from .. import a\nfrom ..sub import helper\n")
    modules = module_files(package, "pkg")
    graph = import_graph(modules, external=("pkg.backend",))
    assert graph == {
        "pkg": {"pkg.a"},
        "pkg.a": {"pkg.sub", "pkg.sub.b", "pkg.c"},
        "pkg.c": {"pkg.sub.b"},
        "pkg.sub": set(),
        "pkg.sub.b": {"pkg.a", "pkg.sub"},
    }
    assert cycles(graph) == [["pkg.a", "pkg.c", "pkg.sub.b"]]
    assert [(i.name, i.in_function) for i in imports("pkg.a", modules["pkg.a"])] == [
        ("pkg.sub.helper", False), ("pkg.sub.b", False), ("pkg.c", True)]


# ------------------------------------------------------------------ the rules
def test_no_import_cycle_in_hikeras_is_larger_than_six_modules():
    found = cycles(import_graph(module_files(ROOT / "hikeras", "hikeras")))
    too_large = [c for c in found if len(c) > MAX_CYCLE]
    assert not too_large, (
        f"Import cycles larger than {MAX_CYCLE} modules (each line one cycle): "
        + "".join(f"\n  {len(c)}: {', '.join(c)}" for c in too_large)
        + "\nMove what the lower module needs down (e.g. into hikeras.serialization), "
        "pass it in as an argument, or let the higher module register it in a table."
    )


def test_the_backend_imports_nothing_from_hikeras_outside_itself():
    modules = module_files(ROOT / "backend", "hikeras.backend")
    offending = [
        _where(path, imp)
        for module, path in modules.items()
        for imp in imports(module, path)
        if (imp.name == "hikeras" or imp.name.startswith("hikeras."))
        and not (imp.name == "hikeras.backend" or imp.name.startswith("hikeras.backend."))
    ]
    assert not offending, ("backend/ (installed as hikeras.backend) must not import the "
                           "Keras surface above it:\n  " + "\n  ".join(offending))


def test_the_ground_floor_imports_nothing_above_it():
    offending = [_where(path, imp) for module, path, imp, imported in hikeras_imports()
                 if module.startswith("hikeras.serialization")
                 and not imported.startswith("hikeras.serialization")]
    assert not offending, ("hikeras.serialization is imported by every package, so it may "
                           "import only itself (and hikeras.backend):\n  "
                           + "\n  ".join(offending))


def test_hikeras_io_stands_alone():
    offending = [_where(path, imp) for module, path, imp, imported in hikeras_imports()
                 if module.startswith("hikeras.io") and not imported.startswith("hikeras.io")]
    assert not offending, ("hikeras.io (TFRecord files and Examples) is a ground-floor "
                           "package: it may import only itself:\n  " + "\n  ".join(offending))


def test_nothing_below_the_file_formats_imports_them_at_module_level():
    offending = [
        _where(path, imp) for module, path, imp, imported in hikeras_imports()
        if not imp.in_function and imported.startswith("hikeras.saving")
        and module != "hikeras" and not module.startswith("hikeras.saving")
    ]
    assert not offending, (
        "hikeras.saving (the file formats) sits above models/ and every family: "
        "what a lower module needs from it belongs lower down (hikeras.serialization, "
        "hikeras.utils):\n  " + "\n  ".join(offending))


def test_imports_inside_functions_are_only_the_documented_ones():
    offending = [
        _where(path, imp) for module, path, imp, imported in hikeras_imports()
        if imp.in_function and (module, imported) not in DEFERRED_IMPORTS
    ]
    assert not offending, (
        "Imports of hikeras modules inside functions (each listed in DEFERRED_IMPORTS "
        "with its reason, or moved to module level):\n  " + "\n  ".join(offending))
