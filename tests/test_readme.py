"""The README's test command is the one CI runs, and the app's defaults protect it."""

import pathlib
import re
import tomllib

ROOT = pathlib.Path(__file__).resolve().parent.parent


def bash_blocks(text: str) -> list[str]:
    return [block.strip() for block in re.findall(r"```bash\n(.*?)```", text, flags=re.S)]


def test_readme_gives_two_commands_and_ci_runs_the_test_one():
    blocks = bash_blocks((ROOT / "README.md").read_text(encoding="utf-8"))
    start, test = blocks[0], blocks[1]
    assert "streamlit run app.py" in start and "pip install" in start
    assert "pytest" in test and "pip install" in test
    ci_lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert test in ci_lines


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
