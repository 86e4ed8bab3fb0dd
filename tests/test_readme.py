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


def test_streamlit_config_protects_a_deployment():
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
    assert config["server"]["enableXsrfProtection"] is True
    assert 0 < config["server"]["maxUploadSize"] <= 10
    assert config["browser"]["gatherUsageStats"] is False
    assert config["client"]["showErrorDetails"] == "none"
    assert config["runner"]["postScriptGC"] is False
