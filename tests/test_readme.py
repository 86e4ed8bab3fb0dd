"""The README's two commands are the ones CI runs, and the app's defaults protect it."""

import pathlib
import re
import subprocess
import tomllib

ROOT = pathlib.Path(__file__).resolve().parent.parent


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


def test_readme_gives_two_commands_in_a_virtual_environment():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Two commands", 1)[1].split("\n## ", 1)[0]
    start, test = bash_blocks(section)[:2]
    # PEP 668: never pip into the system's Python; the tests run in the same venv
    assert start.startswith("python3 -m venv .venv && .venv/bin/python -m pip install . && ")
    assert start.endswith(".venv/bin/python -m streamlit run app.py")
    assert test.startswith(".venv/bin/python -m pip install -e ")
    assert test.endswith(".venv/bin/python -m pytest")
    assert "pip install" not in section.replace(".venv/bin/python -m pip install", "")


def test_ci_runs_the_readmes_two_commands_as_written():
    section = (ROOT / "README.md").read_text(encoding="utf-8").split("## Two commands", 1)[1]
    assert [ci_reads(0), ci_reads(1)] == bash_blocks(section)[:2]
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    for line in ("START=$(readme_command 0)", "TEST=$(readme_command 1)", 'bash -c "$TEST"'):
        assert line in script.splitlines()
    assert 'setsid bash -c "$START"' in script and "/_stcore/health" in script
    assert "apt_install redis-server" in script and "apt_install python3-venv" in script


def test_engine_example_runs_as_written():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("### Use the engine in your own code", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, flags=re.S).group(1)
    namespace: dict = {}
    exec(compile(code, "README.md", "exec"), namespace)
    assert namespace["search"].best_params_ == {"kernelpca__gamma": 10.0}
    assert namespace["X_back"].shape == namespace["X"].shape
    assert namespace["Z"].shape == (200, 2)


def test_streamlit_config_protects_a_deployment():
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
    assert config["server"]["enableXsrfProtection"] is True
    assert 0 < config["server"]["maxUploadSize"] <= 10
    assert config["browser"]["gatherUsageStats"] is False
    assert config["client"]["showErrorDetails"] == "none"
    assert config["runner"]["postScriptGC"] is False
