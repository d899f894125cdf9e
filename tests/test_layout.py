"""Packaging and layout (issue 18, section 5): ``import meeple`` works from any directory, and
the command line is a package whose command modules never import one another; the playtest lab
is four packages that import only downwards (issue 21)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import meeple
import meeple.cli

CLI_DIR = Path(meeple.cli.__file__).parent


def test_import_meeple_from_the_parent_of_a_checkout_named_meeple(tmp_path: Path) -> None:
    # A checkout folder called "meeple" in the current directory used to shadow the installed
    # package (Python found it first as a namespace package and `meeple.engine` failed).
    checkout = tmp_path / "meeple"
    (checkout / "src").mkdir(parents=True)
    (checkout / "tests").mkdir()
    (checkout / "README.md").write_text("a checkout\n")
    done = subprocess.run(
        [sys.executable, "-c", "import meeple, meeple.engine.game; print(meeple.__file__)"],
        cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert Path(done.stdout.strip()) == Path(meeple.__file__)


def test_the_package_lives_under_src() -> None:
    assert Path(meeple.__file__).parent.parent.name == "src"


def _cli_imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            if node.module == "meeple.cli":
                names.update(f"meeple.cli.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
    return {n for n in names if n.startswith("meeple.cli")}


def test_cli_command_modules_import_only_the_common_module() -> None:
    modules = sorted(p for p in CLI_DIR.glob("*.py") if p.stem not in ("__init__", "__main__"))
    assert {p.stem for p in modules} >= {"common", "games", "playtest", "play", "replay", "lab"}
    for path in modules:
        allowed = set() if path.stem == "common" else {"meeple.cli.common"}
        assert _cli_imports(path) <= allowed, f"{path.name} imports {_cli_imports(path) - allowed}"


def test_nothing_outside_the_cli_imports_it() -> None:
    root = Path(meeple.__file__).parent
    for path in root.rglob("*.py"):
        if CLI_DIR in path.parents:
            continue
        text = path.read_text()
        assert "meeple.cli" not in text, path


def test_ci_runs_exactly_the_readme_test_command() -> None:
    # The README's first screen promises that its test command is what CI runs (.ci/run).
    root = Path(__file__).resolve().parent.parent
    readme = (root / "README.md").read_text()
    start = readme.index("Run the tests")
    block = readme[start:].split("```bash\n", 1)[1].split("```", 1)[0].strip()
    ci = [line.strip() for line in (root / ".ci" / "run").read_text().splitlines()]
    assert block in ci, f"README test command {block!r} is not a line of .ci/run"


# ------------------------------------------------------------------------- the lab (issue 21)
LAB_DIR = Path(meeple.__file__).parent / "lab"
LAB_PACKAGES = ("run", "analysis", "experiments", "pages")
#: What each lab package may not import: analysis is plain data in and out; pages render the
#: dicts analysis and experiments make, and never play a game; run plays and stores games; the
#: experiments (ladder, compare, sweep) plan runs and analyse them but write no page.
LAB_FORBIDDEN = {
    "analysis": {"run", "experiments", "pages"},
    "pages": {"run", "experiments"},
    "run": {"experiments", "pages"},
    "experiments": {"pages"},
}
LAB_MAX_LINES = 600


def _imports(path: Path) -> set[str]:
    """Every module ``path`` imports, at any depth (lazy imports in functions too), with
    ``from PACKAGE import NAME`` counted as ``PACKAGE.NAME`` as well."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path}: relative import"
            names.add(node.module or "")
            names.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
    return names


def _lab_packages_imported(path: Path) -> set[str]:
    return {name.split(".")[2] for name in _imports(path)
            if name.startswith("meeple.lab.") and name.split(".")[2] in LAB_PACKAGES}


def test_the_lab_is_four_packages_with_nothing_left_at_the_old_paths() -> None:
    assert sorted(p.name for p in LAB_DIR.glob("*.py")) == ["__init__.py"]
    assert sorted(p.name for p in LAB_DIR.iterdir() if p.is_dir() and p.name != "__pycache__"
                  ) == sorted(LAB_PACKAGES)
    for package in LAB_PACKAGES:
        init = LAB_DIR / package / "__init__.py"
        doc = ast.get_docstring(ast.parse(init.read_text())) or ""
        for module in (LAB_DIR / package).glob("*.py"):
            if module.stem != "__init__":
                assert f"meeple.lab.{package}.{module.stem}`" in doc, \
                    f"{init} does not list {module.stem}"


@pytest.mark.parametrize("package", LAB_PACKAGES)
def test_lab_packages_import_only_downwards(package: str) -> None:
    for path in sorted((LAB_DIR / package).glob("*.py")):
        wrong = _lab_packages_imported(path) & LAB_FORBIDDEN[package]
        assert not wrong, f"{path.relative_to(LAB_DIR)} imports meeple.lab.{sorted(wrong)}"


def test_run_takes_only_the_trace_from_analysis() -> None:
    for path in sorted((LAB_DIR / "run").glob("*.py")):
        taken = {n for n in _imports(path) if n.startswith("meeple.lab.analysis")}
        assert taken <= {"meeple.lab.analysis.trace", "meeple.lab.analysis.trace.Trace"}, \
            f"{path.name} imports {sorted(taken)}"


def test_engine_games_and_bots_never_import_the_lab() -> None:
    root = Path(meeple.__file__).parent
    for part in ("engine", "games", "bots"):
        for path in sorted((root / part).rglob("*.py")):
            wrong = {n for n in _imports(path) if n == "meeple.lab" or n.startswith("meeple.lab.")}
            assert not wrong, f"{path.relative_to(root)} imports {sorted(wrong)}"


def test_no_lab_module_is_too_long() -> None:
    for path in sorted(LAB_DIR.rglob("*.py")):
        lines = len(path.read_text().splitlines())
        assert lines <= LAB_MAX_LINES, f"{path.relative_to(LAB_DIR)}: {lines} lines"
