"""The README and the documentation: facts, not prose.

The README's two commands are the ones CI runs; its links and the pages' links lead
somewhere; every page is in the site's navigation; the code the pages show runs; every
number the pages take from the code (``docs/macros.py``) resolves.  No test here reads a
sentence: the documentation's words can change freely.
"""

import importlib.util
import pathlib
import re
import subprocess
import tomllib

import jinja2
import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
README = ROOT / "README.md"
PAGES = sorted(DOCS.rglob("*.md"))
LINK = re.compile(r"\]\(([^)\s]+)\)")


def docs_module(name: str):
    """``docs/<name>.py``, the code the site's build runs (not a package: loaded by path)."""
    spec = importlib.util.spec_from_file_location(name, DOCS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


PICTURES = docs_module("hooks").PICTURES  # the repository's pictures the site serves


def bash_blocks(text: str) -> list[str]:
    return [block.strip() for block in re.findall(r"```bash\n(.*?)```", text, flags=re.S)]


def ci_reads(index: int) -> str:
    """The command ``.ci/run`` reads from the README as its ``index``-th (its own function)."""
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    function = re.search(r"^readme_command\(\) \{\n.*?^\}\n", script, flags=re.S | re.M)
    answer = subprocess.run(
        ["bash", "-c", f"{function.group(0)}readme_command {index}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return answer.stdout.strip()


def two_commands() -> list[str]:
    section = README.read_text(encoding="utf-8").split("## Two commands", 1)[1]
    return bash_blocks(section.split("\n## ", 1)[0])


def test_readme_is_a_screen_or_two():
    assert len(README.read_text(encoding="utf-8").splitlines()) <= 150


def test_readme_gives_two_commands_in_a_virtual_environment():
    start, test = two_commands()
    # PEP 668: never pip into the system's Python; the tests run in the same venv
    assert start.startswith("python3 -m venv .venv && .venv/bin/python -m pip install . && ")
    assert start.endswith(".venv/bin/python -m streamlit run app.py")
    assert test.startswith(".venv/bin/python -m pip install -e ")
    assert test.endswith(".venv/bin/python -m pytest")


def test_ci_runs_the_readmes_two_commands_as_written():
    assert [ci_reads(0), ci_reads(1)] == two_commands()
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    for line in ("START=$(readme_command 0)", "TEST=$(readme_command 1)", 'bash -c "$TEST"'):
        assert line in script.splitlines()
    assert 'setsid bash -c "$START"' in script and "/_stcore/health" in script
    assert "apt_install redis-server" in script and "apt_install python3-venv" in script


def test_ci_waits_for_the_line_the_app_prints_when_ready():
    """CI knows the app is up by the line ``kpca_ui/warmup.py`` prints (the README quotes it)."""
    ready = re.search(r'print\(f"(.*?) \{url\}', (ROOT / "kpca_ui" / "warmup.py").read_text())
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert ready and f'grep -q "{ready.group(1)}" app-start.log' in script
    assert ready.group(1) in README.read_text(encoding="utf-8")


def test_ci_builds_the_documentation_strictly_after_the_tests():
    """From the project's own files, into the README's environment, links checked."""
    lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    tests = lines.index('bash -c "$TEST"')
    install = next(i for i, line in enumerate(lines) if '-e ".[docs]"' in line)
    build = next(i for i, line in enumerate(lines) if "-m mkdocs build --strict" in line)
    assert tests < install < build
    assert lines[install].lstrip().startswith(".venv/bin/python -m pip install")
    assert lines[build].lstrip().startswith(".venv/bin/python -m mkdocs build --strict")
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    docs = " ".join(extras["optional-dependencies"]["docs"])
    for package in ("mkdocs", "mkdocs-material", "mkdocstrings[python]", "mkdocs-macros-plugin"):
        assert package in docs


@pytest.mark.parametrize("page", [README, *PAGES], ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_lead_to_files(page):
    """On GitHub as in the site: a link to a file of the repository names one that exists."""
    for target in LINK.findall(page.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue
        path = (page.parent / target.split("#", 1)[0]).resolve()
        served = PICTURES.get(str(path.relative_to(DOCS)) if path.is_relative_to(DOCS) else "")
        assert path.exists() or (served and served.exists()), f"{page.name} links to {target}"


def test_every_page_is_in_the_navigation():
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    nav = config.split("\nnav:\n", 1)[1].split("\n\n", 1)[0]
    listed = set(re.findall(r":\s*(\S+\.md)\s*$", nav, flags=re.M))
    assert listed == {str(page.relative_to(DOCS)) for page in PAGES}


@pytest.fixture(scope="module")
def variables() -> dict:
    """What ``docs/macros.py`` gives the pages, computed from the code as the site's build does."""

    class Env:  # the part of mkdocs-macros' environment that define_env uses
        def __init__(self) -> None:
            self.variables: dict = {}

        def macro(self, function):
            self.variables[function.__name__] = function
            return function

    env = Env()
    docs_module("macros").define_env(env)
    return env.variables


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(DOCS)))
def test_every_number_a_page_takes_from_the_code_resolves(page, variables):
    """Each ``{{ … }}`` of a page is a value of the code (or a bench table), none left undefined."""
    template = jinja2.Environment(undefined=jinja2.StrictUndefined)
    rendered = template.from_string(page.read_text(encoding="utf-8")).render(**variables)
    assert "{{" not in rendered and "}}" not in rendered


def test_the_pages_python_runs_as_written():
    """Every Python example of the README and the pages runs; the engine's does what it says."""
    blocks = [
        (page, code)
        for page in [README, *PAGES]
        for code in re.findall(r"```python\n(.*?)```", page.read_text(encoding="utf-8"), re.S)
    ]
    assert blocks
    for page, code in blocks:
        namespace: dict = {}
        exec(compile(code, str(page), "exec"), namespace)
        if "search" in namespace:
            assert namespace["search"].best_params_ == {"kernelpca__gamma": 10.0}
            assert namespace["X_back"].shape == namespace["X"].shape


def test_streamlit_config_protects_a_deployment():
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
    assert config["server"]["enableXsrfProtection"] is True
    assert 0 < config["server"]["maxUploadSize"] <= 10
    assert config["browser"]["gatherUsageStats"] is False
    assert config["client"]["showErrorDetails"] == "none"
    assert config["runner"]["postScriptGC"] is False


def test_the_lesson_links_the_pages_show_are_read_by_the_lesson_page():
    """A ``/lesson?…`` link in the README, the pages or the lesson files' format names only
    the Lesson view's settings (they once said ``lesson=``, which the page does not read)."""
    from kpca_ui.views.lesson import SETTINGS

    links = [
        link
        for page in [README, *PAGES, *(ROOT / "assets" / "lessons").glob("*.toml")]
        for link in re.findall(r"/lesson\?([^`\s)]+)", page.read_text(encoding="utf-8"))
    ]
    assert links
    for link in links:
        for pair in link.split("&"):
            assert pair.split("=", 1)[0] in SETTINGS.entries, link
