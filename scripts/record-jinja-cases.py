#!/usr/bin/env python3
"""Record what Python's Jinja2 renders for each differential case.

Reads test/fixtures/jinja-cases/cases.json (a list of {name, template, context})
and writes expected.json ({name: {"output": text} or {"error": message}}).
Templates render in a sandboxed Jinja2 environment with the extensions dbt
enables (do, loopcontrols), plus a small stand-in for the parts of dbt's
context the cases use (modules, tojson, fromjson, toyaml, fromyaml, zip, set,
local_md5). Usage: record-jinja-cases.py [CASES [OUT]].
"""
import datetime
import hashlib
import itertools
import json
import re
import sys
import zoneinfo
from pathlib import Path

import jinja2
import yaml
from jinja2.sandbox import SandboxedEnvironment

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "test" / "fixtures" / "jinja-cases" / "cases.json"
OUT = ROOT / "test" / "fixtures" / "jinja-cases" / "expected.json"


class Zone(datetime.tzinfo):
    """The part of a pytz timezone the cases use, over zoneinfo (pytz may not be installed)."""

    def __init__(self, name):
        self.zone = name
        self._info = zoneinfo.ZoneInfo(name)

    def utcoffset(self, dt):
        return self._info.utcoffset(dt.replace(tzinfo=None))

    def dst(self, dt):
        return self._info.dst(dt.replace(tzinfo=None))

    def tzname(self, dt):
        return self._info.tzname(dt.replace(tzinfo=None))

    def localize(self, dt):
        return dt.replace(tzinfo=self)

    def fromutc(self, dt):
        return (dt.replace(tzinfo=None) + self._info.utcoffset(dt.replace(tzinfo=None))).replace(tzinfo=self)

    def __str__(self):
        return self.zone

    def __repr__(self):
        return f"<DstTzInfo {self.zone!r}>"


def pytz_module():
    utc = Zone("UTC")
    return {"timezone": lambda name: utc if name == "UTC" else Zone(name), "utc": utc, "UTC": utc}


def dbt_context():
    def tojson(value, default=None, sort_keys=False):
        try:
            return json.dumps(value, sort_keys=sort_keys)
        except ValueError:
            return default

    def fromjson(text, default=None):
        try:
            return json.loads(text)
        except ValueError:
            return default

    def toyaml(value, default=None, sort_keys=False):
        try:
            return yaml.safe_dump(data=value, sort_keys=sort_keys)
        except (ValueError, yaml.YAMLError):
            return default

    def fromyaml(value, default=None):
        try:
            return yaml.safe_load(value)
        except (AttributeError, ValueError, yaml.YAMLError):
            return default

    def to_set(value, default=None):
        try:
            return set(value)
        except TypeError:
            return default

    def to_zip(*args, default=None):
        try:
            return zip(*args)
        except TypeError:
            return default

    itertools_names = ["count", "cycle", "repeat", "accumulate", "chain", "compress", "islice", "starmap", "tee",
                       "zip_longest", "product", "permutations", "combinations", "combinations_with_replacement"]
    return {
        "modules": {
            "datetime": {name: getattr(datetime, name) for name in ["date", "datetime", "time", "timedelta", "tzinfo"]},
            "re": {name: getattr(re, name) for name in re.__all__},
            "itertools": {name: getattr(itertools, name) for name in itertools_names},
            "pytz": pytz_module(),
        },
        "tojson": tojson,
        "fromjson": fromjson,
        "toyaml": toyaml,
        "fromyaml": fromyaml,
        "set": to_set,
        "zip": to_zip,
        "local_md5": lambda text: hashlib.md5(text.encode("utf-8")).hexdigest(),
    }


def render(env, case):
    try:
        template = env.from_string(case["template"])
        return {"output": template.render(case.get("context", {}))}
    except Exception as err:  # the message Jinja gives, for the error cases
        return {"error": f"{type(err).__name__}: {err}"}


def main():
    cases_path = Path(sys.argv[1]) if len(sys.argv) > 1 else CASES
    out_path = Path(sys.argv[2]) if len(sys.argv) > 2 else OUT
    cases = json.loads(cases_path.read_text(encoding="utf-8"))
    env = SandboxedEnvironment(extensions=["jinja2.ext.do", "jinja2.ext.loopcontrols"], trim_blocks=False)
    env.globals.update(dbt_context())
    names = set()
    expected = {}
    for case in cases:
        if case["name"] in names:
            sys.exit(f"duplicate case name: {case['name']}")
        names.add(case["name"])
        expected[case["name"]] = render(env, case)
    expected = {"jinja2": jinja2.__version__, "cases": expected}
    out_path.write_text(json.dumps(expected, indent=2, ensure_ascii=False, sort_keys=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
