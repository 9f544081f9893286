"""Every data file is read by one loader, the C one when PyYAML has it, and the C
loader builds exactly what the pure-Python safe loader builds from our files."""

from __future__ import annotations

import yaml

from bot import yaml_files
from bot.paths import DATA


def test_the_c_loader_is_used_when_pyyaml_has_it() -> None:
    expected = yaml.CSafeLoader if yaml.__with_libyaml__ else yaml.SafeLoader
    assert yaml_files.LOADER is expected


def test_every_data_file_reads_the_same_with_either_loader() -> None:
    files = sorted(DATA.rglob("*.yaml"))
    assert len(files) > 10
    for path in files:
        text = path.read_text(encoding="utf-8")
        fast, slow = yaml_files.read(path), yaml_files.parse(text, yaml.SafeLoader)
        assert repr(fast) == repr(slow), path  # repr: the same types too (1 is not 1.0)


def test_the_loader_stays_safe() -> None:
    try:
        yaml_files.parse("!!python/object/apply:os.system ['true']")
    except yaml.YAMLError:
        return
    raise AssertionError("a safe loader refuses python tags")
